package dev.orgadmin.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Function;

/**
 * A typed client of the Organization Administration Service: one method per operation, the token
 * handled by a {@link TokenSource}, retries by {@link RetryPolicy}, failures as
 * {@link OrgAdminException} subclasses. Thread-safe: share one instance.
 *
 * <pre>{@code
 * URI base = URI.create("https://acme.example.com");
 * OrgAdminClient client = new OrgAdminClient(base, new ClientCredentialsTokenSource(base, clientId, clientSecret));
 * String id = client.createOrganization(OrganizationInput.named("globex").withDomains("globex.example.com"));
 * client.addMember(id, userId);
 * boolean member = client.isMember(id, userId); // true
 * }</pre>
 */
public final class OrgAdminClient {
    /** Page size (and the service's cap) of organization lists. */
    private static final int ORGS_PAGE = 100;
    /** Default page size of member lists. */
    private static final int MEMBERS_PAGE_DEFAULT = 100;
    /** The service's cap of member page sizes. */
    private static final int MEMBERS_PAGE_CAP = 1000;
    /** Page size (and the service's cap, the vendor's) of webhook and send lists. */
    private static final int WEBHOOKS_PAGE = 100;

    private final URI baseUrl;
    private final String realm;
    private final RequestPipeline pipeline;

    /**
     * A client of the realm named by the base address's host ({@code https://acme.example.com} →
     * {@code acme}), with the default options.
     *
     * @param baseUrl the service's base address
     * @param tokenSource supplies bearer tokens
     * @throws IllegalArgumentException when the host is an IP address or a single label such as
     *     {@code localhost}: name the realm with {@link #OrgAdminClient(URI, String, TokenSource)}
     */
    public OrgAdminClient(URI baseUrl, TokenSource tokenSource) {
        this(builder(baseUrl, tokenSource));
    }

    /**
     * A client of {@code realm}, with the default options.
     *
     * @param baseUrl the service's base address
     * @param realm the realm (project name)
     * @param tokenSource supplies bearer tokens
     */
    public OrgAdminClient(URI baseUrl, String realm, TokenSource tokenSource) {
        this(builder(baseUrl, tokenSource).realm(realm));
    }

    private OrgAdminClient(Builder b) {
        this.baseUrl = BaseUrl.check(b.baseUrl, "OrgAdminClient");
        String chosen = b.realm != null ? b.realm : ApiPaths.realmFromHost(this.baseUrl.getHost());
        if (chosen == null || chosen.isEmpty()) {
            throw new IllegalArgumentException("OrgAdminClient: no realm: baseUrl " + BaseUrl.withoutUserInfo(this.baseUrl)
                    + " has no DNS label to take it from (an IP address or a single-label host such as localhost); name the realm");
        }
        this.realm = chosen;
        HttpClient http = b.httpClient != null ? b.httpClient : Transport.newHttpClient(b.timeout);
        this.pipeline = new RequestPipeline(this.baseUrl, b.tokenSource, http, b.timeout, b.timer,
                new RetryPolicy.Settings(b.maxRetries, b.retryBaseDelay, b.retryMaxDelay, b.random), b.userAgent, b.sleeper, b.clock);
    }

    private OrgAdminClient(OrgAdminClient other, String realm) {
        this.baseUrl = other.baseUrl;
        this.realm = realm;
        this.pipeline = other.pipeline;
    }

    /**
     * @param baseUrl the service's base address
     * @param tokenSource supplies bearer tokens
     * @return a builder for the other options
     */
    public static Builder builder(URI baseUrl, TokenSource tokenSource) {
        return new Builder(baseUrl, tokenSource);
    }

    /**
     * @param realm another realm of the same service
     * @return a client of that realm sharing this client's connections, token source and options
     */
    public OrgAdminClient forRealm(String realm) {
        return new OrgAdminClient(this, requireId("realm", realm));
    }

    /**
     * @return the base address, without a trailing slash
     */
    public URI getBaseUrl() {
        return baseUrl;
    }

    /**
     * @return the realm every call of this client uses
     */
    public String getRealm() {
        return realm;
    }

    // ---- Organizations ----------------------------------------------------------------------

    /**
     * @return every organization of the realm, sorted by name (pages of 100 until a short page)
     */
    public List<Organization> listOrganizations() {
        return listOrganizations(OrganizationQuery.all());
    }

    /**
     * @param query search and attribute matches; its {@code first} and {@code max} are ignored
     * @return every matching organization, sorted by name (pages of 100 until a short page)
     */
    public List<Organization> listOrganizations(OrganizationQuery query) {
        Objects.requireNonNull(query, "query");
        return collectPages(ApiPaths.orgs(realm), ORGS_PAGE, Organization::getId,
                (first) -> listOrganizationsPage(query.withFirst(first).withMax(ORGS_PAGE)));
    }

