/**
 * Organizations and memberships as both the JSON API (routes/organizations.ts, memberships.ts,
 * portal.ts) and the dashboard reach them: reading organizations and members, adding and removing
 * members, making admin portal links. The rules of these operations are written here once; the
 * routes add HTTP (schemas, permissions, status codes of success), the dashboard adds pages.
 *
 * Failures are the wire contract's: {@link ServiceError} with its status and code (404 for an
 * unknown organization, 403 for removing an organization's default admin user, 400 for bad input).
 */
import {
  issuer,
  MEMBERS_PAGE,
  orgAdminUsername,
  orgPath,
  ORGS_PAGE,
  parseAttributeQuery,
  queryTermsProblem,
  type Member,
  type Organization,
  type PortalLink,
} from '../../api';
import { signJwt } from '../auth/jwt';
import { nowSeconds, signingRealm } from '../context';
import { notFound, ServiceError } from '../errors';
import { hasControlCharacter } from '../text-checks';
import { toMember, type OrganizationFilter, type Store, type UserRecord } from '../store/store';
import { UNKNOWN_ORIGIN, type ChangeOrigin } from '../events/event';

/** Default lifetime of admin portal links (one day). */
export const DEFAULT_PORTAL_LINK_LIFETIME_SECONDS = 86400;

/** Search and page of the organization list (as the query string has them). */
export interface OrganizationsQuery {
  /** Substring of name or display name; empty means none. */
  search?: string;
  /** Exact attribute matches in the `q` grammar (`src/api/attribute-query.ts`). */
  q?: string;
  first?: number;
  /** Page size, capped at the contract's cap. */
  max?: number;
}

/** Search and page of the member list (as the query string has them). */
export interface MembersQuery {
  /** Comma-separated terms, any of which may match username, email, first or last name. */
  search?: string;
  /** Leave out organizations' default admin users. */
  excludeAdminAccounts?: boolean;
  first?: number;
  /** Page size, capped at the contract's cap. */
  max?: number;
}

/** What a portal link request may carry (a form or a JSON body: anything may arrive). */
export interface PortalLinkInput {
  /** The member the link signs in as; default the organization's default admin user. */
  userId?: unknown;
  /** Where the caller's page is, returned as `redirect`. */
  baseUri?: unknown;
}

/** Who asks for a portal link and at which address the service is reached. */
export interface PortalLinkIssuer {
  /** The service's base address as the caller sees it (no trailing slash). */
  baseUrl: string;
  /** The client the caller's token was issued to; the link's token names it (`azp`). */
  clientId: string;
}

/**
 * The exact attribute matches of `q`, or 400 `invalid_query` when `q` is not a list of
 * `key:value` pairs.
 */
export function attributeMatchesOf(q: string): Array<[string, string]> {
  const pairs = parseAttributeQuery(q);
  if (!pairs) throw new ServiceError(400, 'invalid_query', `q "${q}" is not a list of key:value pairs (quote keys or values that contain spaces).`);
  const tooMany = queryTermsProblem(pairs.length);
  if (tooMany) throw new ServiceError(400, 'invalid_query', `q ${tooMany}.`);
  return pairs;
}

function filterOf(query: { search?: string; q?: string }): OrganizationFilter {
  return {
    search: query.search === undefined || query.search === '' ? undefined : query.search,
    attributes: query.q === undefined ? undefined : attributeMatchesOf(query.q),
  };
}

/** Comma-separated search terms, blanks dropped; 400 `invalid_query` beyond `MAX_QUERY_TERMS`. */
function searchTerms(search: string | undefined): string[] | undefined {
  if (search === undefined) return undefined;
  const terms = search.split(',').map((term) => term.trim()).filter((term) => term !== '');
  const tooMany = queryTermsProblem(terms.length);
  if (tooMany) throw new ServiceError(400, 'invalid_query', `search ${tooMany}.`);
  return terms.length > 0 ? terms : undefined;
}

/** Organizations and memberships over a {@link Store}. */
export class OrganizationAdmin {
  constructor(
    private readonly store: Store,
    private readonly portalLinkLifetimeSeconds: number,
    private readonly now: () => number = Date.now,
    /** Who the changes are made by and from where: written into their events. */
    private readonly origin: ChangeOrigin = UNKNOWN_ORIGIN,
  ) {}

  /** One page of a realm's organizations matching the search. */
  async list(realm: string, query: OrganizationsQuery): Promise<Organization[]> {
    return this.store.listOrganizations(realm, {
      ...filterOf(query),
      first: query.first ?? 0,
      max: Math.min(query.max ?? ORGS_PAGE.default, ORGS_PAGE.cap),
    });
  }

  /** How many organizations of a realm match the search. */
  async count(realm: string, query: { search?: string; q?: string }): Promise<number> {
    return this.store.countOrganizations(realm, filterOf(query));
  }

  /** One organization, or 404. */
  async get(realm: string, orgId: string): Promise<Organization> {
    const org = await this.store.getOrganization(realm, orgId);
    if (!org) throw notFound(`Organization ${orgId} does not exist.`);
    return org;
  }

