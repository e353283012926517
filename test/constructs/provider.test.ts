import 'cdktf/lib/testing/adapters/jest';
import { Testing, TerraformStack } from 'cdktf';
import { ConstructValidationError, OrgAdminProvider } from '../../src/constructs';
import { OrgadminProvider } from '../../src/constructs/gen/provider';

Testing.setupJest();

// eslint-disable-next-line @typescript-eslint/no-require-imports
const packageVersion = (require('../../package.json') as { version: string }).version;

describe('OrgAdminProvider', () => {
  it('writes every setting into the provider block', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    new OrgAdminProvider(stack, 'orgadmin', {
      baseUrl: 'https://orgs.example.com',
      realm: 'acme',
      clientId: 'client-1',
      clientSecret: 'secret-1',
      requestTimeout: 15,
      maxRetries: 2,
      alias: 'acme',
    });
    expect(Testing.synth(stack)).toHaveProviderWithProperties(OrgadminProvider, {
      base_url: 'https://orgs.example.com',
      realm: 'acme',
      client_id: 'client-1',
      client_secret: 'secret-1',
      request_timeout: 15,
      max_retries: 2,
      alias: 'acme',
    });
  });

  it('writes a user access token as access_token, instead of an API key', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    new OrgAdminProvider(stack, 'orgadmin', { baseUrl: 'https://acme.example.com', accessToken: 'token-1' });
    expect(JSON.parse(Testing.synth(stack)).provider.orgadmin).toEqual([{ base_url: 'https://acme.example.com', access_token: 'token-1' }]);
  });

  it('writes an empty provider block when everything comes from the environment', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    new OrgAdminProvider(stack, 'orgadmin');
    const json = JSON.parse(Testing.synth(stack));
    expect(json.provider.orgadmin).toEqual([{}]);
  });

  it('requires the provider from its registry address at the version the bindings were generated from', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    new OrgAdminProvider(stack, 'orgadmin');
    const json = JSON.parse(Testing.synth(stack));
    expect(json.terraform.required_providers.orgadmin).toEqual({ source: 'registry.terraform.io/orgadmin/orgadmin', version: packageVersion });
  });

  it('reports every invalid setting at once and never quotes a secret', () => {
    const stack = new TerraformStack(Testing.app(), 'test');
    let error: unknown;
    try {
      new OrgAdminProvider(stack, 'orgadmin', {
        baseUrl: 'not a url',
        realm: '',
        requestTimeout: 0,
        maxRetries: 1.5,
        clientSecret: 'hunter2',
        accessToken: 'token-xyz',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConstructValidationError);
    const { problems, message } = error as ConstructValidationError;
    expect(problems).toEqual([
      'baseUrl is not an absolute URL; write it with its scheme, e.g. `https://acme.example.com` (got "not a url").',
      'realm is empty (got ""); leave it out to use the provider\'s realm.',
      'requestTimeout must be a number of seconds above 0 and at most 3600 (got 0).',
      'maxRetries must be a whole number from 0 to 20 (got 1.5).',
      'clientSecret and accessToken are two ways to authenticate; give one of them.',
    ]);
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('token-xyz');
    // Nothing joined the tree.
    expect(stack.node.tryFindChild('orgadmin')).toBeUndefined();
  });
});
