/**
 * The provider block: its schema, and how a configuration plus environment variables becomes the
 * checked settings of one provider process. Every rule about a setting is here, used both by the
 * static validation (values may be unknown) and by configure (environment fallbacks applied).
 */
import { realmFromBaseUrl } from '../api/paths';
import { baseUrlProblem, MAX_RETRIES_LIMIT, realmNameProblem, requestTimeoutProblem, retriesProblem } from '../api/validation';
import type { Diagnostics, ObjectValue, Schema, Value } from '../tfplugin/framework/types';
import { isUnknown } from '../tfplugin/protocol/unknown';
import { quote } from './values';

/** The environment variable each provider setting falls back to. */
export const PROVIDER_ENVIRONMENT_VARIABLES = {
  base_url: 'ORGADMIN_BASE_URL',
  realm: 'ORGADMIN_REALM',
  client_id: 'ORGADMIN_CLIENT_ID',
  client_secret: 'ORGADMIN_CLIENT_SECRET',
  access_token: 'ORGADMIN_ACCESS_TOKEN',
  request_timeout: 'ORGADMIN_REQUEST_TIMEOUT',
  max_retries: 'ORGADMIN_MAX_RETRIES',
} as const;

/** A provider setting's name. */
export type ProviderSettingName = keyof typeof PROVIDER_ENVIRONMENT_VARIABLES;

/**
 * The provider's default retries: more than the SDK's 3, because one request that fails for good
 * aborts a whole Terraform run of hundreds of requests (at 20 % transient failures, 3 retries leave
 * an apply of 400 requests a 47 % chance to fail; 5 retries, 2.5 %).
 */
export const PROVIDER_DEFAULT_MAX_RETRIES = 5;

/** The provider block's schema. */
export const providerSchema: Schema = {
  description:
    'The orgadmin provider manages organizations and their memberships in the Organization Administration Service.\n\n' +
    'Authenticate with an API key (`client_id` and `client_secret`; the provider fetches and renews tokens itself) ' +
    'or with a user\'s `access_token`, not both. Every setting falls back to an environment variable, so credentials ' +
    'need not be written in the configuration.',
  attributes: {
    base_url: {
      type: 'string',
      optional: true,
      description:
        'The service\'s base address, e.g. `https://acme.example.com` (absolute `http` or `https` URL). ' +
        'Falls back to `ORGADMIN_BASE_URL`. Required (here or in the environment).',
    },
    realm: {
      type: 'string',
      optional: true,
      description:
        'The realm (project) that resources and data sources use unless they set their own. Falls back to ' +
        '`ORGADMIN_REALM`, then to the first label of `base_url`\'s host (`https://acme.example.com` → `acme`); ' +
        'required when the host is an IP address or `localhost`.',
    },
    client_id: {
      type: 'string',
      optional: true,
      description: 'The API key\'s client ID. Falls back to `ORGADMIN_CLIENT_ID`. Needs `client_secret`; excludes `access_token`.',
    },
    client_secret: {
      type: 'string',
      optional: true,
      sensitive: true,
      description:
        'The API key\'s secret. Falls back to `ORGADMIN_CLIENT_SECRET` (preferred: keep secrets out of configuration files). ' +
        'Never shown in plans, logs or error messages.',
    },
    access_token: {
      type: 'string',
      optional: true,
      sensitive: true,
      description:
        'A user\'s access token, used as is instead of an API key (it is not renewed: it must outlive the run). ' +
        'Falls back to `ORGADMIN_ACCESS_TOKEN`. Excludes `client_id` and `client_secret`.',
    },
    request_timeout: {
      type: 'number',
      optional: true,
      description: 'Limit of one HTTP request attempt, in seconds (default 30). Falls back to `ORGADMIN_REQUEST_TIMEOUT`.',
    },
    max_retries: {
      type: 'number',
      optional: true,
      description:
        'How often a failed request is retried with randomized exponential backoff, honouring `Retry-After` ' +
        `(default ${PROVIDER_DEFAULT_MAX_RETRIES}, at most ${MAX_RETRIES_LIMIT}): HTTP 429 and 503 with \`Retry-After\` for every request; 502, 503, 504, timeouts and dropped ` +
        'connections for requests that are safe to repeat (organization creates included: they carry their own id). ' +
        'Falls back to `ORGADMIN_MAX_RETRIES`.',
    },
  },
};

