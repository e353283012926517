/**
 * Bearer tokens as an undici interceptor: every request whose record names a realm gets
 * `Authorization: Bearer <token>` with a token from the {@link TokenSource} for that realm.
 *
 * - A 401 is answered once per request by dropping the token, fetching a fresh one and sending
 *   again, for any method (a 401 means the service did nothing). The attempt that got the 401 is
 *   written down as `HTTP 401 (fresh token fetched)`; the resend is not a retry. When the token
 *   source has no other token to offer (a static token), the 401 is passed up as the final answer.
 * - The token fetch is bounded by the token source itself (its timeout, and its retries inside its
 *   single flight); what it throws passes up unchanged. The caller's abort stops the wait for it.
 * - The token never travels back up: an error answer that echoes it (a proxy's error page, say)
 *   has it replaced by `[redacted]` before anyone reads it.
 */
import type { Dispatcher } from 'undici';
import { redactKnownSecrets } from '../../api/redaction';
import type { TokenSource } from '../token-source';
import { bufferedInterceptor, type BufferedAnswer } from './buffered';
import { recordOf } from './request-record';

/** `opts` with the bearer token added to its headers (the SDK sends headers as a plain object). */
function withBearer(opts: Dispatcher.DispatchOptions, token: string): Dispatcher.DispatchOptions {
  const headers = (opts.headers ?? {}) as Record<string, string | string[] | undefined>;
  return { ...opts, headers: { ...headers, authorization: `Bearer ${token}` } };
}

/** `answer` with every occurrence of `token` in an error body replaced, so no error can show it. */
function redactToken(answer: BufferedAnswer, token: string): BufferedAnswer {
  if (answer.statusCode < 300) return answer;
  const text = answer.body.toString('utf8');
  const redacted = redactKnownSecrets(text, [token]);
  if (redacted === text) return answer;
  const body = Buffer.from(redacted, 'utf8');
  const headers = answer.headers['content-length'] === undefined ? answer.headers : { ...answer.headers, 'content-length': String(body.length) };
  return { ...answer, headers, body };
}

/** An interceptor that authenticates each request with a token of its record's realm. */
export function authInterceptor(tokenSource: TokenSource): Dispatcher.DispatcherComposeInterceptor {
  return bufferedInterceptor(async (opts, next, signal) => {
    const record = recordOf(opts);
    const realm = record.realm;
    if (realm === undefined) return next(opts, signal);
    const send = async (token: string): Promise<BufferedAnswer> => redactToken(await next(withBearer(opts, token), signal), token);

    const token = await tokenSource.getToken(realm, { signal });
    const answer = await send(token);
    if (answer.statusCode !== 401 || record.tokenRefreshed) return answer;
    // The token may have been revoked, expired early or signed with a rotated key: one fresh token,
    // one more try. A 401 that survives that is about the credentials themselves.
    tokenSource.invalidate(realm, token);
    const fresh = await tokenSource.getToken(realm, { signal });
    if (fresh === token) return answer;
    record.outcomes.push('HTTP 401 (fresh token fetched)');
    record.tokenRefreshed = true;
    return send(fresh);
  });
}
