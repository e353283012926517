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
