/**
 * The rules for values that the service stores and the provider and constructs check before they
 * send them: names, domains, URLs, realm names, email addresses, the usernames the service keeps
 * for itself and the provider's limits. Each rule is written
 * here once; the service answers a broken value with a 400, the provider with a diagnostic on the
 * attribute and the constructs with a ConstructValidationError, each in its own words around the
 * same problem text.
 *
 * Every `…Problem` function returns undefined for a valid value, else a phrase that reads after
 * the value's name (`name must not be empty`, `the domain "a..b" has an empty label`).
 *
 * Decisions (docs/guides/service.md, docs/guides/constructs.md):
 * - Domains are not case-sensitive and a DNS name may be written with its root dot
 *   (`Example.COM.`): surrounding spaces, case and one trailing dot are normalized away
 *   ({@link normalizeDomain}) everywhere, because that is what the service stores and compares.
 * - Realm names are what the service can create: DNS labels, because a realm is also the first
 *   label of its host name. Checking the same rule in the provider and the constructs turns a
 *   typo into a plan-time error instead of a 404 at apply.
 * - Email addresses are checked loosely (one `@` with text around it, no whitespace), as Keycloak
 *   accepts addresses such as `admin@localhost`; the mail system decides the rest.
 */
import { randomBytes } from 'node:crypto';

/** Longest name, display name, id or path parameter the service accepts. */
export const MAX_NAME_LENGTH = 255;

/** Longest role description the service accepts. */
export const MAX_DESCRIPTION_LENGTH = 2048;

/** Most entries of one bulk role request (create, delete, grant or revoke many). */
export const MAX_BULK_ITEMS = 1000;

/** Longest organization URL the service accepts. */
export const MAX_URL_LENGTH = 2048;

/** Longest DNS name (RFC 1035 §2.3.4, without the root dot). */
export const MAX_DOMAIN_LENGTH = 253;

/**
 * The most terms one query parameter may hold: `key:value` pairs of an organization list's `q`,
 * comma-separated terms of a member list's `search`. Each term is one more condition of the
 * database query, and a few hundred of them exceed what SQLite ("Expression tree is too large")
 * and PostgreSQL accept; no real filter needs as many.
 */
export const MAX_QUERY_TERMS = 100;

/** Why a query parameter with `count` terms is refused (a phrase naming the limit), or undefined. */
export function queryTermsProblem(count: number): string | undefined {
  return count > MAX_QUERY_TERMS ? `has ${count} terms; at most ${MAX_QUERY_TERMS} are allowed` : undefined;
}

/** The most retries a provider configuration may ask for (each may wait up to 10 s). */
export const MAX_RETRIES_LIMIT = 20;

/** The longest request timeout a provider configuration may ask for, in seconds. */
export const MAX_REQUEST_TIMEOUT_SECONDS = 3600;

/** One DNS label: letters, digits and inner hyphens, 1–63 characters (lowercase after normalizing). */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A realm name: one lowercase DNS label. */
const REALM_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A loose email check: something before and after one `@`, no whitespace. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/**
 * Username prefixes of the users the service creates itself: an organization's default admin user
 * (`org-admin-<orgId>`) and an API key's service account (`service-account-<clientId>`). Nobody
 * else may take a username that starts with one of them (compared without case).
 */
export const ORG_ADMIN_USERNAME_PREFIX = 'org-admin-';
/** See {@link ORG_ADMIN_USERNAME_PREFIX}. */
export const SERVICE_ACCOUNT_USERNAME_PREFIX = 'service-account-';

/** Quotes a value for a problem phrase. */
const quoted = (value: string): string => JSON.stringify(value);

/** C0 control characters: never part of a name, id, attribute, domain, URL or username. */
const C0_CONTROL = /[\u0000-\u001f]/;

/** True when `text` contains a C0 control character (U+0000–U+001F, NUL, tab and newline included). */
export function hasControlCharacter(text: string): boolean {
  return C0_CONTROL.test(text);
}

/**
 * True when `text` is not valid Unicode: it holds a UTF-16 surrogate without its pair (`"\ud800"`
 * in JSON). Such a string cannot be stored as it was sent (UTF-8 stores write U+FFFD instead), so
 * the answer would differ from the request.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why `text` cannot be stored as text, or undefined: it holds control characters (U+0000 to
 * U+001F), which PostgreSQL cannot store and no field may hold, or it is not valid Unicode.
 */
export function textProblem(text: string): string | undefined {
  if (hasControlCharacter(text)) return 'must not contain control characters (U+0000 to U+001F)';
  if (hasLoneSurrogate(text)) return 'is not valid Unicode (it holds an unpaired UTF-16 surrogate)';
  return undefined;
}

/**
 * Keys no object of a request may have, at any depth: they reach prototypes once an object is
 * copied or merged (`__proto__`, `constructor`, `prototype`), and `__proto__` is dropped by
 * JavaScript object literals, so an attribute of that name could never round-trip.
 */
