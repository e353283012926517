/**
 * Organizations: list, count, create, get, update, delete (the wire contract, docs/guides/service.md).
 * The portal link lives in portal.ts and "get member info" (`/orgs/me`) in memberships.ts.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CountSchema,
  NoBodySchema,
  orgAdminUsername,
  organizationToWire,
  orgsPath,
  OrganizationInputSchema,
  OrganizationListSchema,
  OrganizationSchema,
  OrganizationsQuerySchema,
  type Attributes,
  type Organization,
  type OrganizationInput,
  domainProblem,
  nameProblem,
  normalizeDomain,
  urlProblem,
} from '../../api';
import { bearerHook, realmHook } from '../auth/guards';
import { originOf, realmOf, requestUrlOf, type ServiceContext } from '../context';
import { notFound, ServiceError } from '../errors';
import { newUser, StoreConflictError, type NewUser } from '../store/store';
import { UNSUPPORTED_ORGS_SEGMENTS } from './unsupported';

const RealmParams = Type.Object({ realm: Type.String() });
const OrgParams = Type.Object({ realm: Type.String(), orgId: Type.String() });
const CountQuery = Type.Object({ search: Type.Optional(Type.String()), q: Type.Optional(Type.String()) });

const invalidBody = (description: string): ServiceError => new ServiceError(400, 'invalid_body', description);

/**
 * Ids an organization cannot have: `GET /orgs/me`, `GET /orgs/count`, `GET /orgs/export` and
 * `POST /orgs/import` are other operations, and `/orgs/config` is the real service's (answered as
 * not supported here), so an organization with one of these ids could be created but never read.
 */
export const RESERVED_ORGANIZATION_IDS: readonly string[] = ['me', 'count', 'export', 'import', ...UNSUPPORTED_ORGS_SEGMENTS];

/**
 * Domains in the form the service stores (`normalizeDomain`: trimmed, lowercase, no trailing dot),
 * each a valid DNS name (`domainProblem`); duplicates are dropped, the first occurrence kept.
 */
export function normalizeDomains(domains: string[]): string[] {
  const out: string[] = [];
  for (const raw of domains) {
    const problem = domainProblem(raw);
    if (problem) throw invalidBody(`Domain "${raw}" ${problem}.`);
    const domain = normalizeDomain(raw);
    if (!out.includes(domain)) out.push(domain);
  }
  return out;
}

/** `url`: null/absent, or an absolute http(s) URL (`urlProblem`). */
function normalizeUrl(url: string | null | undefined): string | null {
  if (url === undefined || url === null) return null;
  const problem = urlProblem(url);
  if (problem) throw invalidBody(`url "${url}" ${problem}.`);
  return url;
}

/**
 * The checked, normalized fields of a create or update body (also of each organization of an
 * import, operations/org-transfer.ts).
 */
export function readOrganizationInput(body: OrganizationInput): {
  name: string;
  displayName: string | null;
  url: string | null;
  attributes: Attributes;
  domains?: string[];
} {
  const problem = nameProblem(body.name);
  if (problem) throw invalidBody(`name ${problem}.`);
  return {
    name: body.name,
    displayName: body.displayName ?? null,
    url: normalizeUrl(body.url),
    attributes: body.attributes ?? {},
    domains: body.domains === undefined ? undefined : normalizeDomains(body.domains),
  };
}

/**
 * The default admin user `org-admin-<orgId>` that creating organization `orgId` also creates when
 * the realm asks for it (`createAdminUser`), else undefined.
 */
export function defaultAdminUser(realm: { name: string; createAdminUser: boolean }, orgId: string, now: number): NewUser | undefined {
  return realm.createAdminUser
    ? newUser({ id: randomUUID(), realm: realm.name, username: orgAdminUsername(orgId), kind: 'org-admin', adminOfOrganization: orgId, createdTimestamp: now })
    : undefined;
}

/** The reason an organization id cannot be used (one of {@link RESERVED_ORGANIZATION_IDS}), or undefined. */
export function reservedIdProblem(realm: string, id: string): string | undefined {
  return RESERVED_ORGANIZATION_IDS.includes(id)
    ? `id "${id}" is reserved: GET ${orgsPath(realm)}/${id} is another operation, so the organization could never be read.`
    : undefined;
}

