import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformStack, TerraformVariable } from 'cdktf';
import { ConstructValidationError, OrgAdminProvider, Webhook } from '../../src/constructs';

Testing.setupJest();

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new OrgAdminProvider(stack, 'orgadmin');
  return stack;
}

/** The construct's problems, or an empty list when it was accepted. */
function problemsOf(build: () => void): readonly string[] {
  try {
    build();
    return [];
  } catch (error) {
    if (error instanceof ConstructValidationError) return error.problems;
    throw error;
  }
}

describe('Webhook', () => {
  it('declares orgadmin_webhook with the secret from a sensitive variable, written only as a reference', () => {
    const stack = newStack();
    const secret = new TerraformVariable(stack, 'webhook_secret', { type: 'string', sensitive: true });
    const hook = new Webhook(stack, 'drift', {
      url: 'https://ci.example.com/hooks/orgadmin',
      eventTypes: ['admin.ORGANIZATION-*', 'admin.ORGANIZATION_MEMBERSHIP-*'],
      secret: secret.stringValue,
      secretVersion: 2,
    });
    const json = JSON.parse(Testing.synth(stack));
    expect(Object.values(json.resource.orgadmin_webhook)).toEqual([{
      url: 'https://ci.example.com/hooks/orgadmin',
      event_types: ['admin.ORGANIZATION-*', 'admin.ORGANIZATION_MEMBERSHIP-*'],
      secret_wo: '${var.webhook_secret}',
      secret_wo_version: 2,
    }]);
    expect(hook.webhookId).toMatch(/^\$\{TfToken\[TOKEN\.\d+\]\}$/);
  });

  it('leaves the defaults to the provider: every event, enabled, a generated secret', () => {
    const stack = newStack();
    new Webhook(stack, 'all', { url: 'https://ci.example.com/all', realm: 'acme' });
    const [declared] = Object.values(JSON.parse(Testing.synth(stack)).resource.orgadmin_webhook);
    expect(declared).toEqual({ url: 'https://ci.example.com/all', realm: 'acme' });
  });

  it('refuses every problem at once, never quoting a literal secret, and adds nothing to the stack', () => {
    const stack = newStack();
    const problems = problemsOf(
      () => new Webhook(stack, 'bad', { url: 'ftp://ci.example.com', eventTypes: ['admin.(x)'], secret: 'literal-secret-value', realm: 'Not_A_Realm' }),
    );
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^url /);
    expect(problems[1]).toBe('eventTypes entry "admin.(x)" may hold only letters, digits, ".", "_", "-" and "*".');
    expect(problems[2]).toMatch(/^secret must be a token/);
    expect(problems[3]).toMatch(/^realm /);
    expect(problems.join('\n')).not.toContain('literal-secret-value');
    expect(stack.node.tryFindChild('bad')).toBeUndefined();
    expect(problemsOf(() => new Webhook(stack, 'version-only', { url: 'https://ci.example.com', secretVersion: 1 }))).toEqual([
      'secretVersion says when to send secret again: give secret too.',
    ]);
    expect(problemsOf(() => new Webhook(stack, 'none', { url: 'https://ci.example.com', eventTypes: [] }))).toEqual([
      'eventTypes is empty, so the webhook would get nothing; leave it out for every event.',
    ]);
  });
});
