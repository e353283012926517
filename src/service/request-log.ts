/**
 * What the request log may show. It logs the method, the URL and the caller's address, never
 * headers (Authorization) or bodies (secrets, passwords). Secrets can still travel in a URL, in its
 * query (portal links: `?token=`) or pasted into its path (a token sent where an id belongs), and
 * in the text of an error; every such place is redacted (by the rule of `src/api/redaction.ts`), on
 * the whole text, before anything shortens it, so no prefix of a secret survives.
 */
import type { FastifyServerOptions } from 'fastify';
import { redactUnknownSecrets } from '../api/redaction';

/** Hides secrets in any text (URL, error message, stack): tokens, secret parameters, opaque runs. */
export const redactSecrets = redactUnknownSecrets;

/** Hides secrets in a request URL, in its query and in its path (see {@link redactSecrets}). */
export function redactUrl(url: string): string {
  return redactUnknownSecrets(url);
}

/** An error as logged: type, redacted message and stack (the stack repeats the message). */
function errorForLog(error: unknown): { type: string; message: string; stack: string; [key: string]: unknown } {
  if (!(error instanceof Error)) return { type: typeof error, message: redactSecrets(String(error)), stack: '' };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: redactSecrets(error.message),
    stack: redactSecrets(error.stack ?? ''),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

/** The fastify `logger` option for the service's `logger` setting (false: no log). */
export function loggerOption(logger: boolean | object | undefined): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = typeof logger === 'object' ? logger : {};
  return {
    level: 'info',
    ...base,
    serializers: {
      // Only method, redacted URL and address: never headers (Authorization) or bodies (secrets).
      req: (req: { method?: string; url?: string; ip?: string }) => ({
        method: req.method,
        url: redactUrl(req.url ?? ''),
        remoteAddress: req.ip,
      }),
      // Errors of any kind (also Node's client errors, whose raw packet holds the headers) are
      // reduced to redacted text; nothing else of them is logged.
      err: errorForLog,
      ...((base as { serializers?: object }).serializers ?? {}),
    },
  } as FastifyServerOptions['logger'];
}
