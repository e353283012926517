import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformStack } from 'cdktf';
import { ConstructValidationError, OrgAdminProvider, User } from '../../src/constructs';
import { DataOrgadminUser } from '../../src/constructs/gen/data-orgadmin-user';

Testing.setupJest();

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new OrgAdminProvider(stack, 'orgadmin');
  return stack;
}

describe('User', () => {
  it('looks a user up by email with the orgadmin_user data source named after the construct', () => {
    const stack = newStack();
    const alice = User.fromEmail(stack, 'alice', 'alice@example.com', { realm: 'acme' });
    const synthesized = Testing.synth(stack);
    expect(synthesized).toHaveDataSourceWithProperties(DataOrgadminUser, { email: 'alice@example.com', realm: 'acme' });
    expect(Object.keys(JSON.parse(synthesized).data.orgadmin_user)).toEqual(['alice']);
    expect(alice.description).toBe('alice@example.com');
  });

  it('looks a user up by username', () => {
    const stack = newStack();
    User.fromUsername(stack, 'bob', 'bob');
    expect(Testing.synth(stack)).toHaveDataSourceWithProperties(DataOrgadminUser, { username: 'bob' });
  });

  it('names a user by id without a look-up', () => {
    const stack = newStack();
    const carol = User.fromUserId(stack, 'carol', 'user-3');
    expect(carol.userId).toBe('user-3');
    expect(JSON.parse(Testing.synth(stack)).data).toBeUndefined();
  });

  it.each([
    ['an email without @', () => User.fromEmail(newStack(), 'x', 'alice.example.com'), 'email must be an email address (got "alice.example.com").'],
    ['an empty username', () => User.fromUsername(newStack(), 'x', ' '), 'username must not be empty (got " ").'],
    ['an empty user id', () => User.fromUserId(newStack(), 'x', ''), 'userId must not be empty (got "").'],
  ])('refuses %s', (_what, build, problem) => {
    expect(build).toThrow(ConstructValidationError);
    expect(build).toThrow(problem);
  });
});
