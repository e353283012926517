import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformOutput, TerraformStack } from 'cdktf';
import { ConstructValidationError, Membership, Organization, OrgAdminProvider, User } from '../../src/constructs';
import { Organization as OrganizationResource } from '../../src/constructs/gen/organization';
import { OrganizationMembers as OrganizationMembersResource } from '../../src/constructs/gen/organization-members';
import { Membership as MembershipResource } from '../../src/constructs/gen/membership';

Testing.setupJest();

/** A stack with the default provider, ready for organizations. */
function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new OrgAdminProvider(stack, 'orgadmin', { baseUrl: 'http://127.0.0.1:8080', realm: 'acme' });
  return stack;
}

/** Synthesizes a stack into its parsed JSON. */
function synthJson(stack: TerraformStack): any {
  return JSON.parse(Testing.synth(stack));
}

/** Runs `fn` and returns the validation error it throws. */
function validationError(fn: () => unknown): ConstructValidationError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConstructValidationError) return error;
    throw error;
  }
  throw new Error('expected a ConstructValidationError, nothing was thrown');
}

describe('Organization', () => {
  it('writes every prop into the orgadmin_organization resource', () => {
    const stack = newStack();
    new Organization(stack, 'acme', {
      name: 'acme',
      displayName: 'ACME Inc.',
      url: 'https://acme.example.com',
      domains: ['acme.com', 'acme.org'],
      attributes: { tier: ['gold'], region: ['eu', 'us'] },
      realm: 'other',
    });
    const synthesized = Testing.synth(stack);
    expect(synthesized).toHaveResourceWithProperties(OrganizationResource, {
      name: 'acme',
      display_name: 'ACME Inc.',
      url: 'https://acme.example.com',
      domains: ['acme.com', 'acme.org'],
      attributes: { tier: ['gold'], region: ['eu', 'us'] },
      realm: 'other',
    });
  });

  it('refuses a second organization with the same name in one stack, naming the first', () => {
    const stack = newStack();
    new Organization(stack, 'first', { name: 'same-name' });
    const error = validationError(() => new Organization(stack, 'second', { name: 'same-name' }));
    expect(error.problems).toEqual([expect.stringContaining('"same-name" is already the name of the organization "test/first"')]);
    // Nothing was added for the refused one; another name or another realm is fine.
    expect(stack.node.tryFindChild('second')).toBeUndefined();
    expect(() => new Organization(stack, 'third', { name: 'other-name' })).not.toThrow();
    expect(() => new Organization(stack, 'fourth', { name: 'same-name', realm: 'elsewhere' })).not.toThrow();
  });

  it('uses the construct id as the resource address', () => {
    const stack = newStack();
    new Organization(stack, 'acme', { name: 'acme' });
    expect(Object.keys(synthJson(stack).resource.orgadmin_organization)).toEqual(['acme']);
  });

  it('leaves unset optional props out of the configuration', () => {
    const stack = newStack();
    new Organization(stack, 'acme', { name: 'acme' });
    expect(synthJson(stack).resource.orgadmin_organization.acme).toEqual({ name: 'acme' });
  });

  it('exposes the organization id as a reference to the resource', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    new TerraformOutput(stack, 'acme_id', { value: acme.organizationId });
    expect(synthJson(stack).output.acme_id.value).toBe('${orgadmin_organization.acme.id}');
  });

  it('reports every invalid prop at once, quoting the values given', () => {
    const stack = newStack();
    const error = validationError(
      () => new Organization(stack, 'bad', { name: '', url: 'ftp://acme', domains: ['acme.com', 'not a domain', 'ACME.com.'] }),
    );
    expect(error.problems).toEqual([
      'name must not be empty (got "").',
      'url has the scheme "ftp"; only http and https are accepted (got "ftp://acme").',
      'domains[1] is not a valid DNS name: the label "not a domain" is not letters, digits and inner hyphens of at most 63 characters (got "not a domain").',
      // Case and the root dot do not count (src/api/validation.ts): "ACME.com." is "acme.com" again.
      'domains[2] repeats the domain "acme.com".',
    ]);
    expect(error.message).toContain('test/bad');
    expect(error.message).toContain('4 problems');
  });

  it('uses a second, aliased provider for the organization, its members and its member set', () => {
    const stack = newStack();
    const other = new OrgAdminProvider(stack, 'other-realm', { realm: 'other', alias: 'other' });
    const acme = new Organization(stack, 'acme', { name: 'acme', provider: other });
    acme.addMember('user-1');
    new Organization(stack, 'globex', { name: 'globex', provider: other, members: { authoritative: ['user-2'] } });
    const json = synthJson(stack);
    expect(json.resource.orgadmin_organization.acme.provider).toBe('orgadmin.other');
    expect(json.resource.orgadmin_organization.globex.provider).toBe('orgadmin.other');
    expect((Object.values(json.resource.orgadmin_membership) as Array<{ provider: string }>)[0]!.provider).toBe('orgadmin.other');
    expect((Object.values(json.resource.orgadmin_organization_members) as Array<{ provider: string }>)[0]!.provider).toBe('orgadmin.other');
  });

  it('reports invalid attributes, realm and existing organization id, and an over-long name', () => {
    const stack = newStack();
    const error = validationError(
      () =>
        new Organization(stack, 'bad', {
          name: 'x'.repeat(256),
          attributes: { ' ': ['a'], tier: [1 as unknown as string] },
          realm: ' ',
          existingOrganizationId: '',
        }),
    );
    expect(error.problems).toEqual([
      'name must be at most 255 characters (got 256 characters).',
      'attributes must not have an empty key (got " ").',
      'attributes["tier"] must be a list of strings (got [1]).',
      'realm is not valid: use 1 to 63 lowercase letters, digits or hyphens, not starting or ending with a hyphen (got " "); leave it out to use the provider\'s realm.',
      'existingOrganizationId must not be empty when given (got "").',
    ]);
  });

  it('leaves a refused organization out of the tree', () => {
    const stack = newStack();
    validationError(() => new Organization(stack, 'bad', { name: '' }));
    expect(stack.node.tryFindChild('bad')).toBeUndefined();
    expect(() => new Organization(stack, 'bad', { name: 'fixed' })).not.toThrow();
  });

  it('accepts domains in any case and with the root dot, and writes them in the form the service stores (which the provider requires)', () => {
    const stack = newStack();
    new Organization(stack, 'acme', { name: 'acme', domains: ['Acme.example.COM', 'other.example.'] });
    expect(Testing.synth(stack)).toHaveResourceWithProperties(OrganizationResource, { domains: ['acme.example.com', 'other.example'] });
  });

  it('skips unresolved tokens in validation', () => {
    const stack = newStack();
    const other = new Organization(stack, 'other', { name: 'other' });
    const tokens = { name: other.resource.displayName, url: other.resource.url, domains: other.resource.domains, realm: other.resource.realm };
    expect(() => new Organization(stack, 'tokens', tokens)).not.toThrow();
    // The same kinds of values, known and invalid, are refused: the tokens were skipped, not ignored by accident.
    expect(validationError(() => new Organization(stack, 'known', { name: '', url: 'x', domains: ['a..b'], realm: '' })).problems).toHaveLength(4);
  });
});

