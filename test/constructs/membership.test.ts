import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformStack } from 'cdktf';
import { ConstructValidationError, Membership, OrgAdminProvider, Organization, User } from '../../src/constructs';
import { Membership as MembershipResource } from '../../src/constructs/gen/membership';

Testing.setupJest();

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new OrgAdminProvider(stack, 'orgadmin');
  return stack;
}

/** The stack's default (unaliased) orgadmin provider. */
function newStackProvider(stack: TerraformStack): OrgAdminProvider {
  return stack.node.findChild('orgadmin') as OrgAdminProvider;
}

describe('Membership', () => {
  it('takes the organization as a construct and the user id from a look-up', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    const alice = User.fromEmail(stack, 'alice', 'alice@example.com');
    new Membership(stack, 'alice-in-acme', { organization: acme, userId: alice.userId });
    const json = JSON.parse(Testing.synth(stack));
    expect(json.resource.orgadmin_membership['alice-in-acme']).toEqual({
      organization_id: '${orgadmin_organization.acme.id}',
      user_id: '${data.orgadmin_user.alice.id}',
    });
  });

  it('takes the organization as an id string and an explicit realm', () => {
    const stack = newStack();
    new Membership(stack, 'm', { organization: 'org-1', userId: 'user-1', realm: 'acme' });
    expect(Testing.synth(stack)).toHaveResourceWithProperties(MembershipResource, { organization_id: 'org-1', user_id: 'user-1', realm: 'acme' });
  });

  it("uses the organization's provider configuration unless it names another", () => {
    const stack = newStack();
    const other = new OrgAdminProvider(stack, 'other-realm', { realm: 'other', alias: 'other' });
    const acme = new Organization(stack, 'acme', { name: 'acme', provider: other });
    const legacy = Organization.fromOrganizationId(stack, 'legacy', 'org-9', { provider: other });
    new Membership(stack, 'in-acme', { organization: acme, userId: 'user-1' });
    new Membership(stack, 'in-legacy', { organization: legacy, userId: 'user-1' });
    new Membership(stack, 'default', { organization: acme, userId: 'user-2', provider: newStackProvider(stack) });
    const memberships = JSON.parse(Testing.synth(stack)).resource.orgadmin_membership;
    expect(memberships['in-acme'].provider).toBe('orgadmin.other');
    expect(memberships['in-legacy'].provider).toBe('orgadmin.other');
    expect(memberships.default.provider).toBe('orgadmin');
  });

  it('reports empty ids and a mixed membership style together', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme', members: { authoritative: ['user-1'] } });
    let error: unknown;
    try {
      new Membership(stack, 'm', { organization: acme, userId: '' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConstructValidationError);
    const { problems } = error as ConstructValidationError;
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe('userId must not be empty (got "").');
    expect(problems[1]).toContain('cannot add the membership "test/m"');
  });

  it('reports an empty organization id and an empty user id together', () => {
    const stack = newStack();
    let error: unknown;
    try {
      new Membership(stack, 'm', { organization: '', userId: '' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConstructValidationError);
    expect((error as ConstructValidationError).problems).toEqual([
      'organization must be an organization or its id (got "").',
      'userId must not be empty (got "").',
    ]);
  });
});