/** Where a resolved setting came from, for messages. */
type Source = 'configuration' | 'environment';

/** A resolved setting and its origin. */
interface Resolved<T> {
  readonly value: T;
  readonly source: Source;
}

/** The provider's settings after environment fallbacks and checks. */
export interface ProviderSettings {
  /** The service's base address, without a trailing slash. */
  readonly baseUrl: string;
  /** The default realm. */
  readonly realm: string;
  /** The API key, when authenticating with client credentials. */
  readonly clientCredentials?: { readonly clientId: string; readonly clientSecret: string };
  /** The user access token, when authenticating with one. */
  readonly accessToken?: string;
  /** Limit of one request attempt, in milliseconds. */
  readonly timeoutMs?: number;
  /** Retries of a failed request (see src/client/retry-policy.ts). */
  readonly maxRetries: number;
}

/** An environment: variable name → value. */
export type Environment = Readonly<Record<string, string | undefined>>;

function origin(name: ProviderSettingName, source: Source): string {
  return source === 'configuration' ? `\`${name}\`` : `the environment variable \`${PROVIDER_ENVIRONMENT_VARIABLES[name]}\``;
}

function settingNames(name: ProviderSettingName): string {
  return `\`${name}\` (or the environment variable \`${PROVIDER_ENVIRONMENT_VARIABLES[name]}\`)`;
}

/**
 * The URL as a message may show it: anything before an `@` (a user name or password, even in a
 * URL too malformed to parse) is masked.
 */
function displayUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const at = (queryAt < 0 ? url : url.slice(0, queryAt)).lastIndexOf('@');
  if (at < 0) return quote(url);
  const scheme = /^[^/@]*\/\//.exec(url)?.[0] ?? '';
  return quote(`${scheme}***${url.slice(at)}`);
}

/**
 * Why `url` cannot be the base address (`baseUrlProblem`), led by the URL with any credentials
 * masked, so the message never repeats a password.
 */
function baseUrlIssue(url: string): string | undefined {
  const problem = baseUrlProblem(url);
  return problem === undefined ? undefined : `${displayUrl(url)} ${problem}`;
}

/** The realm a base address names, or why it names none. */
export type RealmOfBaseUrl = { readonly realm: string } | { readonly problem: string };

/**
 * The provider's default realm when `realm` is not set: the first DNS label of the base address's
 * host (`https://acme.example.com` → `acme`). The problem reads after "the realm cannot be derived
 * from": the address is invalid (credentials masked), or its host is an IP address or a single
 * label. `provider::orgadmin::realm_from_url` is this rule too.
 */
export function realmOfBaseUrl(baseUrl: string): RealmOfBaseUrl {
  const issue = baseUrlIssue(baseUrl);
  if (issue) return { problem: issue };
  const normalized = baseUrl.replace(/\/+$/, '');
  const realm = realmFromBaseUrl(normalized);
  if (realm === undefined) {
    return { problem: `${displayUrl(baseUrl)}: its host ${quote(new URL(normalized).hostname)} is an IP address or a single label, which names no realm` };
  }
  return { realm };
}

/**
 * Static checks of the provider block (values may be unknown: those are skipped; environment
 * variables are checked by {@link resolveProviderSettings} at configure time).
 */