describe('Organization.addMember', () => {
  it('creates an orgadmin_membership that references the organization, so it is applied after it', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    const membership = acme.addMember('user-1');
    expect(membership).toBeInstanceOf(Membership);
    expect(Testing.synth(stack)).toHaveResourceWithProperties(MembershipResource, {
      organization_id: '${orgadmin_organization.acme.id}',
      user_id: 'user-1',
    });
  });

  it('passes the organization realm on to the membership', () => {
    const stack = newStack();
    new Organization(stack, 'acme', { name: 'acme', realm: 'other' }).addMember('user-1');
    expect(Testing.synth(stack)).toHaveResourceWithProperties(MembershipResource, { realm: 'other' });
  });

  it('names a user looked up by email through the orgadmin_user data source', () => {
    const stack = newStack();
    const alice = User.fromEmail(stack, 'alice', 'alice@example.com');
    new Organization(stack, 'acme', { name: 'acme' }).addMember(alice);
    const json = synthJson(stack);
    expect(json.data.orgadmin_user.alice).toEqual({ email: 'alice@example.com' });
    const memberships = Object.values(json.resource.orgadmin_membership) as Array<Record<string, unknown>>;
    expect(memberships).toEqual([{ organization_id: '${orgadmin_organization.acme.id}', user_id: '${data.orgadmin_user.alice.id}' }]);
  });

  it('refuses the same user twice', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.addMember('user-1');
    const error = validationError(() => acme.addMember('user-1', 'Again'));
    expect(error.problems[0]).toContain('user "user-1" is already a member');
  });

  it('refuses the same user twice with a validation error when both use the default id', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    const alice = User.fromEmail(stack, 'alice', 'alice@example.com');
    acme.addMember('user-1');
    acme.addMember(alice);
    expect(validationError(() => acme.addMember('user-1')).problems).toEqual([
      'user "user-1" is already a member through "test/acme/Member-user-1"; add each user once.',
    ]);
    expect(validationError(() => acme.addMember(alice)).problems[0]).toContain('is already a member through "test/acme/Member-alice"');
  });
});

