/**
 * Turns SDK errors into diagnostics that a Terraform user can act on. Every diagnostic says what
 * the provider was doing, what the service answered (HTTP status, error code, the service's own
 * sentence) and what to do about it. Nothing here ever prints a secret: every text that reaches a
 * diagnostic passes through {@link redactSecrets}.
 */
import type { Permission } from '../api';
import { redactKnownSecrets } from '../api/redaction';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  NetworkError,
  NotFoundError,
  OrgAdminError,
  RateLimitedError,
  ServerError,
  TimeoutError,
  TokenError,
  UnauthorizedError,
  UnexpectedResponseError,
  messageWithoutAttempts,
} from '../client/errors';
import type { AuthMethod, OrgAdminProviderContext } from './context';
import type { AttributePath, Diagnostics } from '../tfplugin/framework/types';

/** What the provider was doing when an error happened. */
export interface Operation {
  /** The action, lowercase, as a short phrase: `create organization`. It makes the summary. */
  readonly action: string;
  /** What it acted on, for the detail: `organization "acme" in realm "acme"`. */
  readonly target?: string;
  /** The permission the operation needs (advice for 401 and 403). */
  readonly permission: Permission;
  /** The attribute the diagnostic points at, when one is to blame. */
  readonly path?: AttributePath;
}

/** What error reporting needs to know about the provider's configuration. */
export interface ReportingContext {
  /** The service's base address. */
  readonly baseUrl: string;
  /** The realm of the failed call. */
  readonly realm: string;
  /** How the provider authenticates. */
  readonly authMethod: AuthMethod;
  /** Secrets to remove from any text (client secret, access token). */
  readonly secrets: readonly string[];
  /** The provider's realm, when the call was made in another one (a resource's `realm`). */
  readonly providerRealm?: string;
  /** The API key's client id, for advice that names the key. */
  readonly clientId?: string;
}

/** A diagnostic's text. */
export interface DiagnosticText {
  /** Short, one line. */
  readonly summary: string;
  /** What happened, who is at fault and what to do. */
  readonly detail: string;
}

/**
 * Replaces every occurrence of every secret in `text` with `***`, the marker Terraform users know
 * from sensitive values (the rule itself: `redactKnownSecrets` in `src/api/redaction.ts`).
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redactKnownSecrets(text, secrets, '***');
}

function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

function credentialSettings(authMethod: AuthMethod): string {
  return authMethod === 'access_token'
    ? '`access_token` (or `ORGADMIN_ACCESS_TOKEN`)'
    : '`client_id` and `client_secret` (or `ORGADMIN_CLIENT_ID` and `ORGADMIN_CLIENT_SECRET`)';
}

/** The service's answer as a sentence: `the service answered HTTP 403 insufficient_scope: Missing permission.` */
export function serviceAnswer(status: number, code: string | undefined, description: string | undefined): string {
  const parts = [`HTTP ${status}`];
  if (code) parts.push(code);
  let text = `the service answered ${parts.join(' ')}`;
  if (description) text += `: ${description}`;
  return text.endsWith('.') ? text : `${text}.`;
}

/** Advice when the service answered 429 (an API call or the token request); the attempts line says how often. */
const RATE_LIMITED_ADVICE =
  'The service is limiting the rate of requests (429). Run Terraform again later, lower `-parallelism`, or raise `max_retries`.';

/** Advice when the service failed with 5xx; the attempts line says how often it was asked. */
const SERVER_FAILED_ADVICE =
  'The service failed. This is not a problem of the configuration: run Terraform again later (what was done so far is recorded), and tell the service\'s operators if it persists.';

/**
 * The attempts paragraph of a detail: how many requests were really sent and what each got, and
 * why no further one was sent. Empty when the error carries no attempt log.
 */
export function describeAttempts(error: unknown): string {
  if (!(error instanceof OrgAdminError) || error.attempts === undefined) return '';
  const { outcomes, stoppedBecause } = error.attempts;
  const count = outcomes.length;
  const list = outcomes.map((outcome, index) => `${index + 1}. ${outcome}`).join('; ');
  const sent = count === 1 ? `The request was sent once (${outcomes[0]})` : `The request was sent ${count} times: ${list}`;
  return `${sent}${stoppedBecause ? `; ${stoppedBecause}` : ''}.`;
}