    /**
     * "Get organizations": one page.
     *
     * @param query search, attribute matches, {@code first} and {@code max}
     * @return the page, sorted by name
     */
    public List<Organization> listOrganizationsPage(OrganizationQuery query) {
        Objects.requireNonNull(query, "query");
        String path = ApiPaths.orgs(realm);
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params(
                "search", query.search(), "q", query.renderedQ(), "first", query.first(), "max", query.max())));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), Organization::fromJson));
    }

    /**
     * @return how many organizations the realm has ("get organizations count")
     */
    public long countOrganizations() {
        return countOrganizations(OrganizationQuery.all());
    }

    /**
     * @param query search and attribute matches
     * @return how many organizations match
     */
    public long countOrganizations(OrganizationQuery query) {
        Objects.requireNonNull(query, "query");
        String path = ApiPaths.orgsCount(realm);
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params("search", query.search(), "q", query.renderedQ())));
        return readCount(response, path);
    }

    /**
     * "Create a new organization".
     *
     * @param input name and the other fields. With {@link OrganizationInput#withId} the create is
     *     repeatable: a timeout, a dropped connection or a 502/503/504 is retried, and a retry that
     *     meets the first attempt's organization is answered 409 for that id (check with
     *     {@link #getOrganization} whether it is yours). Without an id, only answers that prove the
     *     service did nothing (429, 503 with {@code Retry-After}, a refused connection) are retried,
     *     since a retry could create the organization twice
     * @return the new organization's id, read from {@code Location}
     * @throws ConflictException when the name (or id) is taken
     * @throws ForbiddenException when the API key lacks {@code create-organization}
     */
    public String createOrganization(OrganizationInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.orgs(realm);
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "",
                "application/json", Json.write(input.toJson()), realm, input.getId() != null));
        return idFromLocation(response, path);
    }

    /**
     * "Get organization".
     *
     * @param orgId the organization's id
     * @return the organization
     * @throws NotFoundException when it does not exist
     */
    public Organization getOrganization(String orgId) {
        String path = ApiPaths.org(realm, requireId("orgId", orgId));
        return read(get(path, ""), "GET", path, Organization::fromJson);
    }

    /**
     * "Update organization": replaces name, display name, URL and attributes as given (unset means
     * cleared); domains only when set. Idempotent (PUT), so it is retried like a read.
     *
     * @param orgId the organization's id
     * @param input the new state
     */
    public void updateOrganization(String orgId, OrganizationInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.org(realm, requireId("orgId", orgId));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", "application/json", Json.write(input.toJson()), realm, false));
    }

    /**
     * "Delete the organization" (and its default admin user).
     *
     * @param orgId the organization's id
     */
    public void deleteOrganization(String orgId) {
        String path = ApiPaths.org(realm, requireId("orgId", orgId));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * "Create admin portal link", acting for the organization's admin user.
     *
     * @param orgId the organization's id
     * @return the link
     */
    public PortalLink createPortalLink(String orgId) {
        return createPortalLink(orgId, null, null);
    }

    /**
     * "Create admin portal link".
     *
     * @param orgId the organization's id
     * @param userId the user to act for, or null for the organization's admin user
     * @param baseUri where the portal lives, or null for the service's default
     * @return the link
     */
    public PortalLink createPortalLink(String orgId, String userId, String baseUri) {
        String path = ApiPaths.portalLink(realm, requireId("orgId", orgId));
        Map<String, String> form = new LinkedHashMap<>();
        form.put("userId", userId);
        form.put("baseUri", baseUri);
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "",
                "application/x-www-form-urlencoded", ApiPaths.form(form), realm, false));
        return read(response, "POST", path, PortalLink::fromJson);
    }

    /**
     * "Get member info": the organizations the token's subject belongs to (use a user's token,
     * {@link StaticTokenSource}).
     *
     * @return organization id → entry, in the service's order
     */
    public Map<String, MemberInfoEntry> getMemberInfo() {
        String path = ApiPaths.orgsMe(realm);
        return read(get(path, ""), "GET", path, json -> {
            Map<String, MemberInfoEntry> out = new LinkedHashMap<>();
            for (Map.Entry<String, Object> entry : Wire.object(json, "the body").entrySet()) {
                out.put(entry.getKey(), MemberInfoEntry.fromJson(entry.getValue()));
            }
            return Collections.unmodifiableMap(out);
        });
    }

    // ---- Members ----------------------------------------------------------------------------

    /**
     * @param orgId the organization's id
     * @return every member, the default admin user included (pages of 100 until a short page)
     */
    public List<Member> listMembers(String orgId) {
        return listMembers(orgId, MemberQuery.all());
    }

    /**
     * @param orgId the organization's id
     * @param query search and flags; {@code max} is the page size (default 100, at most 1000);
     *     {@code first} is ignored
     * @return every matching member, in membership order
     */
    public List<Member> listMembers(String orgId, MemberQuery query) {
        requireId("orgId", orgId);
        Objects.requireNonNull(query, "query");
        // Above the service's cap a page would always look short and paging would stop early.
        int size = Math.min(query.max() != null ? query.max() : MEMBERS_PAGE_DEFAULT, MEMBERS_PAGE_CAP);
        return collectPages(ApiPaths.members(realm, orgId), size, Member::getId,
                (first) -> listMembersPage(orgId, query.withFirst(first).withMax(size)));
    }

    /**
     * "Get organization memberships": one page.
     *
     * @param orgId the organization's id
     * @param query search, flags, {@code first} and {@code max}
     * @return the page, in membership order
     */
    public List<Member> listMembersPage(String orgId, MemberQuery query) {
        Objects.requireNonNull(query, "query");
        String path = ApiPaths.members(realm, requireId("orgId", orgId));
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params("search", query.search(),
                "first", query.first(), "max", query.max(), "excludeAdminAccounts", query.excludeAdminAccounts(),
                "includeOrgs", query.includeOrgs())));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), Member::fromJson));
    }

    /**
     * @param orgId the organization's id
     * @return how many members it has, the admin user included
     */
    public long countMembers(String orgId) {
        return countMembers(orgId, false);
    }

    /**
     * "Get organization members count".
     *
     * @param orgId the organization's id
     * @param excludeAdminAccounts leave out the organization's default admin user
     * @return the count
     */
    public long countMembers(String orgId, boolean excludeAdminAccounts) {
        String path = ApiPaths.membersCount(realm, requireId("orgId", orgId));
        return readCount(get(path, ApiPaths.query(ApiPaths.params("excludeAdminAccounts", excludeAdminAccounts ? true : null))), path);
    }

    /**
     * "Check organization membership".
     *
     * @param orgId the organization's id
     * @param userId the user's id
     * @return true on 204; false on 404 (not a member, or no such user or organization)
     * @throws NotFoundException when the realm does not exist: a setup mistake, not an answer
     */
    public boolean isMember(String orgId, String userId) {
        return answersYes(ApiPaths.member(realm, requireId("orgId", orgId), requireId("userId", userId)));
    }

    /**
     * "Add organization member". Idempotent (PUT), so it is retried like a read.
     *
     * @param orgId the organization's id
     * @param userId the user's id
     */
    public void addMember(String orgId, String userId) {
        String path = ApiPaths.member(realm, requireId("orgId", orgId), requireId("userId", userId));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", null, null, realm, false));
    }

    /**
     * "Remove organization member".
     *
     * @param orgId the organization's id
     * @param userId the user's id
     * @throws ForbiddenException for the organization's default admin user
     */
    public void removeMember(String orgId, String userId) {
        String path = ApiPaths.member(realm, requireId("orgId", orgId), requireId("userId", userId));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * User lookup ({@code view-users}), e.g. to turn an email address into a user id.
     *
     * @param query what to look for
     * @return the matching users (one page)
     */
    public List<Member> findUsers(UserQuery query) {
        Objects.requireNonNull(query, "query");
        String path = ApiPaths.users(realm);
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params("username", query.username(),
                "email", query.email(), "search", query.searchText(), "exact", query.exact(), "first", query.first(),
                "max", query.max())));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), Member::fromJson));
    }

    // ---- Organization roles -----------------------------------------------------------------

    /**
     * "Get roles for this organization".
     *
     * @param orgId the organization's id
     * @return every role, default roles included, ordered by name
     */
    public List<OrganizationRole> listRoles(String orgId) {
        String path = ApiPaths.roles(realm, requireId("orgId", orgId));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), OrganizationRole::fromJson));
    }

    /**
     * "Get role for this organization by name".
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @return the role
     * @throws NotFoundException when the organization has no such role
     */
    public OrganizationRole getRole(String orgId, String name) {
        String path = ApiPaths.role(realm, requireId("orgId", orgId), requireId("name", name));
        return read(get(path, ""), "GET", path, OrganizationRole::fromJson);
    }

    /**
     * "Create a new role for this organization". Not retried after a timeout or a dropped
     * connection (the first attempt may have created it, and a second would answer 409): ask
     * {@link #getRole} then.
     *
     * @param orgId the organization's id
     * @param role {@link OrganizationRole#named} with an optional description
     * @throws ConflictException when the organization has a role of that name
     */
    public void createRole(String orgId, OrganizationRole role) {
        Objects.requireNonNull(role, "role");
        String path = ApiPaths.roles(realm, requireId("orgId", orgId));
        pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", "application/json", Json.write(role.toJson()), realm, false));
    }

    /**
     * "Create new roles for this organization" (PUT, one transaction). PUT is retried like every
     * idempotent request: after a retry, an entry may report as taken a role the first attempt created.
     *
     * @param orgId the organization's id
     * @param roles the roles, each {@link OrganizationRole#named} with an optional description
     * @return one result per role, in order; a taken name is refused in its entry
     */
    public List<RoleResult> createRoles(String orgId, List<OrganizationRole> roles) {
        Objects.requireNonNull(roles, "roles");
        List<Object> body = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (OrganizationRole role : roles) {
            Objects.requireNonNull(role, "roles must not hold null");
            body.add(role.toJson());
            names.add(role.getName());
        }
        return bulk("PUT", ApiPaths.roles(realm, requireId("orgId", orgId)), names, body);
    }

    /**
     * "Update role for this organization": replaces the description (a role cannot be renamed).
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @param description the new description, or null to clear it
     */
    public void updateRole(String orgId, String name, String description) {
        String path = ApiPaths.role(realm, requireId("orgId", orgId), requireId("name", name));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("description", description);
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", "application/json", Json.write(body), realm, false));
    }

    /**
     * "Delete this organization role", with its grants.
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @throws BadRequestException for a default role
     */
    public void deleteRole(String orgId, String name) {
        String path = ApiPaths.role(realm, requireId("orgId", orgId), requireId("name", name));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * "Delete this organization roles" (PATCH, one transaction). Repeatable, so retried like a PUT.
     *
     * @param orgId the organization's id
     * @param names the roles' names
     * @return one result per name, in order; a role that is not there counts as deleted, a default role is refused
     */
    public List<RoleResult> deleteRoles(String orgId, List<String> names) {
        return bulk("PATCH", ApiPaths.roles(realm, requireId("orgId", orgId)), names, nameBodies(names));
    }

    /**
     * @param orgId the organization's id
     * @param name the role's name
     * @return the users holding the role, in the order they were granted it
     */
    public List<Member> listRoleUsers(String orgId, String name) {
        return listRoleUsers(orgId, name, false);
    }

    /**
     * "Get users with this organization role".
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @param excludeAdminAccounts leave out organizations' default admin users
     * @return the users holding the role, in the order they were granted it
     */
    public List<Member> listRoleUsers(String orgId, String name, boolean excludeAdminAccounts) {
        String path = ApiPaths.roleUsers(realm, requireId("orgId", orgId), requireId("name", name));
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params("excludeAdminAccounts", excludeAdminAccounts ? true : null)));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), Member::fromJson));
    }

    /**
     * "Check if a user has an organization role".
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @param userId the user's id
     * @return true on 204; false on 404 (not granted, or no such user, role or organization)
     * @throws NotFoundException when the realm does not exist
     */
    public boolean hasRole(String orgId, String name, String userId) {
        return answersYes(ApiPaths.roleUser(realm, requireId("orgId", orgId), requireId("name", name), requireId("userId", userId)));
    }

    /**
     * "Grant a user an organization role". Idempotent (PUT).
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @param userId the user's id
     * @throws BadRequestException with error {@code not_member} when the user is not a member
     */
    public void grantRole(String orgId, String name, String userId) {
        String path = ApiPaths.roleUser(realm, requireId("orgId", orgId), requireId("name", name), requireId("userId", userId));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", null, null, realm, false));
    }

    /**
     * "Revoke an organization role from a user".
     *
     * @param orgId the organization's id
     * @param name the role's name
     * @param userId the user's id
     * @throws NotFoundException when the user does not hold it
     */
    public void revokeRole(String orgId, String name, String userId) {
        String path = ApiPaths.roleUser(realm, requireId("orgId", orgId), requireId("name", name), requireId("userId", userId));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * "List organizations for the given user".
     *
     * @param userId the user's id
     * @return the organizations, ordered by name
     * @throws NotFoundException for an unknown user
     */
    public List<Organization> listUserOrganizations(String userId) {
        String path = ApiPaths.userOrganizations(realm, requireId("userId", userId));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), Organization::fromJson));
    }

    /**
     * "List organization roles for the given user and org": one request for the member's roles.
     *
     * @param orgId the organization's id
     * @param userId the user's id
     * @return the member's roles, ordered by name
     * @throws NotFoundException when the user is not a member (or the organization does not exist)
     */
    public List<OrganizationRole> listMemberRoles(String orgId, String userId) {
        String path = ApiPaths.memberRoles(realm, requireId("userId", userId), requireId("orgId", orgId));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), OrganizationRole::fromJson));
    }

    /**
     * "Grant a user organization roles" (PUT, one transaction). Idempotent.
     *
     * @param orgId the organization's id
     * @param userId the user's id
     * @param names the roles' names
     * @return one result per name, in order; a role the organization lacks is refused in its entry
     * @throws BadRequestException with error {@code not_member} when the user is not a member
     */
    public List<RoleResult> grantRoles(String orgId, String userId, List<String> names) {
        return bulk("PUT", ApiPaths.memberRoles(realm, requireId("userId", userId), requireId("orgId", orgId)), names, nameBodies(names));
    }

    /**
     * "Revoke organization roles from a user" (PATCH, one transaction). Repeatable, so retried like a PUT.
     *
     * @param orgId the organization's id
     * @param userId the user's id
     * @param names the roles' names
     * @return one result per name, in order
     * @throws BadRequestException with error {@code not_member} when the user is not a member
     */
    public List<RoleResult> revokeRoles(String orgId, String userId, List<String> names) {
        return bulk("PATCH", ApiPaths.memberRoles(realm, requireId("userId", userId), requireId("orgId", orgId)), names, nameBodies(names));
    }

    // ---- Verified domains -------------------------------------------------------------------

    /**
     * "Get organization domains".
     *
     * @param orgId the organization's id
     * @return each of the organization's domains with its verification state and TXT record
     */
    public List<OrganizationDomain> listDomains(String orgId) {
        String path = ApiPaths.domains(realm, requireId("orgId", orgId));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), OrganizationDomain::fromJson));
    }

    /**
     * "Get organization domain".
     *
     * @param orgId the organization's id
     * @param domain the domain name
     * @return the domain with its verification state and TXT record
     * @throws NotFoundException when the domain is not in the organization's list
     */
    public OrganizationDomain getDomain(String orgId, String domain) {
        String path = ApiPaths.domain(realm, requireId("orgId", orgId), requireId("domain", domain));
        return read(get(path, ""), "GET", path, OrganizationDomain::fromJson);
    }

    /**
     * "Verify organization domain": the service looks the TXT record up now. A verification changes
     * nothing but the domain's state, so it is retried like a read.
     *
     * @param orgId the organization's id
     * @param domain the domain name
     * @return the domain after the check and what the lookup found
     * @throws ConflictException when another organization of the realm verified the domain
     */
    public DomainVerification verifyDomain(String orgId, String domain) {
        String path = ApiPaths.domainVerify(realm, requireId("orgId", orgId), requireId("domain", domain));
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", null, null, realm, true));
        return read(response, "POST", path, DomainVerification::fromJson);
    }

    // ---- Identity providers -----------------------------------------------------------------

    /**
     * "Get identity providers" of the organization.
     *
     * @param orgId the organization's id
     * @return the providers it owns, client secrets masked
     */
    public List<IdentityProvider> listIdentityProviders(String orgId) {
        String path = ApiPaths.idps(realm, requireId("orgId", orgId));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), IdentityProvider::fromJson));
    }

    /**
     * "Create identity provider" owned by the organization. Not retried after a timeout or a
     * dropped connection (a second attempt would answer 409): ask {@link #getIdentityProvider} then.
     *
     * @param orgId the organization's id
     * @param input alias, settings and client secret
     * @return the new provider's alias, read from {@code Location}
     * @throws ConflictException when the realm has a provider of that alias
     * @throws BadRequestException for settings the service refuses (the secret never in the message)
     */
    public String createIdentityProvider(String orgId, IdentityProviderInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.idps(realm, requireId("orgId", orgId));
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", "application/json",
                Json.write(input.toJson()), realm, false, input.secrets()));
        return idFromLocation(response, path);
    }

    /**
     * "Get identity provider".
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @return the provider, its client secret masked
     * @throws NotFoundException when the organization does not own it
     */
    public IdentityProvider getIdentityProvider(String orgId, String alias) {
        String path = ApiPaths.idp(realm, requireId("orgId", orgId), requireId("alias", alias));
        return read(get(path, ""), "GET", path, IdentityProvider::fromJson);
    }

    /**
     * "Update identity provider": replaces its settings. A client secret given as
     * {@link IdentityProviderConfig#SECRET_MASK} keeps the stored one (start from
     * {@link IdentityProviderInput#from(IdentityProvider)}). Idempotent (PUT).
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @param input the new settings
     */
    public void updateIdentityProvider(String orgId, String alias, IdentityProviderInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.idp(realm, requireId("orgId", orgId), requireId("alias", alias));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", "application/json", Json.write(input.toJson()), realm, false, input.secrets()));
    }

    /**
     * "Delete identity provider", with its mappers and its links to users.
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     */
    public void deleteIdentityProvider(String orgId, String alias) {
        String path = ApiPaths.idp(realm, requireId("orgId", orgId), requireId("alias", alias));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * "Link identity provider": gives a provider of the realm that no organization owns to this one.
     *
     * @param orgId the organization's id
     * @param link the provider's alias and the link's options
     * @return the provider's alias, read from {@code Location}
     * @throws ConflictException while another organization owns it
     */
    public String linkIdentityProvider(String orgId, IdentityProviderLink link) {
        Objects.requireNonNull(link, "link");
        String path = ApiPaths.idpLink(realm, requireId("orgId", orgId));
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", "application/json",
                Json.write(link.toJson()), realm, false));
        return idFromLocation(response, path);
    }

    /**
     * "Unlink identity provider": the provider stays in the realm, owned by no organization.
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     */
    public void unlinkIdentityProvider(String orgId, String alias) {
        String path = ApiPaths.idpUnlink(realm, requireId("orgId", orgId), requireId("alias", alias));
        pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", null, null, realm, false));
    }

    /**
     * "Get identity provider mappers".
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @return its mappers
     */
    public List<IdentityProviderMapper> listIdentityProviderMappers(String orgId, String alias) {
        String path = ApiPaths.idpMappers(realm, requireId("orgId", orgId), requireId("alias", alias));
        return read(get(path, ""), "GET", path, json -> map(Wire.array(json, "the body"), IdentityProviderMapper::fromJson));
    }

    /**
     * "Add identity provider mapper". Not retried after a timeout or a dropped connection (a second
     * attempt could add it twice).
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @param mapper {@link IdentityProviderMapper#of} with its config
     * @return the new mapper's id, read from {@code Location}
     */
    public String createIdentityProviderMapper(String orgId, String alias, IdentityProviderMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        String path = ApiPaths.idpMappers(realm, requireId("orgId", orgId), requireId("alias", alias));
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", "application/json",
                Json.write(mapperBody(mapper)), realm, false));
        return idFromLocation(response, path);
    }

    /**
     * "Get identity provider mapper".
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @param id the mapper's id
     * @return the mapper
     * @throws NotFoundException when the provider has no such mapper
     */
    public IdentityProviderMapper getIdentityProviderMapper(String orgId, String alias, String id) {
        String path = ApiPaths.idpMapper(realm, requireId("orgId", orgId), requireId("alias", alias), requireId("id", id));
        return read(get(path, ""), "GET", path, IdentityProviderMapper::fromJson);
    }

    /**
     * "Update identity provider mapper": replaces its name, type and config. Idempotent (PUT).
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @param id the mapper's id
     * @param mapper the new state
     */
    public void updateIdentityProviderMapper(String orgId, String alias, String id, IdentityProviderMapper mapper) {
        Objects.requireNonNull(mapper, "mapper");
        String path = ApiPaths.idpMapper(realm, requireId("orgId", orgId), requireId("alias", alias), requireId("id", id));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", "application/json", Json.write(mapperBody(mapper)), realm, false));
    }

    /**
     * "Delete identity provider mapper".
     *
     * @param orgId the organization's id
     * @param alias the provider's alias
     * @param id the mapper's id
     */
    public void deleteIdentityProviderMapper(String orgId, String alias, String id) {
        String path = ApiPaths.idpMapper(realm, requireId("orgId", orgId), requireId("alias", alias), requireId("id", id));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    // ---- Audit log --------------------------------------------------------------------------

    /**
     * The realm's audit log ({@code view-events}): one page of admin and access events, newest first.
     *
     * @param query types, resource path, actor, time range, {@code first} and {@code max}
     * @return the page
     */
    public List<AuditEvent> listEvents(EventQuery query) {
        Objects.requireNonNull(query, "query");
        String path = ApiPaths.events(realm);
        RequestPipeline.ApiResponse response = get(path, ApiPaths.query(ApiPaths.params("type", query.renderedTypes(),
                "resourcePath", query.resourcePath(), "actor", query.actor(), "dateFrom", query.from(), "dateTo", query.to(),
                "first", query.first(), "max", query.max())));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), AuditEvent::fromJson));
    }

    // ---- Webhooks ---------------------------------------------------------------------------

    /**
     * @return every webhook of the realm, oldest first ({@code view-events}; pages of 100 until a short page)
     */
    public List<Webhook> listWebhooks() {
        return collectPages(ApiPaths.webhooks(realm), WEBHOOKS_PAGE, Webhook::getId, (first) -> listWebhooksPage(first, WEBHOOKS_PAGE));
    }

    /**
     * One page of the realm's webhooks, oldest first ({@code view-events}).
     *
     * @param first offset, ≥ 0
     * @param max page size, ≥ 0; the service cuts it to 100
     * @return the page
     */
    public List<Webhook> listWebhooksPage(int first, int max) {
        String path = ApiPaths.webhooks(realm);
        RequestPipeline.ApiResponse response = get(path, pageQuery(first, max));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), Webhook::fromJson));
    }

    /**
     * @return how many webhooks the realm has ({@code view-events})
     */
    public long countWebhooks() {
        String path = ApiPaths.webhooksCount(realm);
        return readCount(get(path, ""), path);
    }

    /**
     * Creates a webhook ({@code manage-events}). Not retried after a timeout or a dropped connection,
     * since a retry could create it twice.
     *
     * @param input URL, filters, enabled and secret (generated by the service when not set)
     * @return the new webhook's id, read from {@code Location}
     * @throws BadRequestException for a URL or filter the service refuses (the secret never in the message)
     */
    public String createWebhook(WebhookInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.webhooks(realm);
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", "application/json",
                Json.write(input.toJson()), realm, false, input.secrets()));
        return idFromLocation(response, path);
    }

    /**
     * One webhook, without its secret ({@code view-events}).
     *
     * @param webhookId the webhook's id
     * @return the webhook
     * @throws NotFoundException when it does not exist
     */
    public Webhook getWebhook(String webhookId) {
        String path = ApiPaths.webhook(realm, requireId("webhookId", webhookId));
        return read(get(path, ""), "GET", path, Webhook::fromJson);
    }

    /**
     * Changes a webhook ({@code manage-events}): the URL as given; unset {@code enabled}, event
     * types and secret stay as they are. Idempotent (PUT).
     *
     * @param webhookId the webhook's id
     * @param input the changes
     */
    public void updateWebhook(String webhookId, WebhookInput input) {
        Objects.requireNonNull(input, "input");
        String path = ApiPaths.webhook(realm, requireId("webhookId", webhookId));
        pipeline.send(new RequestPipeline.ApiRequest("PUT", path, "", "application/json", Json.write(input.toJson()), realm, false, input.secrets()));
    }

    /**
     * Deletes a webhook and its delivery log ({@code manage-events}).
     *
     * @param webhookId the webhook's id
     */
    public void deleteWebhook(String webhookId) {
        String path = ApiPaths.webhook(realm, requireId("webhookId", webhookId));
        pipeline.send(new RequestPipeline.ApiRequest("DELETE", path, "", null, null, realm, false));
    }

    /**
     * A webhook's signing secret ({@code manage-events}), to verify deliveries with
     * {@link WebhookSignature#verify}. Keep it out of logs.
     *
     * @param webhookId the webhook's id
     * @return the secret
     */
    public String getWebhookSecret(String webhookId) {
        String path = ApiPaths.webhookSecret(realm, requireId("webhookId", webhookId));
        return read(get(path, ""), "GET", path, json -> {
            Map<String, Object> credential = Wire.object(json, "the body");
            if (!"secret".equals(credential.get("type"))) throw new Wire.ShapeException("expected \"type\" to be \"secret\"");
            return Wire.string(credential, "value");
        });
    }

    /**
     * The first page of a webhook's delivery log, newest first ({@code view-events}).
     *
     * @param webhookId the webhook's id
     * @return up to 100 sends
     */
    public List<WebhookSend> listWebhookSends(String webhookId) {
        return listWebhookSends(webhookId, 0, WEBHOOKS_PAGE);
    }

    /**
     * One page of a webhook's delivery log, newest first ({@code view-events}).
     *
     * @param webhookId the webhook's id
     * @param first offset, ≥ 0
     * @param max page size, ≥ 0; the service cuts it to 100
     * @return the page (without payloads: {@link #getWebhookSend} has them)
     */
    public List<WebhookSend> listWebhookSends(String webhookId, int first, int max) {
        String path = ApiPaths.webhookSends(realm, requireId("webhookId", webhookId));
        RequestPipeline.ApiResponse response = get(path, pageQuery(first, max));
        return read(response, "GET", path, json -> map(Wire.array(json, "the body"), WebhookSend::fromJson));
    }

    /**
     * One send of a webhook, with the delivered body as {@link WebhookSend#getPayload()} ({@code view-events}).
     *
     * @param webhookId the webhook's id
     * @param sendId the send's id
     * @return the send
     * @throws NotFoundException when the webhook has no such send
     */
    public WebhookSend getWebhookSend(String webhookId, String sendId) {
        String path = ApiPaths.webhookSend(realm, requireId("webhookId", webhookId), requireId("sendId", sendId));
        return read(get(path, ""), "GET", path, WebhookSend::fromJson);
    }

    /**
     * Delivers a send again: a new round of retries, the same send id and event id
     * ({@code manage-events}). Repeatable (a second resend only restarts the round), so it is retried
     * like a PUT.
     *
     * @param webhookId the webhook's id
     * @param sendId the send's id
     */
    public void resendWebhookSend(String webhookId, String sendId) {
        String path = ApiPaths.webhookResend(realm, requireId("webhookId", webhookId), requireId("sendId", sendId));
        pipeline.send(new RequestPipeline.ApiRequest("POST", path, "", null, null, realm, true));
    }

    @Override
    public String toString() {
        return "OrgAdminClient{baseUrl=" + BaseUrl.withoutUserInfo(baseUrl) + ", realm=" + realm + "}";
    }

    // ---- Helpers ----------------------------------------------------------------------------

    private RequestPipeline.ApiResponse get(String path, String query) {
        return pipeline.send(new RequestPipeline.ApiRequest("GET", path, query, null, null, realm, false));
    }

    /** True when a GET of {@code path} answers 2xx, false on a 404 that is not about the realm. */
    private boolean answersYes(String path) {
        try {
            get(path, "");
            return true;
        } catch (NotFoundException notFound) {
            if ("realm_not_found".equals(notFound.getError()) || "realm_mismatch".equals(notFound.getError())) throw notFound;
            return false;
        }
    }

    /** {@code ?first=…&max=…} of the webhook lists, both checked ≥ 0. */
    private static String pageQuery(int first, int max) {
        if (first < 0) throw new IllegalArgumentException("first must be an integer >= 0, got " + first);
        if (max < 0) throw new IllegalArgumentException("max must be an integer >= 0, got " + max);
        return ApiPaths.query(ApiPaths.params("first", first, "max", max));
    }

    /** A mapper's create or update body: its name, type and config (id and alias are the path's). */
    private static Map<String, Object> mapperBody(IdentityProviderMapper mapper) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", mapper.getName());
        body.put("identityProviderMapper", mapper.getIdentityProviderMapper());
        body.put("config", mapper.getConfig());
        return body;
    }

    /** {@code [{"name": …}, …]}: the body of the bulk operations that take names. */
    private static List<Object> nameBodies(List<String> names) {
        Objects.requireNonNull(names, "names");
        List<Object> body = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) body.add(Map.of("name", requireId("names[" + i + "]", names.get(i))));
        return body;
    }

    /**
     * Sends a bulk request and reads one result per name asked. PATCH is not idempotent by
     * definition; these are (a repeat changes nothing more), so they are marked repeatable. An answer
     * with another number of entries than names asked cannot be matched to them and is refused: a
     * partial answer is never read as a complete one.
     */
    private List<RoleResult> bulk(String method, String path, List<String> names, List<Object> body) {
        RequestPipeline.ApiResponse response = pipeline.send(new RequestPipeline.ApiRequest(method, path, "", "application/json", Json.write(body), realm, true));
        return read(response, method, path, json -> {
            List<Object> entries = Wire.array(json, "the body");
            if (entries.size() != names.size()) {
                throw new Wire.ShapeException("the answer has " + entries.size() + " entries for " + names.size() + " roles asked");
            }
            List<RoleResult> results = new ArrayList<>();
            for (int i = 0; i < entries.size(); i++) results.add(RoleResult.fromJson(names.get(i), entries.get(i)));
            return Collections.unmodifiableList(results);
        });
    }

    private static String requireId(String name, String value) {
        if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " must be a non-empty string");
        return value;
    }

    private static <T> List<T> map(List<Object> items, Function<Object, T> reader) {
        List<T> out = new ArrayList<>(items.size());
        for (Object item : items) out.add(reader.apply(item));
        return out;
    }

    /** Parses the body and reads it; a body that is not JSON or has the wrong shape is an {@link UnexpectedResponseException}. */
    private static <T> T read(RequestPipeline.ApiResponse response, String method, String path, Function<Object, T> reader) {
        Object json;
        try {
            json = Json.parse(response.text());
        } catch (Json.ParseException notJson) {
            throw new UnexpectedResponseException(response.status(), method, path, "the body is not JSON");
        }
        try {
            return reader.apply(json);
        } catch (Wire.ShapeException wrongShape) {
            throw new UnexpectedResponseException(response.status(), method, path, wrongShape.getMessage());
        }
    }

    private static long readCount(RequestPipeline.ApiResponse response, String path) {
        return read(response, "GET", path, json -> {
            if (!(json instanceof Long) || (Long) json < 0) throw new Wire.ShapeException("expected a non-negative integer");
            return (Long) json;
        });
    }

    /** The new resource's id: the last path segment of {@code Location} ({@code …/orgs/{id}}), decoded. */
    private static String idFromLocation(RequestPipeline.ApiResponse response, String path) {
        String location = response.headers().firstValue("Location").orElse(null);
        if (location == null || location.isEmpty()) {
            throw new UnexpectedResponseException(response.status(), "POST", path, "no Location header");
        }
        String segment = null;
        try {
            String rawPath = URI.create("http://placeholder.invalid/").resolve(location).getPath();
            String[] segments = rawPath == null ? new String[0] : rawPath.split("/");
            for (int i = segments.length - 1; i >= 0 && segment == null; i--) {
                if (!segments[i].isEmpty()) segment = segments[i];
            }
        } catch (IllegalArgumentException unreadable) {
            segment = null;
        }
        if (segment == null) {
            throw new UnexpectedResponseException(response.status(), "POST", path,
                    "cannot read an id from Location \"" + location + "\"");
        }
        return segment;
    }

    /**
     * Fetches pages of {@code size} until one comes back shorter. Stops with an error if the service
     * repeats a page (it ignores {@code first}), which would otherwise loop forever.
     */
    private static <T> List<T> collectPages(String path, int size, Function<T, String> idOf, Function<Integer, List<T>> fetchPage) {
        List<T> all = new ArrayList<>();
        String previousFirstId = null;
        for (int first = 0; ; first += size) {
            List<T> page = fetchPage.apply(first);
            if (!page.isEmpty() && idOf.apply(page.get(0)).equals(previousFirstId)) {
                throw new UnexpectedResponseException(200, "GET", path,
                        "the page at first=" + first + " repeats the previous page; the service seems to ignore \"first\"");
            }
            previousFirstId = page.isEmpty() ? null : idOf.apply(page.get(0));
            all.addAll(page);
            if (page.size() < size) return Collections.unmodifiableList(all);
        }
    }

    /** Options of {@link OrgAdminClient}. Not thread-safe; build once. */
    public static final class Builder {
        private final URI baseUrl;
        private final TokenSource tokenSource;
        private String realm;
        private Duration timeout = Duration.ofSeconds(30);
        private RequestTimer timer = RequestTimer.SYSTEM;
        private int maxRetries = RetryPolicy.DEFAULT_MAX_RETRIES;
        private Duration retryBaseDelay = RetryPolicy.DEFAULT_BASE_DELAY;
        private Duration retryMaxDelay = RetryPolicy.DEFAULT_MAX_DELAY;
        private String userAgent = "orgadmin-client-java (java " + System.getProperty("java.version") + ")";
        private HttpClient httpClient;
        private Sleeper sleeper = Sleeper.SYSTEM;
        private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();
        private Clock clock = Clock.systemUTC();

        private Builder(URI baseUrl, TokenSource tokenSource) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            this.tokenSource = Objects.requireNonNull(tokenSource, "tokenSource");
        }

        /**
         * @param realm the realm (default: the first DNS label of the base address's host)
         * @return this builder
         */
        public Builder realm(String realm) {
            this.realm = requireId("realm", realm);
            return this;
        }

        /**
         * @param timeout limit of one attempt's exchange, headers and body (default 30 s); positive.
         *     The token request has the token source's own limit.
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = SettingChecks.positiveTimeout(timeout);
            return this;
        }

        /**
         * @param timer keeps the {@link #timeout(Duration)} of each attempt (default
         *     {@link RequestTimer#SYSTEM}; tests inject one they expire by hand). The token source
         *     has its own
         * @return this builder
         */
        public Builder timer(RequestTimer timer) {
            this.timer = Objects.requireNonNull(timer, "timer");
            return this;
        }

        /**
         * @param maxRetries retries after the first attempt (default 3); ≥ 0
         * @return this builder
         */
        public Builder maxRetries(int maxRetries) {
            this.maxRetries = SettingChecks.maxRetries(maxRetries);
            return this;
        }

        /**
         * @param delay first backoff ceiling, doubling per retry (default 250 ms); ≥ 0
         * @return this builder
         */
        public Builder retryBaseDelay(Duration delay) {
            this.retryBaseDelay = SettingChecks.nonNegativeDelay("retryBaseDelay", delay);
            return this;
        }

        /**
         * @param delay cap of every wait, {@code Retry-After} included (default 10 s); ≥ 0
         * @return this builder
         */
        public Builder retryMaxDelay(Duration delay) {
            this.retryMaxDelay = SettingChecks.nonNegativeDelay("retryMaxDelay", delay);
            return this;
        }

        /**
         * @param userAgent the {@code User-Agent} header
         * @return this builder
         */
        public Builder userAgent(String userAgent) {
            this.userAgent = requireId("userAgent", userAgent);
            return this;
        }

        /**
         * @param httpClient sends the requests (default: a private HTTP/1.1 client)
         * @return this builder
         */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
            return this;
        }

        /**
         * @param sleeper waits between attempts (tests inject one that records)
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * @param random source of the backoff jitter, in [0, 1)
         * @return this builder
         */
        public Builder random(DoubleSupplier random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * @param clock reads {@code Retry-After} dates against it
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @return the client
         */
        public OrgAdminClient build() {
            return new OrgAdminClient(this);
        }
    }
}
