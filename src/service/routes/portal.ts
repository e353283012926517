/**
 * The admin portal: `POST …/portal-link` hands out a link carrying a signed, single-organization,
 * expiring token (RS256 with the realm key, `typ: "portal"`, so it is never accepted as an access
 * token and vice versa); `GET …/portal?token=` checks it and serves a small server-rendered page.
 *
 * A missing, bad or expired portal token answers 401 JSON `invalid_token` (no HTML error page), so
 * scripts and browsers get the same, documented error shape as everywhere else.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PortalLinkSchema, type Organization } from '../../api';
import type { PortalLinkInput } from '../admin';
import { bearerHook, realmHook } from '../auth/guards';
import { TokenError, verifyJwt } from '../auth/jwt';
import { authOf, baseUrlOf, nowSeconds, realmOf, type ServiceContext } from '../context';
import { handleError, notFound, sendError, ServiceError } from '../errors';
import type { UserRecord } from '../store/store';

const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const PageQuery = Type.Object({ token: Type.Optional(Type.String()) });
/** The portal page: server-rendered HTML, sent as text (not serialized as JSON). */
const PageAnswer = Type.String({ description: 'text/html page' });

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The portal page of one organization. */
function renderPage(org: Organization, members: UserRecord[], actingUser: string): string {
  const e = escapeHtml;
  const domains = org.domains.length > 0 ? org.domains.map((d) => `<li>${e(d)}</li>`).join('') : '<li>(none)</li>';
  const rows = members
    .map((m) => `<tr><td>${e(m.username)}</td><td>${e(m.email ?? '')}</td><td>${e([m.firstName, m.lastName].filter(Boolean).join(' '))}</td></tr>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${e(org.name)} — organization portal</title></head>
<body>
<h1>${e(org.displayName ?? org.name)}</h1>
<p>Organization <strong>${e(org.name)}</strong> (id <code>${e(org.id)}</code>), realm ${e(org.realm)}. Signed in as ${e(actingUser)}.</p>
${org.url ? `<p>Website: ${e(org.url)}</p>` : ''}
<h2>Domains</h2><ul>${domains}</ul>
<h2>Members (${members.length})</h2>
<table><thead><tr><th>Username</th><th>Email</th><th>Name</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>
`;
}

/** The sentence of a portal-link request whose body has another content type. */
const PORTAL_LINK_MEDIA_TYPES = 'The request body must be sent as application/x-www-form-urlencoded or application/json.';

const badPortalToken = (description: string): ServiceError => new ServiceError(401, 'invalid_token', description);

/** Registers the portal link endpoint and the portal page. */
export async function portalRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  await app.register(formbody);
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.post(
    '/realms/:realm/orgs/:orgId/portal-link',
    {
      // The body is checked field by field by createPortalLink (admin/organizations.ts): it may be a form or JSON.
      schema: { params: OrgParams, response: { 200: PortalLinkSchema } },
      onRequest: [realmHook(ctx), bearerHook(ctx, { permission: 'manage-organizations' })],
      // This operation reads forms as well as JSON, so a wrong content type says both.
      errorHandler: (error, request, reply) => {
        if ((error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
          return sendError(reply, new ServiceError(400, 'unsupported_media_type', PORTAL_LINK_MEDIA_TYPES));
        }
        return handleError(error, request, reply);
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as PortalLinkInput;
      return ctx.admin.organizations.createPortalLink(realmOf(request).name, request.params.orgId, { userId: body.userId, baseUri: body.baseUri }, {
        baseUrl: baseUrlOf(request, ctx),
        clientId: authOf(request).clientId,
      });
    },
  );

  routes.get(
    '/realms/:realm/orgs/:orgId/portal',
    { schema: { params: OrgParams, querystring: PageQuery, response: { 200: PageAnswer } }, onRequest: realmHook(ctx) },
    async (request, reply) => {
      const realm = realmOf(request);
      // A disabled realm serves nothing, the portal included (as for every bearer route).
      if (!realm.enabled) throw new ServiceError(403, 'access_denied', `Realm ${realm.name} is disabled.`);
      const { orgId } = request.params;
      const token = request.query.token;
      if (!token) throw badPortalToken('The portal link has no token.');
      let claims;
      try {
        claims = verifyJwt(token, realm, { realm: realm.name, typ: 'portal', nowSeconds: nowSeconds(ctx) });
      } catch (error) {
        if (!(error instanceof TokenError)) throw error;
        throw badPortalToken(error.message === 'expired' ? 'The portal link has expired.' : 'The portal link is not valid.');
      }
      if (claims.org !== orgId) throw badPortalToken('The portal link is for another organization.');
      const org = await store.getOrganization(realm.name, orgId);
      if (!org) throw notFound(`Organization ${orgId} does not exist.`);
      const members = await store.listMembers(realm.name, orgId, {});
      const acting = (await store.getUser(realm.name, claims.sub))?.username ?? claims.sub;
      return reply
        .type('text/html; charset=utf-8')
        // The link's token is in this page's URL: no framing (clickjacking) and no Referer to
        // wherever a link on the page leads, so the token never leaves the browser.
        .header('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
        .header('X-Frame-Options', 'DENY')
        .header('Referrer-Policy', 'no-referrer')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Cache-Control', 'no-store')
        .send(renderPage(org, members, acting));
    },
  );
}
