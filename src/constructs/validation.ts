/**
 * Construct-time validation for the orgadmin constructs.
 *
 * Each construct collects every problem with its props into one {@link ConstructValidationError}
 * before anything is synthesized, so a user fixes all of them in one go instead of one per run.
 * Values that are unresolved tokens (`${orgadmin_user.alice.id}`, variables) are only known at
 * apply time: they are skipped here and left to the provider.
 *
 * The rules themselves (names, domains, URLs, realm names, limits) are the service's and the
 * provider's, from src/api/validation.ts; this file only words them for construct props.
 */
import { Token } from './toolkit';
import {
  MAX_NAME_LENGTH,
  baseUrlProblem,
  displayNameProblem,
  domainProblem,
  nameProblem,
  normalizeDomain,
  realmNameProblem,
  requestTimeoutProblem,
  retriesProblem,
  urlProblem,
} from '../api/validation';

/**
 * Raised by a construct constructor (or method) whose input cannot work. `problems` lists every
 * problem, each naming the prop and quoting the value given.
 */
export class ConstructValidationError extends Error {
  override readonly name = 'ConstructValidationError';

  /**
   * @param constructPath the construct's path in the tree (`stack/acme`)
   * @param problems one sentence per problem
   */
  constructor(
    readonly constructPath: string,
    readonly problems: readonly string[],
  ) {
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    super(`Invalid orgadmin construct "${constructPath}" (${count}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Collects problems and throws them together. */
export class Problems {
  private readonly list: string[] = [];

  /** Records one problem (a sentence naming the prop and the value). */
  add(problem: string): void {
    this.list.push(problem);
  }

  /** Throws a {@link ConstructValidationError} when at least one problem was recorded. */
  throwIfAny(constructPath: string): void {
    if (this.list.length > 0) throw new ConstructValidationError(constructPath, this.list);
  }
}

/** Renders a value for an error message the way the user wrote it. */
export function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** True when the value is only known at apply time (a token, a variable, a reference). */
export function isUnresolved(value: unknown): boolean {
  return Token.isUnresolved(value);
}

/** Checks an organization name: present, visible, at most {@link MAX_NAME_LENGTH} characters, nothing that spoofs another name (`nameProblem`). */
export function checkOrganizationName(name: string | undefined, problems: Problems, prop = 'name'): void {
  if (isUnresolved(name)) return;
  const problem = typeof name === 'string' ? nameProblem(name) : 'must not be empty';
  if (problem) problems.add(`${prop} ${problem} (got ${describeText(name)}).`);
}

/**
 * Records `prop <problem> (got <value>)<advice>.` when a known value breaks `rule` (one of
 * src/api/validation.ts); left-out values and tokens are skipped.
 */
function checkKnown<T>(value: T | undefined, rule: (value: T) => string | undefined, problems: Problems, prop: string, advice = ''): void {
  if (value === undefined || isUnresolved(value)) return;
  const problem = rule(value);
  if (problem) problems.add(`${prop} ${problem} (got ${describeText(value)})${advice}.`);
}

/** Checks an optional display name: at most {@link MAX_NAME_LENGTH} characters, nothing that spoofs another name (`displayNameProblem`). */
export function checkDisplayName(displayName: string | undefined, problems: Problems, prop = 'displayName'): void {
  checkKnown(displayName, displayNameProblem, problems, prop);
}

/** A value for a problem sentence: quoted, or only its length when quoting it would fill the screen. */
function describeText(value: unknown): string {
  return typeof value === 'string' && value.length > MAX_NAME_LENGTH ? `${value.length} characters` : quote(value);
}

/** Checks an absolute http(s) URL, as the service requires for an organization's `url` (`urlProblem`). */
export function checkHttpUrl(url: string | undefined, problems: Problems, prop: string): void {
  checkKnown(url, urlProblem, problems, prop);
}

/**
 * Checks the provider's base address (`baseUrlProblem`). The value is quoted only when it cannot
 * hold credentials (no `@`): a password written into the URL never reaches an error message.
 */
export function checkBaseUrl(url: string | undefined, problems: Problems, prop = 'baseUrl'): void {
  if (url === undefined || isUnresolved(url)) return;
  const problem = baseUrlProblem(url);
  if (problem) problems.add(`${prop} ${problem}${url.includes('@') ? '' : ` (got ${quote(url)})`}.`);
}

/**
 * Checks an organization's domains: DNS names (`domainProblem`), each at most once. Case, spaces
 * and a trailing dot are not problems (the construct writes each domain in the form the service
 * stores it, which the provider requires), but two spellings of one domain are: they are one.
 */
export function checkDomains(domains: readonly string[] | undefined, problems: Problems, prop = 'domains'): void {
  if (domains === undefined || isUnresolved(domains)) return;
  const seen = new Set<string>();
  domains.forEach((domain, index) => {
    if (isUnresolved(domain)) return;
    const where = `${prop}[${index}]`;
    const problem = typeof domain === 'string' ? domainProblem(domain) : 'is not a DNS name';
    if (problem) {
      problems.add(`${where} ${problem} (got ${quote(domain)}).`);
      return;
    }
    const normalized = normalizeDomain(domain);
    if (seen.has(normalized)) problems.add(`${where} repeats the domain ${quote(normalized)}.`);
    seen.add(normalized);
  });
}

/** Checks an optional realm name (`realmNameProblem`); left out means the provider's realm. */
export function checkRealm(realm: string | undefined, problems: Problems, prop = 'realm'): void {
  const rule = (value: string): string | undefined => (typeof value === 'string' ? realmNameProblem(value) : 'is not a string');
  checkKnown(realm, rule, problems, prop, "; leave it out to use the provider's realm");
}

/** Checks the provider's retry limit (`retriesProblem`). */
export function checkMaxRetries(retries: number | undefined, problems: Problems, prop = 'maxRetries'): void {
  checkKnown(retries, retriesProblem, problems, prop);
}

/** Checks the provider's request timeout in seconds (`requestTimeoutProblem`). */
export function checkRequestTimeout(seconds: number | undefined, problems: Problems, prop = 'requestTimeout'): void {
  checkKnown(seconds, requestTimeoutProblem, problems, prop);
}

/** Checks an organization's attributes: non-empty keys, each value a list of strings. */
export function checkAttributes(
  attributes: Readonly<Record<string, readonly string[]>> | undefined,
  problems: Problems,
  prop = 'attributes',
): void {
  if (attributes === undefined || isUnresolved(attributes)) return;
  for (const [key, values] of Object.entries(attributes)) {
    if (key.trim() === '') problems.add(`${prop} must not have an empty key (got ${quote(key)}).`);
    if (isUnresolved(values)) continue;
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
      problems.add(`${prop}[${quote(key)}] must be a list of strings (got ${quote(values)}).`);
    }
  }
}

/**
 * Checks a member set for users named twice. Two identical tokens are the same reference (the
 * same user looked up once), so they are reported too; different tokens cannot be compared before
 * apply and are skipped.
 */
export function checkNoDuplicateUsers(userIds: readonly string[], problems: Problems, prop: string, describe: (userId: string) => string): void {
  const seen = new Set<string>();
  userIds.forEach((userId, index) => {
    if (!isUnresolved(userId) && (typeof userId !== 'string' || userId.trim() === '')) {
      problems.add(`${prop}[${index}] must be a user id (got ${quote(userId)}).`);
      return;
    }
    if (seen.has(userId)) problems.add(`${prop}[${index}] names ${describe(userId)} a second time; a member set lists each user once.`);
    seen.add(userId);
  });
}
