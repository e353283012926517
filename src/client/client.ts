/**
 * {@link OrgAdminClient}: one method per operation of the Organization Administration Service
 * (docs/guides/service.md), typed with the representations of `src/api`. Methods build the path and
 * query, send the request through the client's dispatcher, onto which `./http` composed the
 * interceptors (retries, token, timeout), and read the answer; `./http` maps error answers to the
 * typed errors.
 */
import { Agent, type Dispatcher } from 'undici';
import type { TSchema } from '@sinclair/typebox';
import {
  BulkResultListSchema,
  CountSchema,
  DomainVerificationSchema,
  domainPath,
  domainsPath,
  domainVerifyPath,
  IdentityProviderListSchema,
  IdentityProviderMapperListSchema,
  IdentityProviderMapperSchema,
  IdentityProviderSchema,
  idpLinkPath,
  idpMapperPath,
  idpMappersPath,
  idpPath,
  idpsPath,
  idpUnlinkPath,
  OrganizationDomainListSchema,
  OrganizationDomainSchema,
  MEMBERS_PAGE,
  MemberInfoSchema,
  MemberListSchema,
  MemberSchema,
  dropNullFields,
  formatAttributeQuery,
  memberFromWire,
  ORGS_PAGE,
  OrganizationListSchema,
  OrganizationSchema,
  organizationFromWire,
  PortalLinkSchema,
  memberPath,
  memberRolesPath,
  membersCountPath,
  membersPath,
  orgPath,
  orgsCountPath,
  orgsMePath,
  orgsPath,
  portalLinkPath,
  realmFromBaseUrl,
  RoleListSchema,
  roleFromWire,
  rolePath,
  RoleSchema,
  rolesPath,
  roleUserPath,
  roleUsersPath,
  userOrganizationsPath,
  userPath,
  usersPath,
  type DomainVerification,
  type IdentityProviderInput,
  type IdentityProviderMapperInput,
  type IdentityProviderMapperRepresentation,
  type IdentityProviderRepresentation,
  type LinkIdentityProvider,
  type BulkResult,
  type Member,
  type MemberInfo,
  type Organization,
  type OrganizationDomain,
  type OrganizationInput,
  type PortalLink,
  type Role,
  EventListSchema,
  eventsPath,
  webhookPath,
  webhookResendPath,
  webhookSecretPath,
  webhookSendPath,
  webhookSendsPath,
  webhooksCountPath,
  webhooksPath,
  WebhookListSchema,
  WebhookSchema,
  WebhookSecretSchema,
  WebhookSendListSchema,
  WebhookSendSchema,
  type EventRepresentation,
  type WebhookRepresentation,
  type WebhookSendRepresentation,
} from '../api';
import { NotFoundError, UnexpectedResponseError } from './errors';
import { composeApiDispatcher, sendApiRequest, type ApiEndpoint, type ApiRequest, type ApiResponse } from './http';
import { DEFAULT_RETRY_SETTINGS } from './retry-policy';
import { defaultSleep, defaultTimer, type SleepFunction, type TimerFunction } from './transport';
import { checkAnswer } from './response-checks';
import type { TokenSource } from './token-source';

/** Per-call options of every {@link OrgAdminClient} method. */
export interface RequestOptions {
  /** Override the client's realm for this call. */
  realm?: string;
  /** Cancels the call, including retries and backoff waits; its reason is thrown as is. */
  signal?: AbortSignal;
}

/** Options of {@link OrgAdminClient}. */
export interface OrgAdminClientOptions {
  /** The service's base address, e.g. `https://acme.example.com` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /**
   * The realm (project name). @default the first DNS label of `baseUrl`'s host
   * (`https://acme.example.com` → `acme`); required when the host is an IP address or `localhost`.
   */
  realm?: string;
  /** Supplies bearer tokens, e.g. a {@link ClientCredentialsTokenSource}. */
  tokenSource: TokenSource;
  /** Sends the requests (a `MockAgent` in tests). @default a private keep-alive undici `Agent` */
  dispatcher?: Dispatcher;
  /** Limit of one attempt (headers and body), in milliseconds; a token request has the token source's own limit. @default 30000 */
  timeoutMs?: number;
  /** Retries of an idempotent request after a 429, 502, 503, 504 or network error. @default 3 */
  maxRetries?: number;
  /** First backoff ceiling; doubles per retry, full jitter. @default 250 */
  retryBaseDelayMs?: number;
  /** Cap of every wait between attempts, `Retry-After` included. @default 10000 */
  retryMaxDelayMs?: number;
  /** The `User-Agent` header. @default `orgadmin-client (node <version>)` */
  userAgent?: string;
  /** Waits between attempts. Tests inject one that records the waits. @default a timer */
  sleep?: SleepFunction;
  /** Random source of the backoff jitter, in [0, 1). @default Math.random */
  random?: () => number;
  /**
   * Times the limit of each attempt (`timeoutMs`): tests inject one they expire themselves instead
   * of waiting. A token request is timed by the token source's own `timer`. @default `setTimeout`
   */
  timer?: TimerFunction;
}

/** Query of {@link OrgAdminClient.listOrganizations}. */
export interface ListOrganizationsQuery {
  /** Case-insensitive substring of `name` or `displayName`. */
  search?: string;
  /** Exact attribute matches: a raw `key:value` string, or an object rendered by {@link formatAttributeQuery}. */
  q?: string | Record<string, string>;
  /** Offset. @default 0 */
  first?: number;
  /** Page size; the service cuts it to 100. @default 100 */
  max?: number;
}

