/**
 * The one rule for keeping secrets out of text that anyone may read (errors, diagnostics, logs,
 * command output). Shared by the service, the SDK, the provider and the CLI.
 *
 * Two kinds of secret:
 * - **Known secrets** (a client secret, the token a request carried): every occurrence is
 *   replaced, as written and as form encoding spells it (a server that echoes a form sends
 *   `a%2Bb` for `a+b`), longest first so that a secret containing another is hidden whole.
 * - **Secrets nobody named** (a token pasted into a URL path, a `?token=` query, an error that
 *   quotes either): the values of secret query parameters, compact JWTs and long opaque runs.
 *
 * Redact the whole text before anything shortens it: a cut made first can leave a prefix of the
 * secret that no longer matches it, and that prefix would then be shown.
 */

/** The marker that takes a secret's place (parts whose users know another marker pass their own). */
export const REDACTED = '[redacted]';

/** Shorter "secrets" would redact ordinary words (a test value such as `ab`); real ones are long. */
const MIN_SECRET_LENGTH = 4;

/** Query parameters whose values are secrets. */
const SECRET_PARAMETERS = /([?&;](?:token|access_token|refresh_token|id_token|client_secret|password|code)=)[^&;#]*/gi;
/** A JWT or JWS in compact form (three base64url parts, the header starting with `eyJ`). */
const COMPACT_JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.?[A-Za-z0-9_-]*/g;
/**
 * A long opaque run of base64url characters, as client secrets (43 characters) are. Longer than a
 * UUID (36), so organization and user ids in their usual form stay readable. The lookbehind lets a
 * match start only where a run starts: without it the engine retries from every character inside
 * each shorter run (every character of a UUID starts a try that reads to its end), which made this
 * rule most of the request log's cost per line (bench/README.md, bench:service, the ops row). It
 * matches the same runs.
 */
const OPAQUE_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{40,}/g;

/** `secret` as `application/x-www-form-urlencoded` spells it. */
function formEncoded(secret: string): string {
  return new URLSearchParams({ s: secret }).toString().slice('s='.length);
}

/**
 * Replaces every occurrence of each of `secrets` in `text`, raw and form-encoded, with `marker`.
 * Empty, undefined and very short values are skipped.
 */
export function redactKnownSecrets(text: string, secrets: Iterable<string | undefined>, marker: string = REDACTED): string {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (secret === undefined || secret.length < MIN_SECRET_LENGTH) continue;
    spellings.add(secret);
    spellings.add(formEncoded(secret));
  }
  let result = text;
  for (const spelling of [...spellings].sort((a, b) => b.length - a.length)) result = result.split(spelling).join(marker);
  return result;
}

/**
 * Hides secrets nobody named in any text (a URL, an error message, a stack): the values of secret
 * query parameters, compact JWTs and long opaque runs, in the query and in the path alike.
 */
export function redactUnknownSecrets(text: string): string {
  return text.replace(SECRET_PARAMETERS, `$1${REDACTED}`).replace(COMPACT_JWT, REDACTED).replace(OPAQUE_RUN, REDACTED);
}