function adviceForToken(error: TokenError, env: ReportingContext): string {
  // The token endpoint shares the API key's rate limit and the service's health with the API.
  if (error.status === 429) return RATE_LIMITED_ADVICE;
  if (error.status !== undefined && error.status >= 500) return SERVER_FAILED_ADVICE;
  switch (error.error) {
    case 'unauthorized_client':
      return 'The client_secret is wrong for this client_id. Set the API key\'s secret in `client_secret` (or `ORGADMIN_CLIENT_SECRET`); an administrator can issue a new key if the secret was lost.';
    case 'invalid_client':
      // The service answers an unknown client and a wrong secret alike (RFC 6749 §5.2); the
      // hosted service tells them apart (unauthorized_client above).
      if (env.providerRealm !== undefined && env.providerRealm !== env.realm) {
        return `The client_id is unknown in realm "${env.realm}": API keys belong to one realm, and this key is for the provider's realm "${env.providerRealm}". ` +
          `To manage objects in realm "${env.realm}", add a second provider configuration (\`provider "orgadmin" { alias = "${env.realm}" ... }\`) with an API key of that realm and set \`provider = orgadmin.${env.realm}\` on these resources.`;
      }
      return `The client_id is unknown in realm "${env.realm}", revoked, or the client_secret is wrong for it. Check \`client_id\` and \`client_secret\` (or \`ORGADMIN_CLIENT_ID\`, \`ORGADMIN_CLIENT_SECRET\`) and \`realm\`; an administrator can issue a new key if the secret was lost.`;
    case 'access_denied':
      return `Realm "${env.realm}" is disabled. Ask the service's administrator to enable it.`;
    case 'realm_not_found':
      return `Realm "${env.realm}" does not exist at ${env.baseUrl}. Check \`realm\` (or \`ORGADMIN_REALM\`) and \`base_url\`.`;
    case 'realm_mismatch':
      return `The host of \`base_url\` (${env.baseUrl}) serves another realm than "${env.realm}". Set \`realm\` to the host's first label, or remove it.`;
    default:
      return `Check ${credentialSettings('client_credentials')}, \`realm\` and \`base_url\`.`;
  }
}

function adviceForHttp(error: HttpError, op: Operation, env: ReportingContext): string {
  if (error instanceof UnauthorizedError) {
    if (env.authMethod === 'access_token') {
      return `The access token was rejected: it has expired, belongs to another realm or is malformed, or (on the hosted service, which answers 401 instead of 403) its user lacks the \`${op.permission}\` permission. ` +
        'Get a fresh token and set it in `access_token` (or `ORGADMIN_ACCESS_TOKEN`), or configure `client_id` and `client_secret`, whose tokens the provider renews by itself.';
    }
    return `The service still answered 401 after the provider fetched a fresh token, so this is a credentials or permission problem: the API key may lack the \`${op.permission}\` permission (the hosted service answers 401 instead of 403 for a missing permission) or may have been revoked. Give the key \`${op.permission}\` or use another key.`;
  }
  if (error instanceof ForbiddenError) {
    if (error.error === 'insufficient_scope') {
      if (env.authMethod === 'access_token') {
        return `The user of the access token lacks the \`${op.permission}\` permission. Use a token of a user who has it (a realm administrator's tokens carry every permission) or configure an API key that has it.`;
      }
      const key = env.clientId ?? 'CLIENT_ID';
      return `The API key${env.clientId ? ` ${JSON.stringify(env.clientId)}` : ''} lacks the \`${op.permission}\` permission. An administrator of the service can grant it with \`orgadmin keys update ${key} --realm ${env.realm} --permissions ${op.permission},...\` (listing every permission the key keeps) or on the realm's dashboard; or use a key that has it.`;
    }
    if (error.error === 'access_denied') return `Realm "${env.realm}" is disabled. Ask the service's administrator to enable it.`;
    return 'The service refuses this change whatever the permissions; change the configuration so that it does not ask for it.';
  }
  if (error instanceof NotFoundError) {
    if (error.error === 'realm_not_found') {
      return `Realm "${env.realm}" does not exist at ${env.baseUrl}. Check \`realm\` (the provider's or the resource's) and \`base_url\`.`;
    }
    if (error.error === 'realm_mismatch') {
      return `The host of \`base_url\` (${env.baseUrl}) serves another realm than "${env.realm}". Use the realm of the host, or a base_url whose host does not name a realm.`;
    }
    return 'The object does not exist (it may have been deleted outside Terraform). Check the id.';
  }
  if (error instanceof BadRequestError) {
    return 'The service rejected the values sent. Fix the configuration values named in the service\'s answer.';
  }
  if (error instanceof ConflictError) {
    return 'The change conflicts with an existing object (for example a name already taken). Choose another value, or import the existing object.';
  }
  if (error instanceof RateLimitedError) return RATE_LIMITED_ADVICE;
  if (error instanceof ServerError) return SERVER_FAILED_ADVICE;
  if (error.status === 413) return 'The request was too large (over 64 KiB): fewer or shorter attributes.';
  return 'Check the configuration and the service.';
}