describe('authoritative member set', () => {
  it('declares the whole set as one orgadmin_organization_members', () => {
    const stack = newStack();
    const bob = User.fromUsername(stack, 'bob', 'bob');
    new Organization(stack, 'acme', { name: 'acme', members: { authoritative: ['user-1', bob] } });
    expect(Testing.synth(stack)).toHaveResourceWithProperties(OrganizationMembersResource, {
      organization_id: '${orgadmin_organization.acme.id}',
      user_ids: ['user-1', '${data.orgadmin_user.bob.id}'],
    });
  });

  it('refuses addMember on an organization whose member set is authoritative', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme', members: { authoritative: ['user-1'] } });
    const error = validationError(() => acme.addMember('user-2'));
    expect(error.problems[0]).toContain('use one style per organization');
  });

  it('refuses setMembers after addMember, naming the additive memberships', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.addMember('user-1');
    const error = validationError(() => acme.setMembers(['user-2']));
    expect(error.problems[0]).toContain('test/acme/Member-user-1');
    expect(error.problems[0]).toContain('use one style per organization');
  });

  it('refuses a Membership construct on an organization whose member set is authoritative, leaving no trace', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.setMembers(['user-1']);
    expect(validationError(() => new Membership(stack, 'extra', { organization: acme, userId: 'user-2' })).problems[0]).toContain(
      'cannot add the membership "test/extra"',
    );
    expect(validationError(() => acme.addMember('user-2')).problems[0]).toContain('use one style per organization');
    expect(stack.node.tryFindChild('extra')).toBeUndefined();
    expect(acme.node.tryFindChild('Member-user-2')).toBeUndefined();
    expect(JSON.parse(Testing.synth(stack)).resource.orgadmin_membership).toBeUndefined();
  });

  it('reports a user listed twice together with the other problems', () => {
    const stack = newStack();
    const alice = User.fromEmail(stack, 'alice', 'alice@example.com');
    const error = validationError(
      () => new Organization(stack, 'acme', { name: ' ', members: { authoritative: ['user-1', alice, 'user-1', alice] } }),
    );
    expect(error.problems).toEqual([
      'name must not be empty (got " ").',
      'members.authoritative[2] names "user-1" a second time; a member set lists each user once.',
      'members.authoritative[3] names alice@example.com a second time; a member set lists each user once.',
    ]);
  });

  it('refuses a second member set', () => {
    const stack = newStack();
    const acme = new Organization(stack, 'acme', { name: 'acme' });
    acme.setMembers(['user-1']);
    expect(validationError(() => acme.setMembers(['user-2'])).problems[0]).toContain('already declared');
  });
});

describe('Organization existingOrganizationId', () => {
  it('writes import blocks for the organization and its authoritative member set', () => {
    const stack = newStack();
    new Organization(stack, 'legacy', { name: 'legacy', existingOrganizationId: 'org-9', members: { authoritative: ['user-1'] } });
    const json = synthJson(stack);
    const members = Object.keys(json.resource.orgadmin_organization_members)[0];
    expect(json.import).toEqual([
      { id: 'org-9', to: 'orgadmin_organization.legacy' },
      { id: 'org-9', to: `orgadmin_organization_members.${members}` },
    ]);
  });

  it('puts the realm in front of the import id when the organization names one', () => {
    const stack = newStack();
    new Organization(stack, 'legacy', { name: 'legacy', realm: 'other', existingOrganizationId: 'org-9' });
    expect(synthJson(stack).import).toEqual([{ id: 'other/org-9', to: 'orgadmin_organization.legacy' }]);
  });

  it('writes no import block without it', () => {
    const stack = newStack();
    new Organization(stack, 'acme', { name: 'acme' });
    expect(synthJson(stack).import).toBeUndefined();
  });
});

describe('Organization.fromOrganizationId', () => {
  it('refers to an existing organization without creating one', () => {
    const stack = newStack();
    const existing = Organization.fromOrganizationId(stack, 'legacy', 'org-123');
    existing.addMember('user-1');
    const json = synthJson(stack);
    expect(json.resource.orgadmin_organization).toBeUndefined();
    expect(Object.values(json.resource.orgadmin_membership)).toEqual([{ organization_id: 'org-123', user_id: 'user-1' }]);
  });

  it('refuses an empty id', () => {
    const stack = newStack();
    expect(validationError(() => Organization.fromOrganizationId(stack, 'legacy', '')).problems).toEqual(['organizationId must not be empty (got "").']);
  });
});