/** Query of {@link OrgAdminClient.listMembers}. */
export interface ListMembersQuery {
  /** Comma-separated terms matching username, email, first or last name. */
  search?: string;
  /** Offset. @default 0 */
  first?: number;
  /** Page size; the service caps it at 1000. @default 100 */
  max?: number;
  /** Leave out the organization's default admin user. */
  excludeAdminAccounts?: boolean;
  /** Fill each member's `organizations`. */
  includeOrgs?: boolean;
}

/** Query of {@link OrgAdminClient.findUsers}. */
export interface FindUsersQuery {
  /** Username (substring unless `exact`). */
  username?: string;
  /** Email (substring unless `exact`). */
  email?: string;
  /** Free-text search over username, email, first and last name. */
  search?: string;
  /** Match `username` and `email` exactly. */
  exact?: boolean;
  /** Offset. */
  first?: number;
  /** Page size. */
  max?: number;
}

/** A role to create: its name and, optionally, its description. */
export interface RoleInput {
  /** Unique in the organization, 1–255 characters, not only whitespace; compared exactly. */
  name: string;
  /** @default none */
  description?: string | null;
}

/**
 * What one role of a bulk request (create, delete, grant or revoke many) came to, in the order of
 * the request: `ok` when the service did it (`status` 201 created or granted, 204 deleted or
 * revoked), otherwise `error` says why not (`status` 400).
 */
export interface RoleResult {
  /** The role's name, as asked. */
  name: string;
  /** The entry's own status. */
  status: number;
  /** True for a 2xx entry. */
  ok: boolean;
  /** Why the service refused this role; null when `ok`. */
  error: string | null;
  /** The role concerned, as the service answered it; null when refused (or only named). */
  role: Role | null;
}

/** Query of {@link OrgAdminClient.listEvents}: the audit log's filters (docs/guides/service.md). */
export interface ListEventsQuery {
  /** Event types, each exact or with `*` (`admin.ORGANIZATION-*`, `access.LOGIN_ERROR`); any may match. */
  types?: readonly string[];
  /** Only events whose resource path starts with this (`orgs/{id}`). */
  resourcePath?: string;
  /** Only events of this actor: an API key's client id or a user id. */
  actor?: string;
  /** Only events at or after this time: a Date, milliseconds since the epoch, or an ISO 8601 date or date-time. */
  from?: Date | number | string;
  /** Only events before this time (a date alone: the whole of that day). */
  to?: Date | number | string;
  /** Offset. @default 0 */
  first?: number;
  /** Page size; the service caps it at 1000. @default 100 */
  max?: number;
}

/** A webhook to create, or the changes of an update (absent fields keep their values on update). */
export interface WebhookInput {
  /** Where deliveries are posted (https; loopback and private addresses only when the operator allows them). */
  url: string;
  /** @default true */
  enabled?: boolean;
  /** Event-type filters (`*`, `admin.*`, `admin.ORGANIZATION-*`, `access.LOGIN_ERROR`). @default ["*"] on create */
  eventTypes?: readonly string[];
  /** The signing secret. @default a generated one on create (read it with {@link OrgAdminClient.getWebhookSecret}) */
  secret?: string;
}

/** A time of the audit log's query as sent. */
const eventTime = (time: Date | number | string | undefined): string | undefined =>
  time instanceof Date ? String(time.getTime()) : time === undefined ? undefined : String(time);

/** Renders attribute matches as `q` (the one grammar of `src/api/attribute-query.ts`); part of the SDK's API. */
export { formatAttributeQuery } from '../api';

/** Throws a TypeError unless `value` is a non-empty string (an id that becomes a path segment). */
function requireId(name: string, value: unknown): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  }
}

