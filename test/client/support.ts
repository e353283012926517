/**
 * Shared set-up of the SDK's unit tests: an undici MockAgent with real network disabled, standing
 * in for the service at the HTTP boundary, plus a client whose backoff waits are recorded instead
 * of slept. A test that needs a slow answer holds it with {@link HeldAnswers} and, for a timeout,
 * gives the client a {@link ManualTimer}: nothing waits for real time.
 */
import { MockAgent } from 'undici';
import type { Interceptable, MockCallHistoryLog } from 'undici';
import { tokenPath } from '../../src/api';
import { ClientCredentialsTokenSource, OrgAdminClient, type OrgAdminClientOptions, type TokenSource } from '../../src/client';
import type { HeldAnswers } from './held-answers';

/** The mocked service's base address; its first label gives realm `acme`. */
export const BASE_URL = 'https://acme.example.com';
/** The API key's secret: tests assert it never shows up in errors. */
export const CLIENT_SECRET = 'sEcReT-7f3c9a-never-print-me';
/** The API key's client id. */
export const CLIENT_ID = 'terraform-ci';

/** Everything a unit test needs. */
export interface MockSetup {
  agent: MockAgent;
  pool: Interceptable;
  tokens: ClientCredentialsTokenSource;
  client: OrgAdminClient;
  /** Every backoff wait the client asked for, in milliseconds. */
  sleeps: number[];
  /** Requests that reached the mock (API and token), in order. */
  calls(): MockCallHistoryLog[];
  /** Only the API requests (the token requests left out). */
  apiCalls(): MockCallHistoryLog[];
  close(): Promise<void>;
}

/**
 * A MockAgent, a token source and a client, all wired together. `hold` holds back the answers it
 * names, for the client's and the token source's requests alike.
 */
export function mockSetup(
  overrides: Partial<OrgAdminClientOptions> & { tokenSource?: TokenSource; now?: () => number; hold?: HeldAnswers } = {},
): MockSetup {
  const agent = new MockAgent({ enableCallHistory: true });
  agent.disableNetConnect();
  const pool = agent.get(BASE_URL);
  const { now, hold, ...clientOverrides } = overrides;
  const dispatcher = hold ? hold.wrap(agent) : agent;
  const sleeps: number[] = [];
  // Client and token source share one retry set-up, as the provider wires them.
  const retry = {
    sleep: async (ms: number): Promise<void> => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...('sleep' in clientOverrides ? { sleep: clientOverrides.sleep } : {}),
    ...(clientOverrides.random ? { random: clientOverrides.random } : {}),
    ...(clientOverrides.maxRetries !== undefined ? { maxRetries: clientOverrides.maxRetries } : {}),
    ...(clientOverrides.retryBaseDelayMs !== undefined ? { retryBaseDelayMs: clientOverrides.retryBaseDelayMs } : {}),
  };
  const tokens = new ClientCredentialsTokenSource({
    baseUrl: BASE_URL,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    dispatcher,
    ...(now ? { now } : {}),
    ...retry,
  });
  const client = new OrgAdminClient({
    baseUrl: BASE_URL,
    tokenSource: tokens,
    dispatcher,
    ...retry,
    ...clientOverrides,
  });
  const calls = (): MockCallHistoryLog[] => agent.getCallHistory()?.calls() ?? [];
  return {
    agent,
    pool,
    tokens,
    client,
    sleeps,
    calls,
    apiCalls: () => calls().filter((c) => !c.path.endsWith('/protocol/openid-connect/token')),
    close: async () => {
      await client.close();
      await agent.close();
    },
  };
}

/** Answers the next token request(s) of `realm` with `token`. */
export function replyToken(
  pool: Interceptable,
  token = 'token-1',
  options: { realm?: string; expiresIn?: number; times?: number } = {},
): void {
  const scope = pool
    .intercept({ path: tokenPath(options.realm ?? 'acme'), method: 'POST' })
    .reply(
      200,
      {
        access_token: token,
        token_type: 'Bearer',
        expires_in: options.expiresIn ?? 300,
        refresh_expires_in: 0,
        'not-before-policy': 0,
        scope: 'view-organizations',
      },
      { headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } },
    );
  if (options.times !== undefined) scope.times(options.times);
}

/** JSON headers for mocked answers. */
export const JSON_HEADERS = { headers: { 'content-type': 'application/json' } } as const;

/** An error body as the service sends it. */
export function errorBody(error: string, description: string): { error: string; error_description: string } {
  return { error, error_description: description };
}

/** A syscall-style network error (what Node throws for a reset or refused connection). */
export function systemError(code: string): Error {
  return Object.assign(new Error(`${code === 'ECONNREFUSED' ? 'connect' : 'read'} ${code}`), { code });
}

/**
 * An organization representation with every field present, so the wire form and what the SDK
 * returns are the same object (response-checks.test.ts covers left-out fields).
 */
export function org(id: string, name = `org-${id}`): Record<string, unknown> {
  return { id, name, displayName: `Org ${id}`, url: `https://${id}.example.com`, domains: [], attributes: {}, realm: 'acme' };
}

/** A member representation with every field present (as {@link org}). */
export function member(id: string): Record<string, unknown> {
  return {
    id,
    username: `user-${id}`,
    email: `${id}@example.com`,
    firstName: `First ${id}`,
    lastName: `Last ${id}`,
    emailVerified: true,
    enabled: true,
    createdTimestamp: 1_700_000_000_000,
  };
}
