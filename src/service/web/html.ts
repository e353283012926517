/**
 * Server-rendered HTML for the login page and the dashboard: a tagged template that escapes every
 * interpolated value unless it is already {@link Html}, one page layout, and the security headers
 * every HTML answer carries (a strict Content-Security-Policy: no inline script or style at all,
 * scripts and styles only from the service's own asset files).
 */
import type { FastifyReply } from 'fastify';
import { WEB_ASSETS_PATH } from '../login-paths';

/** Markup that is safe to insert as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Value = Html | string | number | boolean | null | undefined | Value[];

const render = (value: Value): string => {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof Html) return value.text;
  return escapeHtml(String(value));
};

/** `html\`<p>${text}</p>\``: every value is escaped; arrays are concatenated; null/undefined/false render nothing. */
export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

/**
 * The Content-Security-Policy of every page: nothing but the service's own scripts, styles and
 * images; no plugins, no framing, no `<base>`; forms may post only to the service itself and to
 * `formTargets` (the login page names the client's redirect origin, because browsers apply
 * `form-action` to the redirect that follows a form post).
 */
export function contentSecurityPolicy(formTargets: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    `form-action 'self'${formTargets.map((origin) => ` ${origin}`).join('')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** Sends an HTML page with the security headers (CSP, no framing, no sniffing, no caching, no referrer to other sites). */
export function sendPage(reply: FastifyReply, status: number, page: Html, opts: { formTargets?: string[] } = {}): FastifyReply {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-security-policy', contentSecurityPolicy(opts.formTargets))
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on form posts, and
    // the dashboard checks Origin. Nothing leaks to other sites either way.
    .header('referrer-policy', 'same-origin')
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send(page.text);
}

/** A whole page: title, optional extra head elements (e.g. a refresh), optional navigation and body. */
export function layout(opts: { title: string; head?: Html; nav?: Html; body: Html }): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · orgadmin</title>
<link rel="stylesheet" href="${WEB_ASSETS_PATH}/orgadmin.css">
<script src="${WEB_ASSETS_PATH}/orgadmin.js" defer></script>
${opts.head ?? ''}
</head>
<body>
${opts.nav ?? ''}
<main>
${opts.body}
</main>
</body>
</html>
`;
}