/** Throws a TypeError unless `value` is undefined or an integer >= `min`. */
function requireInteger(name: string, value: unknown, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new TypeError(`${name} must be an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
}

/** Throws a TypeError unless `value` is a finite number >= `min` (options of the constructor). */
function requireNumberOption(name: string, value: number | undefined, min: number, integer = false): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new TypeError(`OrgAdminClient: ${name} must be ${integer ? 'an integer' : 'a number'} >= ${min}, got ${value}`);
  }
}

/**
 * A typed client of the Organization Administration Service.
 *
 * @example
 * const client = new OrgAdminClient({
 *   baseUrl: 'https://acme.example.com',
 *   tokenSource: new ClientCredentialsTokenSource({ baseUrl: 'https://acme.example.com', clientId, clientSecret }),
 * });
 * const id = await client.createOrganization({ name: 'globex' });
 * await client.addMember(id, userId);
 * await client.close();
 */
export class OrgAdminClient {
  /** The base address, without a trailing slash. */
  readonly baseUrl: string;
  /** The realm every call uses unless its options name another. */
  readonly realm: string;
  /** The dispatcher with the SDK's interceptors composed onto it. */
  private readonly dispatcher: Dispatcher;
  private readonly endpoint: ApiEndpoint;
  /** Our own agent, closed by {@link close}; undefined when the caller passed a dispatcher. */
  private readonly ownAgent: Agent | undefined;

  /** @param options where the service is and how to authenticate; see {@link OrgAdminClientOptions} */
  constructor(options: OrgAdminClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError(`OrgAdminClient: baseUrl ${JSON.stringify(options.baseUrl)} is not a URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError(`OrgAdminClient: baseUrl must be http or https, got ${url.protocol}`);
    }
    if (url.search || url.hash) throw new TypeError('OrgAdminClient: baseUrl must not have a query or fragment');
    const realm = options.realm ?? realmFromBaseUrl(options.baseUrl);
    if (!realm) {
      throw new TypeError(
        `OrgAdminClient: no realm: baseUrl ${url.origin} has no DNS label to take it from (an IP address or a ` +
          'single-label host such as localhost); pass options.realm',
      );
    }
    if (!options.tokenSource) throw new TypeError('OrgAdminClient: tokenSource is required');
    requireNumberOption('timeoutMs', options.timeoutMs, 1);
    requireNumberOption('maxRetries', options.maxRetries, 0, true);
    requireNumberOption('retryBaseDelayMs', options.retryBaseDelayMs, 0);
    requireNumberOption('retryMaxDelayMs', options.retryMaxDelayMs, 0);

    this.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    this.realm = realm;
    this.ownAgent = options.dispatcher ? undefined : new Agent({ keepAliveTimeout: 10_000 });
    this.endpoint = {
      origin: url.origin,
      prefix: url.pathname.replace(/\/+$/, ''),
      userAgent: options.userAgent ?? `orgadmin-client (node ${process.version})`,
    };
    this.dispatcher = composeApiDispatcher(options.dispatcher ?? this.ownAgent!, {
      tokenSource: options.tokenSource,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? DEFAULT_RETRY_SETTINGS.maxRetries,
      retryBaseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_SETTINGS.retryBaseDelayMs,
      retryMaxDelayMs: options.retryMaxDelayMs ?? DEFAULT_RETRY_SETTINGS.retryMaxDelayMs,
      sleep: options.sleep ?? defaultSleep,
      random: options.random ?? Math.random,
      timer: options.timer ?? defaultTimer,
    });
  }

  /** "Get organizations": one page, sorted by name. */
  async listOrganizations(query: ListOrganizationsQuery = {}, options?: RequestOptions): Promise<Organization[]> {
    requireInteger('first', query.first, 0);
    requireInteger('max', query.max, 0);
    const realm = this.realmOf(options);
    const response = await this.send({
      method: 'GET',
      path: orgsPath(realm),
      query: { search: query.search, q: renderQ(query.q), first: query.first, max: query.max },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', orgsPath(realm), OrganizationListSchema, 'a JSON array of organizations').map(organizationFromWire);
  }

  /** Every organization matching the query: pages of 100 until a short page. */
  async listAllOrganizations(
    query: { search?: string; q?: string | Record<string, string> } = {},
    options?: RequestOptions,
  ): Promise<Organization[]> {
    const path = orgsPath(this.realmOf(options));
    return collectPages(path, ORGS_PAGE.cap, (first, max) => this.listOrganizations({ ...query, first, max }, options));
  }

  /** "Get organizations count". */
  async countOrganizations(
    query: { search?: string; q?: string | Record<string, string> } = {},
    options?: RequestOptions,
  ): Promise<number> {
    const realm = this.realmOf(options);
    const path = orgsCountPath(realm);
    const response = await this.send({
      method: 'GET',
      path,
      query: { search: query.search, q: renderQ(query.q) },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', path, CountSchema, 'a non-negative integer');
  }

  /**
   * "Create a new organization". Returns the new organization's id, read from `Location`.
   *
   * With a client-chosen `input.id` the create is repeatable: a timeout or a dropped connection is
   * retried, and a retry that meets the first attempt's organization is answered 409 for that id
   * (check with {@link getOrganization} whether it is yours). Without an id, only answers that
   * prove the service did nothing (429, 503 with `Retry-After`, a refused connection) are retried,
   * since a retry could create the organization twice; see `./retry-policy`.
   */
  async createOrganization(input: OrganizationInput, options?: RequestOptions): Promise<string> {
    if (typeof input !== 'object' || input === null) throw new TypeError('createOrganization: input must be an object');
    const realm = this.realmOf(options);
    const path = orgsPath(realm);
    const repeatable = typeof input.id === 'string' && input.id !== '';
    const response = await this.send({ method: 'POST', path, json: input, realm, signal: options?.signal, repeatable });
    return idFromLocation(response, 'POST', path);
  }

  /** "Get organization". @throws NotFoundError when it does not exist */
  async getOrganization(orgId: string, options?: RequestOptions): Promise<Organization> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = orgPath(realm, orgId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return organizationFromWire(readAnswer(response, 'GET', path, OrganizationSchema, 'an organization'));
  }

  /**
   * "Update organization": replaces `name`, `displayName`, `url` and `attributes` as given (absent
   * means cleared); `domains` only when present.
   */
  async updateOrganization(orgId: string, input: OrganizationInput, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    if (typeof input !== 'object' || input === null) throw new TypeError('updateOrganization: input must be an object');
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: orgPath(realm, orgId), json: input, realm, signal: options?.signal });
  }

  /** "Delete the organization" (and its default admin user). */
  async deleteOrganization(orgId: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: orgPath(realm, orgId), realm, signal: options?.signal });
  }

  /** "Create admin portal link" for the organization, acting for `userId` (default: its admin user). */
  async createPortalLink(
    orgId: string,
    input: { userId?: string; baseUri?: string } = {},
    options?: RequestOptions,
  ): Promise<PortalLink> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = portalLinkPath(realm, orgId);
    const response = await this.send({
      method: 'POST',
      path,
      form: { userId: input.userId, baseUri: input.baseUri },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'POST', path, PortalLinkSchema, 'a portal link');
  }

  /** "Get member info": the organizations the token's subject belongs to, keyed by id. */
  async getMemberInfo(options?: RequestOptions): Promise<MemberInfo> {
    const realm = this.realmOf(options);
    const path = orgsMePath(realm);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, MemberInfoSchema, 'an object of organizations keyed by id');
  }

  /** "Get organization memberships": one page, in membership order. */
  async listMembers(orgId: string, query: ListMembersQuery = {}, options?: RequestOptions): Promise<Member[]> {
    requireId('orgId', orgId);
    requireInteger('first', query.first, 0);
    requireInteger('max', query.max, 0);
    const realm = this.realmOf(options);
    const path = membersPath(realm, orgId);
    const response = await this.send({
      method: 'GET',
      path,
      query: {
        search: query.search,
        first: query.first,
        max: query.max,
        excludeAdminAccounts: query.excludeAdminAccounts,
        includeOrgs: query.includeOrgs,
      },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', path, MemberListSchema, 'a JSON array of members').map(memberFromWire);
  }

  /** Every member of the organization: pages of `pageSize` (default 100, at most 1000) until a short page. */
  async listAllMembers(
    orgId: string,
    query: { search?: string; excludeAdminAccounts?: boolean; includeOrgs?: boolean; pageSize?: number } = {},
    options?: RequestOptions,
  ): Promise<Member[]> {
    requireId('orgId', orgId);
    requireInteger('pageSize', query.pageSize, 1);
    const { pageSize = MEMBERS_PAGE.default, ...rest } = query;
    // Above the service's cap a page would always look short and paging would stop early.
    const size = Math.min(pageSize, MEMBERS_PAGE.cap);
    return collectPages(membersPath(this.realmOf(options), orgId), size, (first, max) => this.listMembers(orgId, { ...rest, first, max }, options));
  }

  /** "Get organization members count". */
  async countMembers(orgId: string, query: { excludeAdminAccounts?: boolean } = {}, options?: RequestOptions): Promise<number> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = membersCountPath(realm, orgId);
    const response = await this.send({
      method: 'GET',
      path,
      query: { excludeAdminAccounts: query.excludeAdminAccounts },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', path, CountSchema, 'a non-negative integer');
  }

  /**
   * "Check organization membership": true on 204, false on 404 (not a member, or no such user or
   * organization). A missing realm still throws {@link NotFoundError}: that is a setup mistake,
   * not an answer.
   */
  async isMember(orgId: string, userId: string, options?: RequestOptions): Promise<boolean> {
    requireId('orgId', orgId);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    return this.answersYes(() => this.send({ method: 'GET', path: memberPath(realm, orgId, userId), realm, signal: options?.signal }));
  }

  /** "Add organization member". Idempotent (PUT), so it is retried like a read. */
  async addMember(orgId: string, userId: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: memberPath(realm, orgId, userId), realm, signal: options?.signal });
  }

  /** "Remove organization member". @throws ForbiddenError for the organization's default admin user */
  async removeMember(orgId: string, userId: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: memberPath(realm, orgId, userId), realm, signal: options?.signal });
  }

  /** User lookup (`view-users`), e.g. by email, to turn an address into a user id. */
  async findUsers(query: FindUsersQuery, options?: RequestOptions): Promise<Member[]> {
    if (typeof query !== 'object' || query === null) throw new TypeError('findUsers: query must be an object');
    requireInteger('first', query.first, 0);
    requireInteger('max', query.max, 0);
    const realm = this.realmOf(options);
    const path = usersPath(realm);
    const response = await this.send({
      method: 'GET',
      path,
      query: {
        username: query.username,
        email: query.email,
        search: query.search,
        exact: query.exact,
        first: query.first,
        max: query.max,
      },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', path, MemberListSchema, 'a JSON array of members').map(memberFromWire);
  }

  // Organization roles ---------------------------------------------------------------------------

  /** "Get roles for this organization": every role (default roles included), ordered by name. */
  async listRoles(orgId: string, options?: RequestOptions): Promise<Role[]> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = rolesPath(realm, orgId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, RoleListSchema, 'a JSON array of roles').map(roleFromWire);
  }

  /** "Get role for this organization by name". @throws NotFoundError when it has no such role */
  async getRole(orgId: string, name: string, options?: RequestOptions): Promise<Role> {
    requireId('orgId', orgId);
    requireId('name', name);
    const realm = this.realmOf(options);
    const path = rolePath(realm, orgId, name);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return roleFromWire(readAnswer(response, 'GET', path, RoleSchema, 'a role'));
  }

  /**
   * "Create a new role for this organization". Not retried after a timeout or a dropped
   * connection (the first attempt may have created it, and a second would answer 409): ask
   * {@link getRole} then. @throws ConflictError when the organization has a role of that name
   */
  async createRole(orgId: string, input: RoleInput, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireRoleInput(input);
    const realm = this.realmOf(options);
    await this.send({ method: 'POST', path: rolesPath(realm, orgId), json: roleBody(input), realm, signal: options?.signal });
  }

  /**
   * "Create new roles for this organization" (`PUT`, one transaction): one result per role, in
   * order. A name the organization has is refused in its entry. PUT is retried like every
   * idempotent request: after a retry, an entry may report as taken a role the first attempt created.
   */
  async createRoles(orgId: string, roles: readonly RoleInput[], options?: RequestOptions): Promise<RoleResult[]> {
    requireId('orgId', orgId);
    if (!Array.isArray(roles)) throw new TypeError('createRoles: roles must be an array');
    roles.forEach(requireRoleInput);
    const realm = this.realmOf(options);
    const path = rolesPath(realm, orgId);
    const response = await this.send({ method: 'PUT', path, json: roles.map(roleBody), realm, signal: options?.signal });
    return readRoleResults(response, 'PUT', path, roles.map((role) => role.name));
  }

  /** "Update role for this organization": replaces the description (null or absent clears it); a role cannot be renamed. */
  async updateRole(orgId: string, name: string, input: { description?: string | null }, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('name', name);
    if (typeof input !== 'object' || input === null) throw new TypeError('updateRole: input must be an object');
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: rolePath(realm, orgId, name), json: { name, description: input.description ?? null }, realm, signal: options?.signal });
  }

  /** "Delete this organization role" with its grants. @throws BadRequestError for a default role */
  async deleteRole(orgId: string, name: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('name', name);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: rolePath(realm, orgId, name), realm, signal: options?.signal });
  }

  /**
   * "Delete this organization roles" (`PATCH`): one result per name, in order; a role that is not
   * there counts as deleted, a default role is refused in its entry. Repeatable, so retried like a PUT.
   */
  async deleteRoles(orgId: string, names: readonly string[], options?: RequestOptions): Promise<RoleResult[]> {
    return this.bulk('PATCH', (realm) => rolesPath(realm, orgId), orgId, names, 'deleteRoles', options);
  }

  /** "Get users with this organization role", in the order they were granted it. */
  async listRoleUsers(orgId: string, name: string, query: { excludeAdminAccounts?: boolean } = {}, options?: RequestOptions): Promise<Member[]> {
    requireId('orgId', orgId);
    requireId('name', name);
    const realm = this.realmOf(options);
    const path = roleUsersPath(realm, orgId, name);
    const response = await this.send({ method: 'GET', path, query: { excludeAdminAccounts: query.excludeAdminAccounts }, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, MemberListSchema, 'a JSON array of users').map(memberFromWire);
  }

  /**
   * "Check if a user has an organization role": true on 204, false on 404 (not granted, or no such
   * user, role or organization). A missing realm still throws {@link NotFoundError}.
   */
  async hasRole(orgId: string, name: string, userId: string, options?: RequestOptions): Promise<boolean> {
    requireId('orgId', orgId);
    requireId('name', name);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    return this.answersYes(() => this.send({ method: 'GET', path: roleUserPath(realm, orgId, name, userId), realm, signal: options?.signal }));
  }

  /**
   * "Grant a user an organization role". Idempotent (PUT). @throws BadRequestError (`error`
   * `not_member`) when the user is not a member of the organization
   */
  async grantRole(orgId: string, name: string, userId: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('name', name);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: roleUserPath(realm, orgId, name, userId), realm, signal: options?.signal });
  }

  /** "Revoke an organization role from a user". @throws NotFoundError when the user does not hold it */
  async revokeRole(orgId: string, name: string, userId: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('name', name);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: roleUserPath(realm, orgId, name, userId), realm, signal: options?.signal });
  }

  /** "List organizations for the given user", ordered by name. @throws NotFoundError for an unknown user */
  async listUserOrganizations(userId: string, options?: RequestOptions): Promise<Organization[]> {
    requireId('userId', userId);
    const realm = this.realmOf(options);
    const path = userOrganizationsPath(realm, userId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, OrganizationListSchema, 'a JSON array of organizations').map(organizationFromWire);
  }

  /**
   * "List organization roles for the given user and org": the member's roles, ordered by name, in
   * one request. @throws NotFoundError when the user is not a member (or the organization does not exist)
   */
  async listMemberRoles(orgId: string, userId: string, options?: RequestOptions): Promise<Role[]> {
    requireId('orgId', orgId);
    requireId('userId', userId);
    const realm = this.realmOf(options);
    const path = memberRolesPath(realm, userId, orgId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, RoleListSchema, 'a JSON array of roles').map(roleFromWire);
  }

  /**
   * "Grant a user organization roles" (`PUT`, one transaction): one result per name, in order; a
   * role the organization lacks is refused in its entry, a held role is granted again (201).
   * Idempotent. @throws BadRequestError (`not_member`) when the user is not a member
   */
  async grantRoles(orgId: string, userId: string, names: readonly string[], options?: RequestOptions): Promise<RoleResult[]> {
    requireId('userId', userId);
    return this.bulk('PUT', (realm) => memberRolesPath(realm, userId, orgId), orgId, names, 'grantRoles', options);
  }

  /**
   * "Revoke organization roles from a user" (`PATCH`, one transaction): one result per name; a role
   * not held is revoked again (204). Repeatable, so retried like a PUT. @throws BadRequestError
   * (`not_member`) when the user is not a member
   */
  async revokeRoles(orgId: string, userId: string, names: readonly string[], options?: RequestOptions): Promise<RoleResult[]> {
    requireId('userId', userId);
    return this.bulk('PATCH', (realm) => memberRolesPath(realm, userId, orgId), orgId, names, 'revokeRoles', options);
  }

  /** A bulk request whose body is a list of role names: sends it and reads one result per name. */
  private async bulk(
    method: 'PUT' | 'PATCH',
    pathOf: (realm: string) => string,
    orgId: string,
    names: readonly string[],
    what: string,
    options: RequestOptions | undefined,
  ): Promise<RoleResult[]> {
    requireId('orgId', orgId);
    if (!Array.isArray(names)) throw new TypeError(`${what}: names must be an array`);
    names.forEach((name, index) => requireId(`names[${index}]`, name));
    const realm = this.realmOf(options);
    const path = pathOf(realm);
    // PATCH is not idempotent by definition; these two are (a repeat changes nothing more).
    const response = await this.send({ method, path, json: names.map((name) => ({ name })), realm, signal: options?.signal, repeatable: true });
    return readRoleResults(response, method, path, names);
  }

  /** True when the request answers 2xx, false on a 404 that is not about the realm. */
  private async answersYes(request: () => Promise<ApiResponse>): Promise<boolean> {
    try {
      await request();
      return true;
    } catch (error) {
      if (error instanceof NotFoundError && error.error !== 'realm_not_found' && error.error !== 'realm_mismatch') return false;
      throw error;
    }
  }

  /**
   * One user by id (Keycloak's "get user", `view-users`).
   * @throws NotFoundError when the realm has no user with that id
   */
  async getUser(userId: string, options?: RequestOptions): Promise<Member> {
    requireId('userId', userId);
    const realm = this.realmOf(options);
    const path = userPath(realm, userId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return memberFromWire(readAnswer(response, 'GET', path, MemberSchema, 'a user'));
  }

  /** "Get organization domains": each of the organization's domains with its verification state and TXT record. */
  async listDomains(orgId: string, options?: RequestOptions): Promise<OrganizationDomain[]> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = domainsPath(realm, orgId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, OrganizationDomainListSchema, 'a JSON array of domains');
  }

  /** "Get organization domain". @throws NotFoundError when the domain is not in the organization's list */
  async getDomain(orgId: string, domain: string, options?: RequestOptions): Promise<OrganizationDomain> {
    requireId('orgId', orgId);
    requireId('domain', domain);
    const realm = this.realmOf(options);
    const path = domainPath(realm, orgId, domain);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, OrganizationDomainSchema, 'a domain');
  }

  /**
   * "Verify organization domain": the service looks the TXT record up now. Answers the domain with
   * `verified`, and what the lookup found (`verification`). A verification changes nothing but the
   * domain's state, so it is retried like a read.
   * @throws ConflictError when another organization of the realm verified the domain
   */
  async verifyDomain(orgId: string, domain: string, options?: RequestOptions): Promise<DomainVerification> {
    requireId('orgId', orgId);
    requireId('domain', domain);
    const realm = this.realmOf(options);
    const path = domainVerifyPath(realm, orgId, domain);
    const response = await this.send({ method: 'POST', path, realm, signal: options?.signal, repeatable: true });
    return readAnswer(response, 'POST', path, DomainVerificationSchema, 'a domain verification');
  }

  /** "Get identity providers" of the organization (client secrets masked). */
  async listIdentityProviders(orgId: string, options?: RequestOptions): Promise<IdentityProviderRepresentation[]> {
    requireId('orgId', orgId);
    const realm = this.realmOf(options);
    const path = idpsPath(realm, orgId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, IdentityProviderListSchema, 'a JSON array of identity providers');
  }

  /** "Create identity provider" owned by the organization; answers its alias. @throws ConflictError when the realm has the alias */
  async createIdentityProvider(orgId: string, input: IdentityProviderInput, options?: RequestOptions): Promise<string> {
    requireId('orgId', orgId);
    if (typeof input !== 'object' || input === null) throw new TypeError('createIdentityProvider: input must be an object');
    const realm = this.realmOf(options);
    const path = idpsPath(realm, orgId);
    const response = await this.send({ method: 'POST', path, json: input, realm, signal: options?.signal });
    return idFromLocation(response, 'POST', path);
  }

  /** "Get identity provider" (client secret masked). @throws NotFoundError when the organization does not own it */
  async getIdentityProvider(orgId: string, alias: string, options?: RequestOptions): Promise<IdentityProviderRepresentation> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    const realm = this.realmOf(options);
    const path = idpPath(realm, orgId, alias);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, IdentityProviderSchema, 'an identity provider');
  }

  /** "Update identity provider": replaces its settings; `config.clientSecret` as the mask keeps the stored secret. */
  async updateIdentityProvider(orgId: string, alias: string, input: IdentityProviderInput, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    if (typeof input !== 'object' || input === null) throw new TypeError('updateIdentityProvider: input must be an object');
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: idpPath(realm, orgId, alias), json: input, realm, signal: options?.signal });
  }

  /** "Delete identity provider" with its mappers and links to users. */
  async deleteIdentityProvider(orgId: string, alias: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: idpPath(realm, orgId, alias), realm, signal: options?.signal });
  }

  /** "Link identity provider": gives an unowned provider of the realm to the organization; answers its alias. @throws ConflictError while another organization owns it */
  async linkIdentityProvider(orgId: string, input: LinkIdentityProvider, options?: RequestOptions): Promise<string> {
    requireId('orgId', orgId);
    if (typeof input !== 'object' || input === null) throw new TypeError('linkIdentityProvider: input must be an object');
    const realm = this.realmOf(options);
    const path = idpLinkPath(realm, orgId);
    const response = await this.send({ method: 'POST', path, json: input, realm, signal: options?.signal });
    return idFromLocation(response, 'POST', path);
  }

  /** "Unlink identity provider": the provider stays in the realm, owned by no organization. */
  async unlinkIdentityProvider(orgId: string, alias: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    const realm = this.realmOf(options);
    await this.send({ method: 'POST', path: idpUnlinkPath(realm, orgId, alias), realm, signal: options?.signal });
  }

  /** "Get identity provider mappers". */
  async listIdentityProviderMappers(orgId: string, alias: string, options?: RequestOptions): Promise<IdentityProviderMapperRepresentation[]> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    const realm = this.realmOf(options);
    const path = idpMappersPath(realm, orgId, alias);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, IdentityProviderMapperListSchema, 'a JSON array of mappers');
  }

  /** "Add identity provider mapper"; answers its id. */
  async createIdentityProviderMapper(orgId: string, alias: string, input: IdentityProviderMapperInput, options?: RequestOptions): Promise<string> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    if (typeof input !== 'object' || input === null) throw new TypeError('createIdentityProviderMapper: input must be an object');
    const realm = this.realmOf(options);
    const path = idpMappersPath(realm, orgId, alias);
    const response = await this.send({ method: 'POST', path, json: input, realm, signal: options?.signal });
    return idFromLocation(response, 'POST', path);
  }

  /** "Get identity provider mapper". */
  async getIdentityProviderMapper(orgId: string, alias: string, id: string, options?: RequestOptions): Promise<IdentityProviderMapperRepresentation> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    requireId('id', id);
    const realm = this.realmOf(options);
    const path = idpMapperPath(realm, orgId, alias, id);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, IdentityProviderMapperSchema, 'a mapper');
  }

  /** "Update identity provider mapper". */
  async updateIdentityProviderMapper(orgId: string, alias: string, id: string, input: IdentityProviderMapperInput, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    requireId('id', id);
    if (typeof input !== 'object' || input === null) throw new TypeError('updateIdentityProviderMapper: input must be an object');
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: idpMapperPath(realm, orgId, alias, id), json: input, realm, signal: options?.signal });
  }

  /** "Delete identity provider mapper". */
  async deleteIdentityProviderMapper(orgId: string, alias: string, id: string, options?: RequestOptions): Promise<void> {
    requireId('orgId', orgId);
    requireId('alias', alias);
    requireId('id', id);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: idpMapperPath(realm, orgId, alias, id), realm, signal: options?.signal });
  }

  /** The realm's audit log (`view-events`): a page of admin and access events, newest first. */
  async listEvents(query: ListEventsQuery = {}, options?: RequestOptions): Promise<EventRepresentation[]> {
    requireInteger('first', query.first, 0);
    requireInteger('max', query.max, 0);
    const realm = this.realmOf(options);
    const path = eventsPath(realm);
    const response = await this.send({
      method: 'GET',
      path,
      query: {
        type: query.types === undefined || query.types.length === 0 ? undefined : query.types.join(','),
        resourcePath: query.resourcePath,
        actor: query.actor,
        dateFrom: eventTime(query.from),
        dateTo: eventTime(query.to),
        first: query.first,
        max: query.max,
      },
      realm,
      signal: options?.signal,
    });
    return readAnswer(response, 'GET', path, EventListSchema, 'a JSON array of events');
  }

  /** A page of the realm's webhooks, oldest first (`view-events`). */
  async listWebhooks(page: { first?: number; max?: number } = {}, options?: RequestOptions): Promise<WebhookRepresentation[]> {
    requireInteger('first', page.first, 0);
    requireInteger('max', page.max, 0);
    const realm = this.realmOf(options);
    const path = webhooksPath(realm);
    const response = await this.send({ method: 'GET', path, query: { first: page.first, max: page.max }, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, WebhookListSchema, 'a JSON array of webhooks');
  }

  /** How many webhooks the realm has (`view-events`). */
  async countWebhooks(options?: RequestOptions): Promise<number> {
    const realm = this.realmOf(options);
    const path = webhooksCountPath(realm);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, CountSchema, 'a non-negative integer');
  }

  /**
   * Creates a webhook (`manage-events`); returns its id, read from `Location`. Not retried after a
   * timeout, since a retry could create it twice.
   */
  async createWebhook(input: WebhookInput, options?: RequestOptions): Promise<string> {
    if (typeof input !== 'object' || input === null) throw new TypeError('createWebhook: input must be an object');
    const realm = this.realmOf(options);
    const path = webhooksPath(realm);
    const response = await this.send({ method: 'POST', path, json: input, realm, signal: options?.signal });
    return idFromLocation(response, 'POST', path);
  }

  /** One webhook, without its secret (`view-events`). @throws NotFoundError when it does not exist */
  async getWebhook(webhookId: string, options?: RequestOptions): Promise<WebhookRepresentation> {
    requireId('webhookId', webhookId);
    const realm = this.realmOf(options);
    const path = webhookPath(realm, webhookId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, WebhookSchema, 'a webhook');
  }

  /** Changes a webhook (`manage-events`): `url` as given; absent `enabled`, `eventTypes` and `secret` stay as they are. */
  async updateWebhook(webhookId: string, input: WebhookInput, options?: RequestOptions): Promise<void> {
    requireId('webhookId', webhookId);
    if (typeof input !== 'object' || input === null) throw new TypeError('updateWebhook: input must be an object');
    const realm = this.realmOf(options);
    await this.send({ method: 'PUT', path: webhookPath(realm, webhookId), json: input, realm, signal: options?.signal });
  }

  /** Deletes a webhook and its delivery log (`manage-events`). */
  async deleteWebhook(webhookId: string, options?: RequestOptions): Promise<void> {
    requireId('webhookId', webhookId);
    const realm = this.realmOf(options);
    await this.send({ method: 'DELETE', path: webhookPath(realm, webhookId), realm, signal: options?.signal });
  }

  /** A webhook's signing secret (`manage-events`), to verify deliveries with `verifyWebhookSignature`. */
  async getWebhookSecret(webhookId: string, options?: RequestOptions): Promise<string> {
    requireId('webhookId', webhookId);
    const realm = this.realmOf(options);
    const path = webhookSecretPath(realm, webhookId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, WebhookSecretSchema, 'a secret').value;
  }

  /** A page of a webhook's delivery log, newest first (`view-events`). */
  async listWebhookSends(
    webhookId: string,
    page: { first?: number; max?: number } = {},
    options?: RequestOptions,
  ): Promise<WebhookSendRepresentation[]> {
    requireId('webhookId', webhookId);
    requireInteger('first', page.first, 0);
    requireInteger('max', page.max, 0);
    const realm = this.realmOf(options);
    const path = webhookSendsPath(realm, webhookId);
    const response = await this.send({ method: 'GET', path, query: { first: page.first, max: page.max }, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, WebhookSendListSchema, 'a JSON array of sends');
  }

  /** One send of a webhook with the delivered body as `payload` (`view-events`). */
  async getWebhookSend(webhookId: string, sendId: string, options?: RequestOptions): Promise<WebhookSendRepresentation> {
    requireId('webhookId', webhookId);
    requireId('sendId', sendId);
    const realm = this.realmOf(options);
    const path = webhookSendPath(realm, webhookId, sendId);
    const response = await this.send({ method: 'GET', path, realm, signal: options?.signal });
    return readAnswer(response, 'GET', path, WebhookSendSchema, 'a send');
  }

  /** Delivers a send again: a new round of retries, the same send id and event id (`manage-events`). */
  async resendWebhookSend(webhookId: string, sendId: string, options?: RequestOptions): Promise<void> {
    requireId('webhookId', webhookId);
    requireId('sendId', sendId);
    const realm = this.realmOf(options);
    // Repeatable: a second resend of the same send only restarts its round of retries.
    await this.send({ method: 'POST', path: webhookResendPath(realm, webhookId, sendId), realm, signal: options?.signal, repeatable: true });
  }

  /** Closes the client's own connection pool. A dispatcher passed in is left open (it is the caller's). */
  async close(): Promise<void> {
    if (this.ownAgent && !this.ownAgent.closed) await this.ownAgent.close();
  }

  private realmOf(options: RequestOptions | undefined): string {
    const realm = options?.realm ?? this.realm;
    requireId('realm', realm);
    return realm;
  }

  private send(request: ApiRequest): Promise<ApiResponse> {
    return sendApiRequest(this.dispatcher, this.endpoint, request);
  }
}

