import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformStack } from 'cdktf';
import { ConstructValidationError, MemberRoles, Organization, OrganizationRole, OrgAdminProvider, User } from '../../src/constructs';

Testing.setupJest();

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
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

describe('roles in the constructs', () => {
  it('gives an additive member its roles, after the membership and the declared roles', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    const billing = new OrganizationRole(stack, 'billing', { organization: acme, name: 'billing', description: 'Pays' });
    acme.addMember(User.fromEmail(stack, 'alice', 'alice@example.com'), { roles: [billing, 'view-members'] });
    const json = synthJson(stack);
    expect(json.resource.orgadmin_organization_role.billing).toEqual({ organization_id: '${orgadmin_organization.acme.id}', name: 'billing', description: 'Pays' });
    const [memberRoles] = Object.values(json.resource.orgadmin_organization_member_roles) as Array<Record<string, unknown>>;
    expect(memberRoles).toEqual({
      organization_id: '${orgadmin_organization.acme.id}',
      // References: the membership and the role are made first.
      user_id: expect.stringMatching(/^\$\{orgadmin_membership\.acme_Member-alice_[0-9A-F]{8}\.user_id\}$/),
      roles: ['${orgadmin_organization_role.billing.name}', 'view-members'],
    });
  });

  it('keeps addMember(user, id) working, and takes { id, roles }', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.addMember('user-1', 'first');
    acme.addMember('user-2', { id: 'second', roles: ['view-roles'] });
    acme.addRole('billing', { description: 'Pays' });
    const json = synthJson(stack);
    expect(Object.keys(json.resource.orgadmin_membership).map((key) => key.split('_')[1]).sort()).toEqual(['first', 'second']);
    expect(Object.values(json.resource.orgadmin_organization_member_roles)).toHaveLength(1);
    expect(Object.values(json.resource.orgadmin_organization_role)).toEqual([{ organization_id: '${orgadmin_organization.acme.id}', name: 'billing', description: 'Pays' }]);
  });

  it('gives members of an authoritative set their roles after the set, and refuses users outside it', () => {
    const stack = newStack();
    const globex = new Organization(stack, 'globex', { name: 'globex', members: { authoritative: ['user-1', 'user-2'] } });
    globex.grantRoles('user-1', ['manage-members']);
    const json = synthJson(stack);
    const [memberRoles] = Object.values(json.resource.orgadmin_organization_member_roles) as Array<Record<string, unknown>>;
    expect(memberRoles).toMatchObject({ user_id: 'user-1', roles: ['manage-members'], depends_on: [expect.stringMatching(/^orgadmin_organization_members\./)] });
    expect(validationError(() => globex.grantRoles('user-9', ['view-roles'])).problems).toEqual([
      'user "user-9" is not in the authoritative member set: only members hold roles; add the user to the set first.',
    ]);
  });

  it('refuses at synth a role of an organization it creates that is neither default nor declared in the stack', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.addMember('user-1', { roles: ['billing', 'view-members'] });
    expect(() => Testing.synth(stack, true)).toThrow(/the role "billing" \(given to ".*Member-user-1\/Roles"\) is neither a default role of the organization nor declared in this stack/);
    // Declared later in the code, it is fine: the check runs at synth.
    acme.addRole('billing');
    expect(() => Testing.synth(stack, true)).not.toThrow();
  });

  it('trusts role names of organizations managed elsewhere or adopted', () => {
    const stack = newStack();
    const legacy = Organization.fromOrganizationId(stack, 'legacy', 'org-9');
    legacy.grantRoles('user-1', ['made-elsewhere']);
    const adopted = new Organization(stack, 'adopted', { name: 'adopted', existingOrganizationId: 'org-7' });
    adopted.addMember('user-2', { roles: ['also-elsewhere'] });
    expect(() => Testing.synth(stack, true)).not.toThrow();
  });

  it('reports bad role names, repeats, roles of another organization and a role declared twice, changing nothing', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    const globex = new Organization(stack, 'globex', { name: 'globex' });
    const foreign = globex.addRole('auditor');
    const error = validationError(() => acme.addMember('user-1', { roles: ['', 'a/b', 'view-roles', 'view-roles', foreign] }));
    expect(error.problems).toEqual([
      'roles[0] must not be empty (got "").',
      'roles[1] must not contain "/" (got "a/b").',
      'roles lists "view-roles" more than once; list each role once.',
      `roles[4] is the role "auditor" of another organization ("${foreign.node.path}"): a member holds roles of their own organization only.`,
    ]);
    expect(acme.node.tryFindChild('Member-user-1')).toBeUndefined();
    acme.addRole('billing');
    expect(validationError(() => new OrganizationRole(stack, 'billing-again', { organization: acme, name: 'billing' })).problems).toEqual([
      'the role "billing" is already declared by "test/acme/Role-billing"; declare each role of an organization once.',
    ]);
    expect(validationError(() => new OrganizationRole(stack, 'blank', { organization: acme, name: ' ' })).problems).toEqual(['name must not be empty (got " ").']);
    expect(validationError(() => new MemberRoles(stack, 'no-user', { organization: acme, userId: '', roles: [] })).problems).toEqual(['userId must not be empty (got "").']);
  });
});
