/**
 * `provider::orgadmin::parse_import_id`: the import id forms of the resources, read by their own
 * parser. Called through the provider service on an unconfigured provider, as Terraform does.
 */
import { IMPORT_ID_FORMS, PARSE_IMPORT_ID_FUNCTION as NAME } from '../../../src/provider/functions/parse-import-id';
import { createOrgAdminProvider } from '../../../src/provider/provider';
import { ProviderHarness } from '../../../src/tfplugin/testing/harness';

const harness = new ProviderHarness(createOrgAdminProvider({ env: {} }));
const call = (...args: string[]): ReturnType<typeof harness.callFunction> => harness.callFunction(NAME, args);

describe('parse_import_id', () => {
  it('covers every importable resource of the provider', () => {
    const importable = createOrgAdminProvider({ env: {} }).resources.filter((r) => r.importState).map((r) => r.typeName);
    expect(IMPORT_ID_FORMS.map((form) => form.typeName).sort()).toEqual(importable.sort());
  });

  it('reads ids that have one reading without a resource type', async () => {
    expect(await call('org-1')).toEqual({ result: { realm: null, organization_id: 'org-1', user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
    expect(await call('acme/org-1/user-9')).toEqual({ result: { realm: 'acme', organization_id: 'org-1', user_id: 'user-9', role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
  });

  it('reads an id by the form of the resource type given', async () => {
    expect(await call('org-1/user-9', 'orgadmin_membership')).toEqual({ result: { realm: null, organization_id: 'org-1', user_id: 'user-9', role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
    expect(await call('acme/org-1', 'orgadmin_organization')).toEqual({ result: { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
    expect(await call('acme/org-1', 'orgadmin_organization_members')).toEqual({ result: { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
  });

  it('reads a role\'s id only by its type, so ids without a type read as before', async () => {
    expect(await call('acme/org-1/billing', 'orgadmin_organization_role')).toEqual({ result: { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: 'billing', domain: null, alias: null, mapper_id: null, webhook_id: null } });
    expect(await call('org-1/billing', 'orgadmin_organization_role')).toEqual({ result: { realm: null, organization_id: 'org-1', user_id: null, role_name: 'billing', domain: null, alias: null, mapper_id: null, webhook_id: null } });
    expect(await call('org-1/user-9', 'orgadmin_organization_member_roles')).toEqual({ result: { realm: null, organization_id: 'org-1', user_id: 'user-9', role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
    // A member's roles read like a membership, so three segments still have one reading.
    expect(await call('acme/org-1/user-9')).toEqual({ result: { realm: 'acme', organization_id: 'org-1', user_id: 'user-9', role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
  });

  it('reads a domain verification\'s id by the dot of its domain, and an identity provider\'s only by its type', async () => {
    const globex = { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: null, domain: 'globex.com', alias: null, mapper_id: null, webhook_id: null };
    expect(await call('acme/org-1/globex.com', 'orgadmin_organization_domain_verification')).toEqual({ result: globex });
    expect(await call('org-1/globex.com', 'orgadmin_organization_domain_verification')).toEqual({ result: { ...globex, realm: null } });
    expect((await call('org-1/user-9', 'orgadmin_organization_domain_verification')).error).toMatchObject({ argument: 0, text: '"user-9" is not a domain (like `globex.com`)' });
    // A dotted last segment may be a domain or a user id: the type decides.
    expect((await call('acme/org-1/globex.com')).error).toMatchObject({ argument: 0, text: expect.stringContaining('orgadmin_organization_domain_verification') });
    expect(await call('acme/org-1/globex-okta', 'orgadmin_organization_identity_provider')).toEqual({
      result: { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: null, domain: null, alias: 'globex-okta', mapper_id: null, webhook_id: null },
    });
  });

  it('reads a mapper\'s id only by its type', async () => {
    expect(await call('acme/org-1/globex-okta/m-1', 'orgadmin_organization_identity_provider_mapper')).toEqual({
      result: { realm: 'acme', organization_id: 'org-1', user_id: null, role_name: null, domain: null, alias: 'globex-okta', mapper_id: 'm-1', webhook_id: null },
    });
    expect((await call('acme/org-1/globex-okta/m-1')).error).toMatchObject({ argument: 0, text: expect.stringContaining('is no orgadmin import id') });
  });

  it('reads a webhook\'s id only by its type, never as an organization\'s', async () => {
    const webhook = { realm: 'acme', organization_id: null, user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: 'hook-1' };
    expect(await call('acme/hook-1', 'orgadmin_webhook')).toEqual({ result: webhook });
    expect(await call('hook-1', 'orgadmin_webhook')).toEqual({ result: { ...webhook, realm: null } });
    expect(await call('hook-1')).toEqual({ result: { realm: null, organization_id: 'hook-1', user_id: null, role_name: null, domain: null, alias: null, mapper_id: null, webhook_id: null } });
  });

  it('refuses a two-segment id without a type, naming the readings, on the id', async () => {
    const { error } = await call('org-1/user-9');
    expect(error).toEqual({
      argument: 0,
      text: expect.stringMatching(/^"org-1\/user-9" reads differently for orgadmin_organization and orgadmin_membership and orgadmin_organization_members and orgadmin_organization_member_roles: give the resource type/),
    });
  });

  it('reports what the resource\'s own import would say about a bad id, on the id', async () => {
    const { error } = await call('acme/ org-1/user', 'orgadmin_membership');
    expect(error!.argument).toBe(0);
    expect(error!.text).toContain('The import id "acme/ org-1/user" has spaces around the ORG segment.');
    expect(error!.text).toContain('terraform import orgadmin_membership.example');
    expect((await call('a//b')).error).toMatchObject({ argument: 0, text: expect.stringContaining('is no orgadmin import id') });
  });

  it('refuses an unknown resource type on the type, and more than one type', async () => {
    expect((await call('org-1', 'orgadmin_user')).error).toEqual({
      argument: 1,
      text: '"orgadmin_user" is not an importable orgadmin resource; use one of orgadmin_organization, orgadmin_membership, orgadmin_organization_members, orgadmin_organization_role, orgadmin_organization_member_roles, orgadmin_organization_domain_verification, orgadmin_organization_identity_provider, orgadmin_organization_identity_provider_mapper, orgadmin_webhook',
    });
    expect((await call('org-1', 'orgadmin_organization', 'orgadmin_membership')).error).toMatchObject({ argument: 2 });
  });
});