/** Throws a TypeError unless `input` is a role to create (a non-empty name; a string or null description). */
function requireRoleInput(input: RoleInput): void {
  if (typeof input !== 'object' || input === null) throw new TypeError('a role must be an object with a name');
  requireId('name', input.name);
  if (input.description !== undefined && input.description !== null && typeof input.description !== 'string') {
    throw new TypeError(`description must be a string or null, got ${JSON.stringify(input.description)}`);
  }
}

/** The wire body of a role to create (the vendor's `OrganizationRoleRepresentation`). */
function roleBody(input: RoleInput): { name: string; description?: string } {
  return input.description === undefined || input.description === null ? { name: input.name } : { name: input.name, description: input.description };
}

/**
 * The results of a bulk answer, one per name asked, in order. An answer with another number of
 * entries than names asked cannot be matched to them, so it is refused: a partial answer is never
 * read as a complete one. Entries sent with `null` fields (as the hosted service does) are read as
 * if those were left out.
 */
function readRoleResults(response: ApiResponse, method: string, path: string, names: readonly string[]): RoleResult[] {
  const raw = parseJson(response, method, path);
  const cleaned = Array.isArray(raw)
    ? raw.map((entry) => (entry !== null && typeof entry === 'object' ? cleanBulkEntry(entry as Record<string, unknown>) : entry))
    : raw;
  const entries = checkAnswer(BulkResultListSchema, cleaned, 'a JSON array of bulk results', { status: response.status, method, path });
  if (entries.length !== names.length) {
    throw new UnexpectedResponseError({
      status: response.status,
      method,
      path,
      reason: `the answer has ${entries.length} entries for ${names.length} roles asked`,
    });
  }
  return entries.map((entry: BulkResult, index) => ({
    name: names[index]!,
    status: entry.status,
    ok: entry.status >= 200 && entry.status < 300,
    error: entry.error ?? null,
    role: entry.item?.id !== undefined && entry.item.name !== undefined ? roleFromWire({ id: entry.item.id, name: entry.item.name, ...(entry.item.description !== undefined ? { description: entry.item.description } : {}) }) : null,
  }));
}