export function validateProviderConfig(config: ObjectValue, diags: Diagnostics): void {
  const baseUrl = config['base_url'];
  if (typeof baseUrl === 'string') {
    const problem = baseUrlIssue(baseUrl);
    if (problem) diags.error('Invalid base_url', `\`base_url\` ${problem}.`, ['base_url']);
  }
  const realm = config['realm'];
  if (typeof realm === 'string') {
    const problem = realmNameProblem(realm);
    if (problem) diags.error('Invalid realm', `\`realm\` ${quote(realm)} ${problem}.`, ['realm']);
  }
  for (const name of ['client_id', 'client_secret', 'access_token'] as const) {
    if (config[name] === '') {
      diags.error(`Empty ${name}`, `\`${name}\` is an empty string; remove it or set a value.`, [name]);
    }
  }
  const hasToken = typeof config['access_token'] === 'string' && config['access_token'] !== '';
  const clientAttributes = (['client_id', 'client_secret'] as const).filter((name) => typeof config[name] === 'string' && config[name] !== '');
  if (hasToken && clientAttributes.length > 0) {
    diags.error(
      'Conflicting credentials',
      `Both \`access_token\` and ${clientAttributes.map((n) => `\`${n}\``).join(' and ')} are set. Use either an API key (` +
        '`client_id` and `client_secret`) or a user access token (`access_token`), not both.',
      ['access_token'],
    );
  }
  const timeout = config['request_timeout'];
  if (typeof timeout === 'number') {
    const problem = requestTimeoutProblem(timeout);
    if (problem) diags.error('Invalid request_timeout', `\`request_timeout\` is ${timeout}; it ${problem}.`, ['request_timeout']);
  }
  const retries = config['max_retries'];
  if (typeof retries === 'number') {
    const problem = retriesProblem(retries);
    if (problem) diags.error('Invalid max_retries', `\`max_retries\` is ${retries}; it ${problem}.`, ['max_retries']);
  }
}

/**
 * Resolves the provider's settings: each from the configuration, else its environment variable.
 * Reports every missing, invalid or contradictory setting on its attribute (saying what to set)
 * and returns undefined when any is found. Never puts a secret into a diagnostic.
 */