/**
 * The 409 of a create or rename that collides. A collision on the default admin user's username
 * means another organization of the realm has an id that differs from this one only in case
 * (`org-admin-<id>` usernames are compared without case, as Keycloak's are): said so, rather than
 * claiming the id itself is taken (issue 27, finding 8). Organization ids are unique per realm
 * (store migration 009), so a taken id is one of this realm: another realm's ids neither collide
 * nor show.
 */
function conflict(error: StoreConflictError, name: string, id: string): ServiceError {
  if (error.what === 'organization name') return new ServiceError(409, 'conflict', `An organization named "${name}" already exists in this realm.`);
  if (error.what === 'username') {
    return new ServiceError(
      409,
      'conflict',
      `Organization id "${id}" differs only in case from another organization's id in this realm; their default admin users (${orgAdminUsername(id)}) would share one username, and usernames are compared without case.`,
    );
  }
  return new ServiceError(409, 'conflict', `An organization with id "${id}" already exists in this realm.`);
}

/** Registers the organization routes. */
export async function organizationRoutes(app: FastifyInstance, opts: { ctx: ServiceContext }): Promise<void> {
  const { ctx } = opts;
  const { store } = ctx;
  const { organizations } = ctx.admin;
  const realm = realmHook(ctx);
  // Request and answer types follow from the route schemas below.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.get(
    '/realms/:realm/orgs',
    {
      schema: { params: RealmParams, querystring: OrganizationsQuerySchema, response: { 200: OrganizationListSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request) => (await organizations.list(realmOf(request).name, request.query)).map(organizationToWire),
  );

  routes.get(
    '/realms/:realm/orgs/count',
    {
      schema: { params: RealmParams, querystring: CountQuery, response: { 200: CountSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations' })],
    },
    async (request) => organizations.count(realmOf(request).name, request.query),
  );

  routes.post(
    '/realms/:realm/orgs',
    {
      schema: { params: RealmParams, body: OrganizationInputSchema, response: { 201: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'create-organization' })],
    },
    async (request, reply) => {
      const realmRecord = realmOf(request);
      const input = readOrganizationInput(request.body);
      const reserved = request.body.id === undefined ? undefined : reservedIdProblem(realmRecord.name, request.body.id);
      if (reserved) throw invalidBody(reserved);
      const id = request.body.id ?? randomUUID();
      const org: Organization = {
        id,
        name: input.name,
        displayName: input.displayName,
        url: input.url,
        domains: input.domains ?? [],
        attributes: input.attributes,
        realm: realmRecord.name,
      };
      const now = Date.now();
      const adminUser = defaultAdminUser(realmRecord, id, now);
      try {
        await store.createOrganization(org, adminUser, now, originOf(request));
      } catch (error) {
        if (error instanceof StoreConflictError) throw conflict(error, org.name, id);
        throw error;
      }
      return reply.status(201).header('Location', `${requestUrlOf(request, ctx)}/${encodeURIComponent(id)}`).send();
    },
  );

  routes.get(
    '/realms/:realm/orgs/:orgId',
    {
      schema: { params: OrgParams, response: { 200: OrganizationSchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'view-organizations', orMemberOfOrg: true })],
    },
    async (request) => organizationToWire(await organizations.get(realmOf(request).name, request.params.orgId)),
  );

  routes.put(
    '/realms/:realm/orgs/:orgId',
    {
      schema: { params: OrgParams, body: OrganizationInputSchema, response: { 204: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      const input = readOrganizationInput(request.body);
      const { orgId } = request.params;
      let updated: boolean;
      try {
        // id and realm in the body are ignored: the path names the organization.
        updated = await store.updateOrganization(realmOf(request).name, orgId, input, originOf(request));
      } catch (error) {
        if (error instanceof StoreConflictError) throw conflict(error, input.name, orgId);
        throw error;
      }
      if (!updated) throw notFound(`Organization ${orgId} does not exist.`);
      return reply.status(204).send();
    },
  );

  routes.delete(
    '/realms/:realm/orgs/:orgId',
    {
      schema: { params: OrgParams, response: { 204: NoBodySchema } },
      onRequest: [realm, bearerHook(ctx, { permission: 'manage-organizations' })],
    },
    async (request, reply) => {
      const { orgId } = request.params;
      if (!(await store.deleteOrganization(realmOf(request).name, orgId, originOf(request)))) {
        throw notFound(`Organization ${orgId} does not exist.`);
      }
      return reply.status(204).send();
    },
  );
}