/** One bulk entry with its `null` fields (and its role's) left out. */
function cleanBulkEntry(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (value === null) continue;
    out[key] = key === 'item' && typeof value === 'object' ? Object.fromEntries(Object.entries(value).filter(([, field]) => field !== null)) : value;
  }
  return out;
}

/** `q` as sent: a string as given, an object rendered. */
function renderQ(q: string | Record<string, string> | undefined): string | undefined {
  if (q === undefined || typeof q === 'string') return q;
  const rendered = formatAttributeQuery(q);
  return rendered === '' ? undefined : rendered;
}

/**
 * Fetches pages of `size` until one comes back shorter. Stops with an error if the service
 * repeats a page (it ignores `first`), which would otherwise loop forever.
 */
async function collectPages<T extends { id: string }>(
  path: string,
  size: number,
  fetchPage: (first: number, max: number) => Promise<T[]>,
): Promise<T[]> {
  const all: T[] = [];
  let previousFirstId: string | undefined;
  for (let first = 0; ; first += size) {
    const page = await fetchPage(first, size);
    if (page.length > 0 && page[0]!.id === previousFirstId) {
      throw new UnexpectedResponseError({
        status: 200,
        method: 'GET',
        path,
        reason: `the page at first=${first} repeats the previous page; the service seems to ignore "first"`,
      });
    }
    previousFirstId = page[0]?.id;
    all.push(...page);
    if (page.length < size) return all;
  }
}

