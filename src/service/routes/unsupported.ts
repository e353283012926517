/**
 * The real service's other operations: every path of the vendor's published API (the `openapi.yaml`
 * of p2-inc/phasetwo-docs, paths relative to `/realms`) that this service does not implement.
 * Each answers every method with 404 `operation_not_supported`, so that a client written for the
 * real service learns that the operation is missing here, instead of `GET /orgs/export` being read
 * as "organization `export` does not exist" or `PUT /orgs/config` as an update of organization
 * `config`. 404, not 501: nothing failed, the resource simply does not exist on this service.
 *
 * The answer comes before any realm or token check: it does not depend on either.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, ServiceError } from '../errors';

/**
 * Literal path segments right after `/realms/{realm}/orgs/` that name an operation of the real
 * service that this service does not implement, not an organization (`me`, `count`, `export` and
 * `import` are implemented).
 */
export const UNSUPPORTED_ORGS_SEGMENTS: readonly string[] = ['config'];

/**
 * The vendor spec's paths (under `/realms`) that this service does not implement, in the router's
 * syntax. Implemented ones (organizations, count, me, members, member count and check/add/remove,
 * portal link, roles and grants, a user's organizations and roles, domains and their verification,
 * identity providers and their mappers) are the other route files.
 */
export const UNSUPPORTED_PATHS: readonly string[] = [
  // Organizations: the realm's organization settings.
  ...UNSUPPORTED_ORGS_SEGMENTS.map((segment) => `/:realm/orgs/${segment}`),
  // Invitations of the caller.
  '/:realm/orgs/me/invitations',
  '/:realm/orgs/me/invitations/:invitationId',
  // Member attributes.
  '/:realm/orgs/:orgId/members/:userId/attributes',
  // Invitations.
  '/:realm/orgs/:orgId/invitations',
  '/:realm/orgs/:orgId/invitations/count',
  '/:realm/orgs/:orgId/invitations/:invitationId',
  '/:realm/orgs/:orgId/invitations/:invitationId/resend-email',
  // Identity providers: importing a Keycloak provider export (the others are implemented).
  '/:realm/orgs/:orgId/idps/import-config',
  // SCIM.
  '/:realm/orgs/:orgId/scim',
  // The active organization.
  '/:realm/users/switch-organization',
  '/:realm/users/active-organization',
  // Realm extensions: custom events, attributes, the payload and sends of a Keycloak event, magic
  // links (webhooks themselves are served: routes/webhooks.ts).
  '/:realm/events',
  '/:realm/attributes',
  '/:realm/attributes/:attributeKey',
  '/:realm/webhooks/payload/:type/:kid',
  '/:realm/webhooks/sends/:type/:kid',
  '/:realm/magic-link',
].map((path) => `/realms${path}`);

/** Every method, so that no method of these paths falls through to an `/orgs/{orgId}` route (HEAD comes with GET). */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The answer of an operation this service does not implement. */
function notSupported(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0];
  return sendError(
    reply,
    new ServiceError(
      404,
      'operation_not_supported',
      `${request.method} ${path} is an operation of the hosted service's API that this service does not offer.`,
    ),
  );
}

/** Registers the not-supported answer on every path of {@link UNSUPPORTED_PATHS}. */
export async function unsupportedRoutes(app: FastifyInstance): Promise<void> {
  for (const url of UNSUPPORTED_PATHS) {
    app.route({ method: METHODS, url, handler: async (request, reply) => notSupported(request, reply) });
  }
}
