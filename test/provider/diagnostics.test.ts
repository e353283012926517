import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NetworkError,
  NotFoundError,
  RateLimitedError,
  recordAttempts,
  ServerError,
  TimeoutError,
  TokenError,
  UnauthorizedError,
  UnexpectedResponseError,
} from '../../src/client';
import { describeError, isObjectNotFound, redactSecrets, reportError, type Operation, type ReportingContext } from '../../src/provider/diagnostics';
import { diagnosticsText, errorsOf, RecordingDiagnostics } from '../../src/tfplugin/testing/harness';

const SECRET = 'client-secret-4f9a8b7c6d5e';

const env: ReportingContext = {
  baseUrl: 'https://acme.example.com',
  realm: 'acme',
  authMethod: 'client_credentials',
  secrets: [SECRET],
  providerRealm: 'acme',
};

const update: Operation = {
  action: 'update organization',
  target: '"42" in realm "acme"',
  permission: 'manage-organizations',
};

const http = { method: 'PUT', path: '/realms/acme/orgs/42' };

describe('describeError', () => {
  it('lists the attempts once, not a second time inside the error message, when the service is down', () => {
    const error = recordAttempts(new NetworkError({ ...http, causeCode: 'ECONNREFUSED' }), {
      outcomes: ['connection refused (ECONNREFUSED)', 'connection refused (ECONNREFUSED)', 'connection refused (ECONNREFUSED)'],
      stoppedBecause: 'gave up after 3 attempts (max_retries = 2)',
    });
    const { detail } = describeError(error, update, env);
    expect(detail.split('connection refused (ECONNREFUSED)').length - 1).toBe(3);
    expect(detail.split('gave up after 3 attempts').length - 1).toBe(1);
  });

  it('redacts secrets only in what came from outside: a short wrong secret does not blank out words of the advice', () => {
    const wrong = { ...env, secrets: ['wrong'] };
    const answer = new TokenError({ realm: 'acme', status: 401, error: 'unauthorized_client', errorDescription: 'Secret "wrong" is not valid.' });
    const { detail } = describeError(answer, update, wrong);
    expect(detail).toContain('The client_secret is wrong for this client_id.');
    expect(detail).toContain('Secret "***" is not valid.');
  });

  it('says exactly how many requests were sent and what each got, and why no more were sent', () => {
    const error = recordAttempts(new ServerError({ status: 502, ...http }), {
      outcomes: ['HTTP 503', 'timed out after 2000 ms', 'HTTP 502'],
      stoppedBecause: 'gave up after 3 attempts (max_retries = 2)',
    });
    const text = describeError(error, update, env);
    expect(text.detail).toContain(
      'The request was sent 3 times: 1. HTTP 503; 2. timed out after 2000 ms; 3. HTTP 502; gave up after 3 attempts (max_retries = 2).',
    );
  });

  it('says a request sent once was not retried, and why', () => {
    const error = recordAttempts(new TimeoutError({ method: 'POST', path: '/realms/acme/orgs', timeoutMs: 2000 }), {
      outcomes: ['timed out after 2000 ms'],
      stoppedBecause: 'not retried: the request may have been carried out, and sending it again could do it twice',
    });
    expect(describeError(error, update, env).detail).toContain(
      'The request was sent once (timed out after 2000 ms); not retried: the request may have been carried out, and sending it again could do it twice.',
    );
  });

  it('names the operation, the request, the status, the service\'s text and the missing permission for a 403', () => {
    const text = describeError(
      new ForbiddenError({ status: 403, error: 'insufficient_scope', errorDescription: 'The token lacks manage-organizations.', ...http }),
      update,
      env,
    );
    expect(text.summary).toBe('Failed to update organization');
    expect(text.detail).toContain('Update organization "42" in realm "acme" (PUT /realms/acme/orgs/42)');
    expect(text.detail).toContain('HTTP 403 insufficient_scope: The token lacks manage-organizations.');
    expect(text.detail).toContain('The API key lacks the `manage-organizations` permission');
  });

  it('treats a 401 after a fresh token as a credentials or permission problem', () => {
    const text = describeError(new UnauthorizedError({ status: 401, error: 'invalid_token', errorDescription: 'Token rejected', ...http }), update, env);
    expect(text.detail).toContain('HTTP 401');
    expect(text.detail).toContain('after the provider fetched a fresh token');
    expect(text.detail).toContain('`manage-organizations`');
  });

  it('tells a user token\'s owner to get a fresh token on a 401', () => {
    const text = describeError(new UnauthorizedError({ status: 401, ...http }), update, { ...env, authMethod: 'access_token' });
    expect(text.detail).toContain('Get a fresh token');
  });

  it('says the client secret is wrong for unauthorized_client and the client id is unknown for invalid_client', () => {
    const wrongSecret = describeError(new TokenError({ realm: 'acme', status: 401, error: 'unauthorized_client', errorDescription: 'Invalid client secret' }), update, env);
    expect(wrongSecret.detail).toContain('HTTP 401 unauthorized_client');
    expect(wrongSecret.detail).toContain('client_secret is wrong');
    const unknownClient = describeError(new TokenError({ realm: 'acme', status: 401, error: 'invalid_client' }), update, env);
    expect(unknownClient.detail).toContain('client_id is unknown in realm "acme", revoked, or the client_secret is wrong for it');
  });

  it('calls a token request that stayed rate limited or failing a service problem, not a credentials one', () => {
    const limited = describeError(new TokenError({ realm: 'acme', status: 429, error: 'rate_limited', errorDescription: 'Too many requests', retryAfterSeconds: 1 }), update, env);
    expect(limited.detail).toContain('HTTP 429 rate_limited');
    expect(limited.detail).toContain('raise `max_retries`');
    expect(limited.detail).not.toContain('Check `client_id`');
    const down = describeError(new TokenError({ realm: 'acme', status: 503, error: 'internal_error' }), update, env);
    expect(down.detail).toContain('not a problem of the configuration');
  });

  it('explains that API keys belong to one realm when a resource names another realm', () => {
    const text = describeError(new TokenError({ realm: 'beta', status: 401, error: 'invalid_client' }), update, { ...env, realm: 'beta' });
    expect(text.detail).toContain('alias = "beta"');
  });

  it('points at realm and base_url for an unknown realm', () => {
    const text = describeError(new NotFoundError({ status: 404, error: 'realm_not_found', errorDescription: 'Realm does not exist', ...http }), update, env);
    expect(text.detail).toContain('Realm "acme" does not exist at https://acme.example.com');
    expect(isObjectNotFound(new NotFoundError({ status: 404, error: 'realm_not_found', ...http }))).toBe(false);
    expect(isObjectNotFound(new NotFoundError({ status: 404, error: 'not_found', ...http }))).toBe(true);
  });

  it('gives advice for 400, 409, 429, 5xx and other statuses', () => {
    expect(describeError(new BadRequestError({ status: 400, error: 'invalid_body', errorDescription: 'url is bad', ...http }), update, env).detail).toContain('url is bad');
    expect(describeError(new ConflictError({ status: 409, error: 'conflict', ...http }), update, env).detail).toContain('import the existing object');
    expect(describeError(new RateLimitedError({ status: 429, error: 'rate_limited', ...http }), update, env).detail).toContain('-parallelism');
    expect(describeError(new ServerError({ status: 503, ...http }), update, env).detail).toContain('run Terraform again later');
    expect(describeError(new HttpError({ status: 413, ...http }), update, env).detail).toContain('64 KiB');
  });

  it('tells to check base_url on network errors, timeouts and answers that are not the service\'s', () => {
    const network = describeError(new NetworkError({ ...http, causeCode: 'ECONNREFUSED' }), update, env);
    expect(network.detail).toContain('could not reach https://acme.example.com');
    expect(network.detail).toContain('ORGADMIN_BASE_URL');
    const timeout = describeError(new TimeoutError({ ...http, timeoutMs: 5000 }), update, env);
    expect(timeout.detail).toContain('request_timeout');
    const unexpected = describeError(new UnexpectedResponseError({ status: 200, ...http, reason: 'not JSON' }), update, env);
    expect(unexpected.detail).toContain('base_url');
  });

  it('never shows a secret, whatever text carries it', () => {
    const leaky = [
      new Error(`boom ${SECRET}`),
      new BadRequestError({ status: 400, errorDescription: `echoed ${SECRET}`, ...http }),
      new TokenError({ realm: 'acme', status: 401, error: 'unauthorized_client', errorDescription: `secret ${SECRET}` }),
    ];
    for (const error of leaky) {
      const diags = new RecordingDiagnostics();
      reportError(diags, error, { ...update, path: ['name'] }, env);
      expect(diagnosticsText(diags.diagnostics)).not.toContain(SECRET);
      expect(diagnosticsText(diags.diagnostics)).toContain('***');
      expect(errorsOf(diags.diagnostics)[0]!.path).toEqual(['name']);
    }
  });

  it('calls an unexpected exception a bug', () => {
    expect(describeError(new TypeError('x is undefined'), update, env).detail).toContain('probably a bug in the provider');
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence and leaves very short values alone', () => {
    expect(redactSecrets('a-secret and a-secret', ['a-secret'])).toBe('*** and ***');
    expect(redactSecrets('abc', ['ab'])).toBe('abc');
  });
});