/**
 * The summary and detail of a diagnostic for an error thrown by the SDK (or anything else) during
 * `op`. Never contains a secret.
 */
export function describeError(error: unknown, op: Operation, env: ReportingContext): DiagnosticText {
  // Only what comes from outside (the service's answers, error messages) is redacted: the
  // provider's own advice never holds a secret, and a short wrong secret ("wrong") would otherwise
  // blank out words of it.
  const outside = (text: string): string => redactSecrets(text, env.secrets);
  const summary = `Failed to ${op.action}`;
  const what = capitalize(op.target ? `${op.action} ${op.target}` : op.action);
  const message = (e: Error): string => outside(messageWithoutAttempts(e));
  let detail: string;
  if (error instanceof TokenError) {
    const answer = error.status
      ? outside(serviceAnswer(error.status, error.error, error.errorDescription))
      : `${message(error)}. Check that \`base_url\` points at the service.`;
    detail = `${what}: the provider could not get an access token from ${env.baseUrl} for realm "${env.realm}": ${answer}\n\n${adviceForToken(error, env)}`;
  } else if (error instanceof HttpError) {
    const request = error.method && error.path ? ` (${error.method} ${error.path})` : '';
    detail = `${what}${request}: ${outside(serviceAnswer(error.status, error.error, error.errorDescription))}\n\n${adviceForHttp(error, op, env)}`;
  } else if (error instanceof UnexpectedResponseError) {
    detail = `${what} (${error.method} ${error.path}): the answer (HTTP ${error.status}) is not what the service sends: ${message(error)}.\n\nCheck that \`base_url\` (${env.baseUrl}) points at the Organization Administration Service itself, not at a proxy or another site.`;
  } else if (error instanceof TimeoutError) {
    detail = `${what}: ${env.baseUrl} did not answer in time (${message(error)}).\n\nCheck that \`base_url\` points at the service and that it is reachable, or raise \`request_timeout\`.`;
  } else if (error instanceof NetworkError) {
    detail = `${what}: could not reach ${env.baseUrl} (${message(error)}).\n\nCheck \`base_url\` (or \`ORGADMIN_BASE_URL\`): the host, the port and the scheme, and that the service is running.`;
  } else {
    const text = error instanceof Error ? `${error.name}: ${message(error)}` : outside(String(error));
    detail = `${what}: unexpected error: ${text}.\n\nThis is probably a bug in the provider; please report it with the Terraform log.`;
  }
  const attempts = describeAttempts(error);
  if (attempts) detail += `\n\n${outside(attempts)}`;
  return { summary, detail };
}

/** Adds an error diagnostic for `error` (see {@link describeError}) at `op.path`. */
export function reportError(diags: Diagnostics, error: unknown, op: Operation, env: ReportingContext): void {
  const { summary, detail } = describeError(error, op, env);
  diags.error(summary, detail, op.path);
}

/** True when `error` is the SDK's 404 answer (not a realm problem, which needs a real error). */
export function isObjectNotFound(error: unknown): boolean {
  return error instanceof NotFoundError && error.error !== 'realm_not_found' && error.error !== 'realm_mismatch';
}

/** The reporting context of a call in `realm` made through the provider context `ctx`. */
export function reportingFor(ctx: OrgAdminProviderContext, realm: string): ReportingContext {
  return { baseUrl: ctx.baseUrl, realm, authMethod: ctx.authMethod, secrets: ctx.secrets, providerRealm: ctx.realm, ...(ctx.clientId ? { clientId: ctx.clientId } : {}) };
}
