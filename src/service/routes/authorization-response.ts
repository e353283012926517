/**
 * Answers of the authorization endpoint that every way of signing in shares (the password form in
 * authorize.ts, the broker's callback in broker.ts): the error page for requests that cannot be
 * trusted, the redirect back to the client, and the last step of a sign-in, which issues the code.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { issuer } from '../../api';
import { issueAuthorizationCode } from '../auth/authorization-codes';
import { permissionsOfUser } from '../auth/realm-admin';
import { grantScope } from '../auth/scopes';
import { baseUrlOf, type ServiceContext } from '../context';
import { ServiceError } from '../errors';
import type { RealmSettings, UserRecord } from '../store/store';
import { html, layout, sendPage, type Html } from '../web/html';

/** Parameters of an authorization request that are carried through a sign-in. */
export const CARRIED = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method'] as const;
/** An authorization request's parameters. */
export type AuthorizationParams = Partial<Record<(typeof CARRIED)[number] | 'prompt', string>>;

/** An error page (never a redirect): for requests whose client or redirect URI cannot be trusted, and sign-ins refused on the way. */
export function errorPage(reply: FastifyReply, status: number, title: string, message: string): FastifyReply {
  return sendPage(reply, status, layout({ title, body: html`<div class="card login"><h1>${title}</h1><p class="error" role="alert">${message}</p></div>` }));
}

/** `redirectUri` with `params` added to it. */
function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}

/** The redirect back to the client with `params` added to its (exact) redirect URI. */
export function redirectBack(reply: FastifyReply, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(withParams(redirectUri, params), 303);
}

/**
 * A page that sends the browser on to `target` (an immediate refresh, and a link `#continue`),
 * where a redirect would be blocked: browsers apply the `form-action` policy of the page whose
 * form started a navigation to every redirect of it, so a chain that began at a form of another
 * site (an upstream's login page, or this service's own login form) cannot be redirected to a
 * third origin. A refresh is a navigation of its own.
 */
export function sendOnPage(reply: FastifyReply, target: string, title: string, text: Html | string, linkText: string): FastifyReply {
  return sendPage(
    reply,
    200,
    layout({
      title,
      head: html`<meta http-equiv="refresh" content="0;url=${target}">`,
      body: html`<div class="card login"><h1>${title}</h1>
<p>${text}</p>
<p><a id="continue" href="${target}">${linkText}</a></p></div>`,
    }),
  );
}

/** How a sign-in's last answer reaches the client: a redirect, or a page that sends the browser on ({@link sendOnPage}). */
export type BackTo = 'redirect' | 'page';

/** Back to the client with `params`, by redirect or by page. */
export function sendBack(reply: FastifyReply, how: BackTo, redirectUri: string, params: Record<string, string | undefined>): FastifyReply {
  if (how === 'redirect') return redirectBack(reply, redirectUri, params);
  const target = withParams(redirectUri, params);
  return sendOnPage(reply, target, 'Returning to the application', `You are ${params.error ? 'not ' : ''}signed in; returning to the application.`, 'Continue');
}

/**
 * The last step of a sign-in of `user` for a checked authorization request: the scope the user
 * may have, a code for the client, and the redirect back with the code, the state and the issuer
 * (RFC 9207: the issuer lets a client that talks to several servers tell them apart).
 */
export async function completeSignIn(
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
  realm: RealmSettings,
  clientId: string,
  params: AuthorizationParams & { redirect_uri: string },
  user: UserRecord,
  how: BackTo = 'redirect',
): Promise<FastifyReply> {
  let scope: string;
  try {
    scope = grantScope(params.scope, permissionsOfUser(user)).scope;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return sendBack(reply, how, params.redirect_uri, { error: 'invalid_scope', error_description: error.message, state: params.state });
  }
  const code = await issueAuthorizationCode(ctx, realm, {
    clientId,
    redirectUri: params.redirect_uri,
    userId: user.id,
    codeChallenge: params.code_challenge!,
    nonce: params.nonce ?? null,
    scope: params.scope ?? scope,
  });
  return sendBack(reply, how, params.redirect_uri, { code, state: params.state, iss: issuer(baseUrlOf(request, ctx), realm.name) });
}