function parseJson(response: ApiResponse, method: string, path: string): unknown {
  try {
    return JSON.parse(response.text);
  } catch {
    throw new UnexpectedResponseError({ status: response.status, method, path, reason: 'the body is not JSON' });
  }
}

/**
 * The answer's body, parsed and checked against its response schema (the one the service
 * declares), typed by it. Empty fields sent as `null` instead of left out are accepted (a tolerant
 * reader). @throws UnexpectedResponseError when it is not JSON or does not match
 */
function readAnswer<S extends TSchema>(response: ApiResponse, method: string, path: string, schema: S, what: string) {
  return checkAnswer(schema, dropNullFields(parseJson(response, method, path)), what, { status: response.status, method, path });
}

/** The new resource's id: the last path segment of `Location` (`…/orgs/{id}`), decoded. */
function idFromLocation(response: ApiResponse, method: string, path: string): string {
  const header = response.headers.location;
  const location = Array.isArray(header) ? header[0] : header;
  if (!location) {
    throw new UnexpectedResponseError({ status: response.status, method, path, reason: 'no Location header' });
  }
  let segment: string | undefined;
  try {
    segment = new URL(location, 'http://placeholder.invalid').pathname.split('/').filter(Boolean).pop();
    segment = segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    segment = undefined;
  }
  if (!segment) {
    throw new UnexpectedResponseError({
      status: response.status,
      method,
      path,
      reason: `cannot read an id from Location ${JSON.stringify(location)}`,
    });
  }
  return segment;
}