export const RESERVED_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Why `key` cannot name an organization attribute, or undefined. */
export function attributeKeyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'must not be empty';
  if (RESERVED_KEYS.includes(key)) return `is reserved (${RESERVED_KEYS.map(quoted).join(', ')} can reach JavaScript prototypes)`;
  if (key.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters`;
  return textProblem(key);
}

/** DEL and the C1 controls: invisible, and some terminals act on them. */
const DEL_OR_C1_CONTROL = /[\u007f-\u009f]/;
/** Characters that change the direction of the text around them (U+202E and its kin). */
const BIDI_CONTROL = /\p{Bidi_Control}/u;
/** Text that shows nothing: whitespace and characters rendered without a glyph (zero-width space and joiners, U+FEFF, …). */
const NOTHING_VISIBLE = /^[\s\p{Default_Ignorable_Code_Point}]*$/u;

/**
 * Why `text`, shown to people as a name (in the dashboard, the command line, plans), could pass
 * for another, or undefined: it holds DEL or a C1 control, or a character that changes the text's
 * direction (so `exe.txt` can show as `txt.exe`), or nothing visible at all (zero-width characters
 * only). Zero-width joiners between visible characters (emoji sequences, Indic scripts) are fine.
 * The one rule for names, which the service, the provider (at plan) and the constructs (at synth)
 * apply alike.
 */
export function spoofingProblem(text: string): string | undefined {
  if (DEL_OR_C1_CONTROL.test(text)) return 'must not contain control characters (U+007F to U+009F)';
  if (BIDI_CONTROL.test(text)) return 'must not contain characters that change the text direction (such as U+202E)';
  if (NOTHING_VISIBLE.test(text)) return 'must contain a visible character';
  return undefined;
}

/**
 * Why `name` cannot name an organization (or another named object), or undefined: it must hold
 * something visible and have at most {@link MAX_NAME_LENGTH} characters, with no character that
 * spoofs another name ({@link spoofingProblem}). Names are compared exactly (`Acme` and `acme` are
 * two names), so nothing is normalized.
 */
export function nameProblem(name: string): string | undefined {
  if (name.trim() === '') return 'must not be empty';
  if (name.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters`;
  return textProblem(name) ?? spoofingProblem(name);
}

/**
 * Why `displayName` cannot be an organization's display name, or undefined: at most
 * {@link MAX_NAME_LENGTH} characters, blank allowed, otherwise the rule of names ({@link spoofingProblem}).
 */
export function displayNameProblem(displayName: string): string | undefined {
  if (displayName.length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters`;
  // Blank stays allowed (it means no display name); anything else must show what it says.
  return textProblem(displayName) ?? (displayName.trim() === '' ? undefined : spoofingProblem(displayName));
}

/** Why `value` cannot be an organization attribute's value, or undefined. */
export function attributeValueProblem(value: string): string | undefined {
  return textProblem(value);
}

/**
 * The form the service stores a domain in: without surrounding spaces, lowercase, without the
 * root's trailing dot. Two domains are the same domain when their normalized forms are equal.
 */
export function normalizeDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * Why `domain` is not a DNS name the service accepts, or undefined when it is one. The check is
 * on {@link normalizeDomain}'s form: case, surrounding spaces and one trailing dot are no problem.
 */
export function domainProblem(domain: string): string | undefined {
  const normalized = normalizeDomain(domain);
  if (normalized === '') return 'is empty';
  const text = textProblem(normalized);
  if (text) return text;
  if (normalized.includes('/')) return 'is a URL; write only the host name, e.g. `example.com`';
  if (normalized.length > MAX_DOMAIN_LENGTH) return `is longer than ${MAX_DOMAIN_LENGTH} characters`;
  const bad = normalized.split('.').find((label) => !DNS_LABEL.test(label));
  if (bad === undefined) return undefined;
  return bad === ''
    ? 'is not a valid DNS name: it has an empty label (two dots in a row, or a leading dot)'
    : `is not a valid DNS name: the label ${quoted(bad)} is not letters, digits and inner hyphens of at most 63 characters`;
}

/** Why `url` cannot be an organization's URL (absolute http or https, at most {@link MAX_URL_LENGTH} characters), or undefined. */
export function urlProblem(url: string): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL; write it with its scheme, e.g. `https://example.com`';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `has the scheme ${quoted(parsed.protocol.replace(/:$/, ''))}; only http and https are accepted`;
  }
  return undefined;
}

/**
 * Why `url` cannot be the base address of the service in the provider (`base_url`) and
 * the constructs (`baseUrl`), or undefined: an absolute http(s) URL without credentials, query or
 * fragment (a path prefix is allowed). The phrase never repeats the URL, which may hold a password.
 */
export function baseUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL; write it with its scheme, e.g. `https://acme.example.com`';
  }
  if (parsed.username || parsed.password) {
    return 'holds a user name or password; remove them from the URL and use `client_id`/`client_secret` or `access_token`';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `has the scheme ${quoted(parsed.protocol.replace(/:$/, ''))}; only http and https are supported`;
  }
  if (parsed.search || parsed.hash) return 'has a query or fragment; give only the scheme, host, port and optional path prefix';
  return undefined;
}