export function resolveProviderSettings(config: ObjectValue, env: Environment, diags: Diagnostics): ProviderSettings | undefined {
  const errorsBefore = diags.hasErrors();
  let failed = false;
  const fail = (summary: string, detail: string, name: ProviderSettingName): void => {
    failed = true;
    diags.error(summary, detail, [name]);
  };

  const stringSetting = (name: ProviderSettingName): Resolved<string> | undefined => {
    const value: Value | undefined = config[name];
    if (isUnknown(value)) {
      fail(
        `${name} is not known yet`,
        `\`${name}\` depends on a value that is known only after apply, but the provider needs it to plan. ` +
          `Use a value known before apply (a literal, a variable or ${PROVIDER_ENVIRONMENT_VARIABLES[name]}).`,
        name,
      );
      return undefined;
    }
    if (typeof value === 'string' && value !== '') return { value, source: 'configuration' };
    const fromEnv = env[PROVIDER_ENVIRONMENT_VARIABLES[name]];
    if (fromEnv !== undefined && fromEnv !== '') return { value: fromEnv, source: 'environment' };
    return undefined;
  };

  const numberSetting = (name: 'request_timeout' | 'max_retries'): Resolved<number> | undefined => {
    const value: Value | undefined = config[name];
    if (isUnknown(value)) {
      fail(`${name} is not known yet`, `\`${name}\` depends on a value known only after apply; use a value known before apply.`, name);
      return undefined;
    }
    if (typeof value === 'number') return { value, source: 'configuration' };
    const fromEnv = env[PROVIDER_ENVIRONMENT_VARIABLES[name]];
    if (fromEnv === undefined || fromEnv.trim() === '') return undefined;
    const parsed = Number(fromEnv);
    if (Number.isNaN(parsed)) {
      fail(`Invalid ${PROVIDER_ENVIRONMENT_VARIABLES[name]}`, `The environment variable \`${PROVIDER_ENVIRONMENT_VARIABLES[name]}\` is ${quote(fromEnv)}, which is not a number.`, name);
      return undefined;
    }
    return { value: parsed, source: 'environment' };
  };

  // Base address.
  const baseUrl = stringSetting('base_url');
  let normalizedBaseUrl: string | undefined;
  if (baseUrl === undefined) {
    if (!isUnknown(config['base_url'])) {
      fail('Missing base_url', `The provider needs the service's address: set ${settingNames('base_url')}, e.g. \`https://acme.example.com\`.`, 'base_url');
    }
  } else {
    const problem = baseUrlIssue(baseUrl.value);
    if (problem) fail('Invalid base_url', `${origin('base_url', baseUrl.source)} ${problem}.`, 'base_url');
    else normalizedBaseUrl = baseUrl.value.replace(/\/+$/, '');
  }

  // Realm: configured, or the first label of the base address's host.
  const realmSetting = stringSetting('realm');
  let realm: string | undefined;
  if (realmSetting !== undefined) {
    const problem = realmNameProblem(realmSetting.value);
    if (problem) fail('Invalid realm', `${origin('realm', realmSetting.source)} is ${quote(realmSetting.value)}; it ${problem}.`, 'realm');
    else realm = realmSetting.value;
  } else if (normalizedBaseUrl !== undefined && !isUnknown(config['realm'])) {
    const derived = realmOfBaseUrl(normalizedBaseUrl);
    if ('realm' in derived) realm = derived.realm;
    else fail('Missing realm', `The realm cannot be derived from \`base_url\` ${derived.problem}. Set ${settingNames('realm')}.`, 'realm');
  }

  // Credentials: an API key or an access token, exactly one of the two.
  const clientId = stringSetting('client_id');
  const clientSecret = stringSetting('client_secret');
  const accessToken = stringSetting('access_token');
  const anyUnknown = (['client_id', 'client_secret', 'access_token'] as const).some((n) => isUnknown(config[n]));
  let clientCredentials: ProviderSettings['clientCredentials'];
  if (!anyUnknown) {
    if (accessToken !== undefined && (clientId !== undefined || clientSecret !== undefined)) {
      const others = [clientId && origin('client_id', clientId.source), clientSecret && origin('client_secret', clientSecret.source)].filter(Boolean);
      fail(
        'Conflicting credentials',
        `Both an access token (from ${origin('access_token', accessToken.source)}) and an API key (from ${others.join(' and ')}) are set. ` +
          'Use either `client_id` and `client_secret`, or `access_token`: remove the other (also from the environment).',
        'access_token',
      );
    } else if (clientId !== undefined && clientSecret === undefined) {
      fail('Missing client_secret', `${origin('client_id', clientId.source)} is set but no secret is: set ${settingNames('client_secret')}.`, 'client_secret');
    } else if (clientSecret !== undefined && clientId === undefined) {
      fail('Missing client_id', `A client secret is set (${origin('client_secret', clientSecret.source)}) but no client ID: set ${settingNames('client_id')}.`, 'client_id');
    } else if (clientId !== undefined && clientSecret !== undefined) {
      clientCredentials = { clientId: clientId.value, clientSecret: clientSecret.value };
    } else if (accessToken === undefined) {
      fail(
        'Missing credentials',
        `The provider needs credentials: set ${settingNames('client_id')} and ${settingNames('client_secret')} of an API key, ` +
          `or a user's ${settingNames('access_token')}.`,
        'client_id',
      );
    }
  }

  const timeout = numberSetting('request_timeout');
  if (timeout !== undefined) {
    const problem = requestTimeoutProblem(timeout.value);
    if (problem) fail('Invalid request_timeout', `${origin('request_timeout', timeout.source)} is ${timeout.value}; it ${problem}.`, 'request_timeout');
  }
  const retries = numberSetting('max_retries');
  if (retries !== undefined) {
    const problem = retriesProblem(retries.value);
    if (problem) fail('Invalid max_retries', `${origin('max_retries', retries.source)} is ${retries.value}; it ${problem}.`, 'max_retries');
  }

  if (failed || errorsBefore || normalizedBaseUrl === undefined || realm === undefined) return undefined;
  if (clientCredentials === undefined && accessToken === undefined) return undefined;
  return {
    baseUrl: normalizedBaseUrl,
    realm,
    ...(clientCredentials ? { clientCredentials } : { accessToken: accessToken!.value }),
    ...(timeout ? { timeoutMs: Math.max(1, Math.round(timeout.value * 1000)) } : {}),
    maxRetries: retries ? retries.value : PROVIDER_DEFAULT_MAX_RETRIES,
  };
}