  /** 404 unless the organization exists in the realm. */
  private async requireOrg(realm: string, orgId: string): Promise<void> {
    if (!(await this.store.getOrganization(realm, orgId))) throw notFound(`Organization ${orgId} does not exist.`);
  }

  /** One page of an organization's members, ordered by username; 404 for an unknown organization. */
  async listMembers(realm: string, orgId: string, query: MembersQuery): Promise<Member[]> {
    await this.requireOrg(realm, orgId);
    const users = await this.store.listMembers(realm, orgId, {
      searchTerms: searchTerms(query.search),
      excludeAdminAccounts: query.excludeAdminAccounts === true,
      first: query.first ?? 0,
      max: Math.min(query.max ?? MEMBERS_PAGE.default, MEMBERS_PAGE.cap),
    });
    return users.map(toMember);
  }

  /** How many members an organization has; 404 for an unknown organization. */
  async countMembers(realm: string, orgId: string, query: { excludeAdminAccounts?: boolean } = {}): Promise<number> {
    await this.requireOrg(realm, orgId);
    return this.store.countMembers(realm, orgId, { excludeAdminAccounts: query.excludeAdminAccounts === true });
  }

  /** Makes a user a member; a member already is one (idempotent, so retries are safe). 404 names what is missing. */
  async addMember(realm: string, orgId: string, userId: string): Promise<void> {
    if (!(await this.store.addMember(realm, orgId, userId, this.now(), this.origin))) {
      const org = await this.store.getOrganization(realm, orgId);
      throw notFound(org ? `User ${userId} does not exist.` : `Organization ${orgId} does not exist.`);
    }
  }

  /** Removes a member; an organization's default admin user stays (403), a non-member is 404. */
  async removeMember(realm: string, orgId: string, userId: string): Promise<void> {
    const user = await this.store.getUser(realm, userId);
    if (user && user.kind === 'org-admin' && user.username === orgAdminUsername(orgId)) {
      throw new ServiceError(403, 'forbidden', 'Cannot remove default organization user.');
    }
    if (!(await this.store.removeMember(realm, orgId, userId, this.origin))) {
      throw notFound(`User ${userId} is not a member of organization ${orgId}.`);
    }
  }

  /**
   * An admin portal link: a signed, single-organization, expiring token (`typ: "portal"`) for a
   * member (default: the organization's default admin user), in a link to the portal page.
   */
  async createPortalLink(realm: string, orgId: string, input: PortalLinkInput, by: PortalLinkIssuer): Promise<PortalLink> {
    for (const [field, value] of Object.entries({ userId: input.userId, baseUri: input.baseUri })) {
      if (value !== undefined && typeof value !== 'string') {
        throw new ServiceError(400, 'invalid_body', `${field} must be a single string.`);
      }
      // Form bodies do not pass the JSON parser's check, so it is repeated here.
      if (typeof value === 'string' && hasControlCharacter(value)) {
        throw new ServiceError(400, 'invalid_body', `${field} must not contain control characters (U+0000 to U+001F).`);
      }
    }
    const userId = input.userId === '' ? undefined : (input.userId as string | undefined);
    const baseUri = input.baseUri === '' ? undefined : (input.baseUri as string | undefined);
    if (baseUri !== undefined && !/^https?:\/\/[^\s]+$/i.test(baseUri)) {
      throw new ServiceError(400, 'invalid_body', `baseUri "${baseUri}" is not an absolute http or https URL.`);
    }
    if (!(await this.store.getOrganization(realm, orgId))) throw notFound(`Organization ${orgId} does not exist.`);
    let user: UserRecord | undefined;
    if (userId !== undefined) {
      if (!(await this.store.isMember(realm, orgId, userId))) {
        throw new ServiceError(400, 'invalid_request', `User ${userId} is not a member of organization ${orgId}.`);
      }
      user = await this.store.getUser(realm, userId);
    } else {
      user = await this.store.findUserByUsername(realm, orgAdminUsername(orgId));
      if (!user) {
        throw new ServiceError(400, 'invalid_request', `Organization ${orgId} has no default admin user; give userId.`);
      }
    }
    if (!user) throw notFound(`User ${userId} does not exist.`);
    const now = nowSeconds({ now: this.now });
    const token = signJwt(await signingRealm({ store: this.store }, { name: realm }), {
      iss: issuer(by.baseUrl, realm),
      sub: user.id,
      azp: by.clientId,
      typ: 'portal',
      org: orgId,
      iat: now,
      exp: now + this.portalLinkLifetimeSeconds,
    });
    const link = `${by.baseUrl}${orgPath(realm, orgId)}/portal?token=${encodeURIComponent(token)}`;
    // Without baseUri there is no caller page to go back to; the portal page itself is the one
    // page of this service the user can open (the realm's base path is not a page).
    return { user: user.id, link, redirect: baseUri ?? link };
  }
}
