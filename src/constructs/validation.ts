/**
 * Construct-time validation for the orgadmin constructs.
 *
 * Each construct collects every problem with its props into one {@link ConstructValidationError}
 * before anything is synthesized, so a user fixes all of them in one go instead of one per run.
 * Values that are unresolved tokens (`${orgadmin_user.alice.id}`, variables) are only known at
 * apply time: they are skipped here and left to the provider.
 */
import { Token } from 'cdktf';

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

/** The service's limit on organization names (docs/guides/service.md: 1–255 characters). */
const MAX_NAME_LENGTH = 255;

/** Checks an organization name: present, not blank, at most 255 characters. */
export function checkOrganizationName(name: string | undefined, problems: Problems, prop = 'name'): void {
  if (isUnresolved(name)) return;
  if (typeof name !== 'string' || name.trim() === '') {
    problems.add(`${prop} must not be empty (got ${quote(name)}).`);
  } else if (name.length > MAX_NAME_LENGTH) {
    problems.add(`${prop} must be at most ${MAX_NAME_LENGTH} characters (got ${name.length} characters).`);
  }
}

/** Checks an absolute http(s) URL, as the service requires for an organization's `url`. */
export function checkHttpUrl(url: string | undefined, problems: Problems, prop: string): void {
  if (url === undefined || isUnresolved(url)) return;
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    problems.add(`${prop} must be an absolute http:// or https:// URL (got ${quote(url)}).`);
  }
}

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters. */
const DNS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Checks an organization's domains: lowercase DNS names (the service stores them lowercase, so an
 * uppercase name would show as drift on every plan), each at most once.
 */
export function checkDomains(domains: readonly string[] | undefined, problems: Problems, prop = 'domains'): void {
  if (domains === undefined || isUnresolved(domains)) return;
  const seen = new Set<string>();
  domains.forEach((domain, index) => {
    if (isUnresolved(domain)) return;
    const where = `${prop}[${index}]`;
    if (typeof domain !== 'string' || domain === '') {
      problems.add(`${where} must be a DNS name (got ${quote(domain)}).`);
      return;
    }
    if (domain !== domain.toLowerCase()) {
      problems.add(`${where} must be lowercase (got ${quote(domain)}; write ${quote(domain.toLowerCase())}).`);
      return;
    }
    const labels = domain.split('.');
    if (domain.length > 253 || !labels.every((label) => DNS_LABEL.test(label))) {
      problems.add(`${where} is not a valid DNS name (got ${quote(domain)}).`);
      return;
    }
    if (seen.has(domain)) problems.add(`${where} repeats the domain ${quote(domain)}.`);
    seen.add(domain);
  });
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

/** Checks a number that must be a whole number at least `min`. */
export function checkWholeNumber(value: number | undefined, problems: Problems, prop: string, min: number): void {
  if (value === undefined || isUnresolved(value)) return;
  if (!Number.isInteger(value) || value < min) {
    problems.add(`${prop} must be a whole number of at least ${min} (got ${quote(value)}).`);
  }
}
