import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformOutput, TerraformStack, TerraformVariable } from 'cdktf';
import { ConstructValidationError, Organization, OrgAdminProvider } from '../../src/constructs';

Testing.setupJest();

function newStack(): TerraformStack {
  // Write-only attributes need Terraform 1.11: a cdktn project says so in cdktf.json's targetVersions (cdktf ignores it).
  const stack = new TerraformStack(Testing.app({ context: { targetVersions: { terraform: '>=1.11.0', opentofu: '>=1.11.0' } } }), 'test');
  new OrgAdminProvider(stack, 'orgadmin', { baseUrl: 'http://127.0.0.1:8080', realm: 'acme' });
  return stack;
}

/** Synthesizes a stack (with its synth-time validations) into its parsed JSON. */
function synthJson(stack: TerraformStack): any {
  return JSON.parse(Testing.synth(stack, true));
}

function validationError(fn: () => unknown): ConstructValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConstructValidationError) return error;
    throw error;
  }
  throw new Error('expected a ConstructValidationError, nothing was thrown');
}

describe('single sign-on in the constructs', () => {
  it('onboards a customer: verified domain, identity provider with a write-only secret, first administrators\' roles', () => {
    const stack = newStack();
    const secret = new TerraformVariable(stack, 'okta_secret', { type: 'string', sensitive: true });
    const globex = new Organization(stack, 'globex', { name: 'globex', domains: ['Globex.com'] });
    const admin = globex.addRole('admin');
    const domain = globex.addDomain('globex.com', { timeout: '15m' });
    const okta = globex.addIdentityProvider('globex-okta', { displayName: 'Globex Okta', issuer: 'https://globex.okta.com', clientId: 'orgadmin', clientSecret: secret.stringValue, firstSignInRoles: [admin, 'view-members'] });
    // The record and the redirect URI are references a DNS resource and an upstream registration can use.
    new TerraformOutput(stack, 'record', { value: `${domain.recordName} TXT ${domain.recordValue}` });
    new TerraformOutput(stack, 'redirect', { value: okta.redirectUri });
    const json = synthJson(stack);
    expect(json.output.record.value).toMatch(/^\$\{orgadmin_organization_domain_verification\.globex_Domain-globexcom_[0-9A-F]{8}\.record_name\} TXT \$\{orgadmin_organization_domain_verification\.globex_Domain-globexcom_[0-9A-F]{8}\.record_value\}$/);
    expect(json.output.redirect.value).toMatch(/^\$\{orgadmin_organization_identity_provider\.globex_Idp-globex-okta_[0-9A-F]{8}\.redirect_uri\}$/);
    const [verification] = Object.values(json.resource.orgadmin_organization_domain_verification) as Array<Record<string, unknown>>;
    expect(verification).toEqual({ organization_id: '${orgadmin_organization.globex.id}', domain: 'globex.com', timeouts: { create: '15m' } });
    const [idp] = Object.values(json.resource.orgadmin_organization_identity_provider) as Array<Record<string, unknown>>;
    expect(idp).toEqual({
      organization_id: '${orgadmin_organization.globex.id}',
      alias: 'globex-okta',
      display_name: 'Globex Okta',
      issuer: 'https://globex.okta.com',
      client_id: 'orgadmin',
      client_secret_wo: '${var.okta_secret}',
      client_secret_wo_version: 1,
    });
    const [mapper] = Object.values(json.resource.orgadmin_organization_identity_provider_mapper) as Array<Record<string, unknown>>;
    expect(mapper).toEqual({
      organization_id: '${orgadmin_organization.globex.id}',
      identity_provider_alias: expect.stringMatching(/^\$\{orgadmin_organization_identity_provider\.globex_Idp-globex-okta_[0-9A-F]{8}\.alias\}$/),
      name: 'first sign-in roles',
      mapper_type: 'oidc-hardcoded-org-role-idp-mapper',
      // The declared role by reference, so it exists before the mapper names it.
      config: { org_role: expect.stringMatching(/^\$\{orgadmin_organization_role\.globex_Role-admin_[0-9A-F]{8}\.name\}##view-members$/), syncMode: 'IMPORT' },
    });
  });

  it('refuses a domain the organization does not list, a bad alias, both or neither upstream setting, and a version without a secret', () => {
    const stack = newStack();
    const globex = new Organization(stack, 'globex', { name: 'globex', domains: ['globex.com'] });
    expect(validationError(() => globex.addDomain('initech.com')).message).toContain('the organization\'s domains (globex.com) do not include it');
    expect(validationError(() => globex.addDomain('globex.com', { timeout: 'soon' })).message).toContain('timeout "soon" must be a duration');
    expect(validationError(() => globex.addIdentityProvider('globex okta', { issuer: 'https://a.example', clientId: 'c' })).message).toContain('alias "globex okta"');
    expect(validationError(() => globex.addIdentityProvider('a', { clientId: 'c' })).message).toContain('give exactly one of issuer and discoveryUrl');
    expect(validationError(() => globex.addIdentityProvider('b', { issuer: 'https://a.example', discoveryUrl: 'https://a.example/.well-known/openid-configuration', clientId: 'c' })).message).toContain('give exactly one');
    expect(validationError(() => globex.addIdentityProvider('c', { issuer: 'https://a.example', clientId: 'c', clientSecretVersion: 2 })).message).toContain('give the secret too');
    // Nothing refused reached the stack.
    expect(synthJson(stack).resource.orgadmin_organization_identity_provider).toBeUndefined();
  });
});