/**
 * Why `realm` cannot name a realm, or undefined: a realm name is a DNS label (1–63 lowercase
 * letters, digits or hyphens, not starting or ending with a hyphen), because it is also the
 * first label of the realm's host name.
 */
export function realmNameProblem(realm: string): string | undefined {
  if (realm === '') return 'is empty';
  if (!REALM_NAME.test(realm)) {
    return 'is not valid: use 1 to 63 lowercase letters, digits or hyphens, not starting or ending with a hyphen';
  }
  return undefined;
}

/** Why `email` is not an email address (one `@` with text on both sides, no whitespace), or undefined. */
export function emailProblem(email: string): string | undefined {
  return EMAIL.test(email) ? undefined : 'is not a valid address';
}

/**
 * Why `username` cannot be given to a user made by hand, or undefined: it starts with a prefix of
 * the users the service creates itself ({@link ORG_ADMIN_USERNAME_PREFIX},
 * {@link SERVICE_ACCOUNT_USERNAME_PREFIX}), without regard to case.
 */
export function reservedUsernameProblem(username: string): string | undefined {
  const lower = username.toLowerCase();
  return [ORG_ADMIN_USERNAME_PREFIX, SERVICE_ACCOUNT_USERNAME_PREFIX].some((prefix) => lower.startsWith(prefix))
    ? 'is reserved for users the service creates itself'
    : undefined;
}

/** Why `retries` cannot be the provider's `max_retries` (a whole number from 0 to {@link MAX_RETRIES_LIMIT}), or undefined. */
export function retriesProblem(retries: number): string | undefined {
  return Number.isInteger(retries) && retries >= 0 && retries <= MAX_RETRIES_LIMIT
    ? undefined
    : `must be a whole number from 0 to ${MAX_RETRIES_LIMIT}`;
}

/** Why `seconds` cannot be the provider's `request_timeout` (above 0, at most {@link MAX_REQUEST_TIMEOUT_SECONDS}), or undefined. */
export function requestTimeoutProblem(seconds: number): string | undefined {
  return Number.isFinite(seconds) && seconds > 0 && seconds <= MAX_REQUEST_TIMEOUT_SECONDS
    ? undefined
    : `must be a number of seconds above 0 and at most ${MAX_REQUEST_TIMEOUT_SECONDS}`;
}

/** Host names for which plain http is allowed: loopback addresses and `localhost` (RFC 8252 §7.3, RFC 6761 §6.3). */
const LOOPBACK_HOST = /^(?:localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\]|[a-z0-9-]+\.localhost)$/i;

/** Whether `hostname` (as `URL.hostname` gives it) is a loopback address or `localhost`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

/**
 * Why `url` cannot be an address the service sends people or requests to on someone's behalf
 * (redirect URIs, an identity provider's endpoints), or undefined: an absolute https URL (http only
 * for loopback hosts), without a fragment, user information or spaces, at most
 * {@link MAX_URL_LENGTH} characters.
 */
export function secureUrlProblem(url: string): string | undefined {
  if (url.length > MAX_URL_LENGTH) return `is longer than ${MAX_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an absolute URL';
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    return 'must use https (http only for localhost and loopback addresses)';
  }
  if (url.includes('#')) return 'must not have a fragment';
  if (parsed.username !== '' || parsed.password !== '') return 'must not contain user information';
  if (/\s/.test(url)) return 'must not contain spaces';
  return undefined;
}

/** The longest event-type filter a webhook may hold. */
export const MAX_EVENT_TYPE_PATTERN_LENGTH = 255;
/** Most event-type filters one webhook may hold. */
export const MAX_EVENT_TYPE_PATTERNS = 100;

/**
 * Why `pattern` cannot be a webhook's event-type filter, or undefined. A filter is an event type
 * with `*` standing for any run of characters: `*`, `admin.*`, `access.*`, `admin.ORGANIZATION-*`,
 * `admin.ORGANIZATION_MEMBERSHIP-CREATE`. (The vendor also tries each filter as a Java regular
 * expression; this service does not run callers' expressions, and `.` is a plain dot.)
 */
export function eventTypePatternProblem(pattern: string): string | undefined {
  if (pattern.length === 0) return 'is empty';
  if (pattern.length > MAX_EVENT_TYPE_PATTERN_LENGTH) return `is longer than ${MAX_EVENT_TYPE_PATTERN_LENGTH} characters`;
  if (!/^[A-Za-z0-9_.*-]+$/.test(pattern)) return 'may hold only letters, digits, ".", "_", "-" and "*"';
  return undefined;
}

/** The longest webhook secret the service accepts. */
export const MAX_WEBHOOK_SECRET_LENGTH = 1024;

/**
 * A new webhook secret, for a webhook created without one: 256 random bits, base64url. The service
 * makes one when a create's body has none; the provider makes one itself, so that a create whose
 * answer was lost can be told by its secret (provider/resources/webhook.ts).
 */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}
