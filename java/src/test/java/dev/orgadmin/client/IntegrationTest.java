package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The Java SDK against the real service (fastify + SQLite, started by test/java/java-sdk.test.ts on a
 * free port): every operation, the token source seen from the service's side, and the error cases.
 */
class IntegrationTest {
    private static ClientCredentialsTokenSource tokens;
    private static OrgAdminClient client;
    private static String annId;
    private static String bobId;

    @BeforeAll
    static void connect() {
        tokens = ItConfig.adminTokens();
        client = OrgAdminClient.builder(ItConfig.baseUrl(), tokens).realm(ItConfig.realm()).maxRetries(0).build();
        annId = ItConfig.env("ORGADMIN_IT_ANN_ID");
        bobId = ItConfig.env("ORGADMIN_IT_BOB_ID");
    }

    private static List<String> usernames(List<Member> members) {
        return members.stream().map(Member::getUsername).sorted().collect(Collectors.toList());
    }

    @Test
    void runsTheWholeOrganizationAndMembershipLifecycle() throws Exception {
        String id = client.createOrganization(OrganizationInput.named("java-globex").withDisplayName("Globex Corporation")
                .withUrl("https://globex.example.com").withDomains("globex.example.com")
                .withAttribute("tier", "gold plus").withAttribute("region", "eu"));
        assertTrue(id.matches("[0-9a-f-]{36}"), id);

        Organization created = client.getOrganization(id);
        assertEquals(id, created.getId());
        assertEquals("java-globex", created.getName());
        assertEquals("Globex Corporation", created.getDisplayName());
        assertEquals("https://globex.example.com", created.getUrl());
        assertEquals(List.of("globex.example.com"), created.getDomains());
        assertEquals(Map.of("tier", List.of("gold plus"), "region", List.of("eu")), created.getAttributes());
        assertEquals(ItConfig.realm(), created.getRealm());

        assertEquals(List.of(id), ids(client.listOrganizations(OrganizationQuery.all().withSearch("JAVA-GLOBEX"))));
        assertEquals(List.of(id), ids(client.listOrganizationsPage(
                OrganizationQuery.all().withAttribute("tier", "gold plus").withAttribute("region", "eu"))));
        assertEquals(List.of(), client.listOrganizationsPage(OrganizationQuery.all().withAttribute("tier", "silver")));
        assertEquals(1, client.countOrganizations(OrganizationQuery.all().withQ("tier:\"gold plus\"")));
        assertTrue(client.listOrganizations().stream().anyMatch(o -> o.getId().equals(id)));
        assertEquals(client.listOrganizations().size(), client.countOrganizations());

        client.updateOrganization(id, OrganizationInput.named("java-globex").withDisplayName("Globex Inc.").withAttribute("tier", "silver"));
        Organization updated = client.getOrganization(id);
        assertEquals("Globex Inc.", updated.getDisplayName());
        assertEquals(null, updated.getUrl(), "unset means cleared");
        assertEquals(List.of("globex.example.com"), updated.getDomains(), "domains only when set");
        assertEquals(Map.of("tier", List.of("silver")), updated.getAttributes());

        // A new organization counts its default admin user.
        assertEquals(1, client.countMembers(id));
        assertFalse(client.isMember(id, annId));
        client.addMember(id, annId);
        client.addMember(id, annId); // idempotent
        client.addMember(id, bobId);
        assertTrue(client.isMember(id, annId));
        assertEquals(3, client.countMembers(id));
        assertEquals(2, client.countMembers(id, true));

        List<Member> members = client.listMembersPage(id, MemberQuery.all().withExcludeAdminAccounts(true).withIncludeOrgs(true));
        assertEquals(List.of("ann", "bob"), members.stream().map(Member::getUsername).collect(Collectors.toList()));
        Member ann = members.get(0);
        assertEquals(annId, ann.getId());
        assertEquals("ann@example.com", ann.getEmail());
        assertEquals("Ann", ann.getFirstName());
        assertTrue(ann.isEnabled());
        assertTrue(ann.getCreatedTimestamp() > 0);
        assertEquals(Set.of(id), ann.getOrganizations().keySet());
        assertEquals(List.of(), ann.getOrganizations().get(id), "orgadmin has no organization roles");
        assertEquals(List.of(annId), client.listMembersPage(id, MemberQuery.all().withSearch("ann@")).stream().map(Member::getId)
                .collect(Collectors.toList()));
        List<Member> everyone = client.listMembers(id, MemberQuery.all().withMax(1));
        assertEquals(List.of("ann", "bob", "org-admin-" + id), usernames(everyone), "pages of one until a short page");
        assertEquals(usernames(everyone), usernames(client.listMembers(id)));

        assertEquals(List.of(annId), client.findUsers(UserQuery.byEmail("ann@example.com")).stream().map(Member::getId)
                .collect(Collectors.toList()));

        PortalLink link = client.createPortalLink(id, annId, "https://app.example.com");
        assertEquals(annId, link.getUser());
        assertTrue(link.getLink().startsWith("http"), link.getLink());
        assertFalse(link.toString().contains(link.getLink()));
        Member admin = everyone.stream().filter(m -> m.getUsername().equals("org-admin-" + id)).findFirst().orElseThrow();
        assertEquals(admin.getId(), client.createPortalLink(id).getUser());

        OrgAdminClient annAsUser = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(),
                new StaticTokenSource(ItConfig.userToken("ann", ItConfig.env("ORGADMIN_IT_ANN_PASSWORD"))));
        Map<String, MemberInfoEntry> info = annAsUser.getMemberInfo();
        assertEquals(Set.of(id), info.keySet());
        assertEquals("java-globex", info.get(id).getName());

        client.removeMember(id, bobId);
        assertFalse(client.isMember(id, bobId));
        ForbiddenException adminStays = assertThrows(ForbiddenException.class, () -> client.removeMember(id, admin.getId()));
        assertEquals(403, adminStays.getStatus());

        client.deleteOrganization(id);
        NotFoundException gone = assertThrows(NotFoundException.class, () -> client.getOrganization(id));
        assertEquals(ErrorCode.NOT_FOUND, gone.getCode());
        assertEquals(404, gone.getStatus());
        assertEquals("not_found", gone.getError());
        assertEquals("GET /realms/" + ItConfig.realm() + "/orgs/" + id, gone.getMessage().substring(0, gone.getMessage().indexOf(" failed")));
        assertEquals(404, assertThrows(NotFoundException.class, () -> client.deleteOrganization(id)).getStatus());
        assertFalse(client.isMember(id, annId), "unknown organization: not a member");
    }

    private static List<String> ids(List<Organization> organizations) {
        return organizations.stream().map(Organization::getId).collect(Collectors.toList());
    }

    @Test
    void createsWithAClientChosenId() {
        String id = client.createOrganization(OrganizationInput.named("java-chosen").withId("java-chosen-id"));
        assertEquals("java-chosen-id", id);
        assertEquals("java-chosen", client.getOrganization(id).getName());
        client.deleteOrganization(id);
    }

    @Test
    void pagesThroughEveryOrganization() {
        Set<String> created = new HashSet<>();
        for (int i = 0; i < 105; i++) {
            created.add(client.createOrganization(OrganizationInput.named(String.format("java-paged-%03d", i)).withAttribute("batch", "java-paging")));
        }
        List<Organization> all = client.listOrganizations(OrganizationQuery.all().withAttribute("batch", "java-paging"));
        assertEquals(105, all.size());
        assertEquals(created, new HashSet<>(ids(all)));
        List<String> names = all.stream().map(Organization::getName).collect(Collectors.toList());
        assertEquals(names.stream().sorted().collect(Collectors.toList()), names);
        assertEquals(105, client.countOrganizations(OrganizationQuery.all().withAttribute("batch", "java-paging")));
        for (String id : created) client.deleteOrganization(id);
    }

    @Test
    void sendsOneTokenRequestForManyConcurrentCalls() throws Exception {
        ClientCredentialsTokenSource fresh = ItConfig.adminTokens();
        OrgAdminClient shared = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), fresh);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < 12; i++) counts.add(pool.submit(() -> shared.countOrganizations()));
            for (Future<Long> count : counts) assertTrue(count.get(30, TimeUnit.SECONDS) >= 0);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, fresh.getTokenRequestCount());
    }

    @Test
    void authenticatesWithHttpBasicToo() {
        ClientCredentialsTokenSource basic = ClientCredentialsTokenSource.builder(ItConfig.baseUrl(), ItConfig.env("ORGADMIN_IT_CLIENT_ID"),
                ItConfig.env("ORGADMIN_IT_CLIENT_SECRET")).clientAuthentication(ClientAuthentication.BASIC).build();
        assertTrue(new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), basic).countOrganizations() >= 0);
    }

    @Test
    void refusesWritesOfAViewOnlyKeyAndChangesNothing() {
        String target = client.createOrganization(OrganizationInput.named("java-viewer-target"));
        OrgAdminClient viewer = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), new ClientCredentialsTokenSource(
                ItConfig.baseUrl(), ItConfig.env("ORGADMIN_IT_VIEWER_CLIENT_ID"), ItConfig.env("ORGADMIN_IT_VIEWER_CLIENT_SECRET")));
        assertEquals("java-viewer-target", viewer.getOrganization(target).getName());
        List<Executable> writes = List.of(
                () -> viewer.createOrganization(OrganizationInput.named("java-not-allowed")),
                () -> viewer.updateOrganization(target, OrganizationInput.named("java-renamed")),
                () -> viewer.deleteOrganization(target),
                () -> viewer.addMember(target, annId),
                () -> viewer.createPortalLink(target),
                () -> viewer.findUsers(UserQuery.byUsername("ann")));
        for (Executable write : writes) {
            ForbiddenException refused = assertThrows(ForbiddenException.class, write);
            assertEquals(403, refused.getStatus());
            assertEquals(ErrorCode.FORBIDDEN, refused.getCode());
            assertNotNull(refused.getError());
        }
        assertEquals("java-viewer-target", client.getOrganization(target).getName());
        assertEquals(0, client.countOrganizations(OrganizationQuery.all().withSearch("java-not-allowed")));
        assertFalse(client.isMember(target, annId));
        client.deleteOrganization(target);
    }

    @Test
    void reportsAWrongSecretWithoutTheSecret() {
        String wrongSecret = ItConfig.env("ORGADMIN_IT_CLIENT_SECRET") + "-wrong";
        OrgAdminClient wrong = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(),
                new ClientCredentialsTokenSource(ItConfig.baseUrl(), ItConfig.env("ORGADMIN_IT_CLIENT_ID"), wrongSecret));
        TokenException error = assertThrows(TokenException.class, wrong::listOrganizations);
        assertEquals(ErrorCode.TOKEN, error.getCode());
        assertEquals(401, error.getStatus());
        assertEquals("unauthorized_client", error.getError());
        assertEquals(ItConfig.realm(), error.getRealm());
        assertFalse(error.getMessage().contains(wrongSecret));
        assertFalse(error.toString().contains(wrongSecret));
    }

    @Test
    void reportsAnUnknownKeyAsInvalidClient() {
        TokenException error = assertThrows(TokenException.class,
                () -> new ClientCredentialsTokenSource(ItConfig.baseUrl(), "no-such-key", "x").getToken(ItConfig.realm()));
        assertEquals(401, error.getStatus());
        assertEquals("invalid_client", error.getError());
    }

    @Test
    void reportsATokenTheServiceDoesNotAccept() {
        OrgAdminClient forged = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), new StaticTokenSource("not-a-jwt"));
        UnauthorizedException error = assertThrows(UnauthorizedException.class, forged::countOrganizations);
        assertEquals(401, error.getStatus());
        assertEquals("invalid_token", error.getError());
        assertFalse(error.getMessage().contains("not-a-jwt"));
    }

    @Test
    void reportsAnUnknownOrganization() {
        NotFoundException error = assertThrows(NotFoundException.class, () -> client.getOrganization("no-such-org"));
        assertEquals("not_found", error.getError());
        assertEquals(404, assertThrows(NotFoundException.class, () -> client.addMember("no-such-org", annId)).getStatus());
        assertEquals(404, assertThrows(NotFoundException.class, () -> client.listMembers("no-such-org")).getStatus());
    }

    @Test
    void reportsADuplicateNameAsConflictAndKeepsTheFirst() {
        String id = client.createOrganization(OrganizationInput.named("java-duplicate"));
        ConflictException error = assertThrows(ConflictException.class,
                () -> client.createOrganization(OrganizationInput.named("java-duplicate").withDisplayName("second")));
        assertEquals(409, error.getStatus());
        assertEquals(ErrorCode.CONFLICT, error.getCode());
        assertEquals("conflict", error.getError());
        assertEquals(1, client.countOrganizations(OrganizationQuery.all().withSearch("java-duplicate")));
        assertEquals(null, client.getOrganization(id).getDisplayName());
        client.deleteOrganization(id);
    }

    @Test
    void reportsInvalidInputAsBadRequest() {
        BadRequestException error = assertThrows(BadRequestException.class,
                () -> client.createOrganization(OrganizationInput.named("x".repeat(256))));
        assertEquals(400, error.getStatus());
        assertEquals(ErrorCode.BAD_REQUEST, error.getCode());
        assertEquals("invalid_body", error.getError());
    }

    @Test
    void treatsAnUnknownRealmAsASetupMistakeNotAnAnswer() {
        OrgAdminClient home = new OrgAdminClient(ItConfig.baseUrl(), ItConfig.realm(), new StaticTokenSource(tokens.getToken(ItConfig.realm())));
        NotFoundException error = assertThrows(NotFoundException.class, () -> home.forRealm("no-such-realm").isMember("o", annId));
        assertEquals("realm_not_found", error.getError());
        // With the API key, the token endpoint of the unknown realm refuses first.
        TokenException noToken = assertThrows(TokenException.class, () -> client.forRealm("no-such-realm").countOrganizations());
        assertEquals(404, noToken.getStatus());
        assertEquals("realm_not_found", noToken.getError());
    }
    @Test
    void runsEveryRoleOperation() {
        String id = client.createOrganization(OrganizationInput.named("java-roles"));
        try {
            client.addMember(id, annId);
            assertTrue(client.listRoles(id).stream().anyMatch(role -> role.getName().equals("manage-roles")));
            client.createRole(id, OrganizationRole.named("editor").withDescription("Edits"));
            assertEquals("Edits", client.getRole(id, "editor").getDescription());
            assertEquals(409, assertThrows(ConflictException.class, () -> client.createRole(id, OrganizationRole.named("editor"))).getStatus());
            client.updateRole(id, "editor", null);
            assertEquals(null, client.getRole(id, "editor").getDescription());

            List<RoleResult> created = client.createRoles(id, List.of(OrganizationRole.named("a"), OrganizationRole.named("editor")));
            assertEquals(List.of(201, 400), created.stream().map(RoleResult::getStatus).collect(Collectors.toList()));

            client.grantRole(id, "editor", annId);
            assertTrue(client.hasRole(id, "editor", annId));
            assertFalse(client.hasRole(id, "editor", bobId));
            assertEquals(List.of("ann"), usernames(client.listRoleUsers(id, "editor")));
            List<RoleResult> granted = client.grantRoles(id, annId, List.of("a", "view-members", "ghost"));
            assertEquals(List.of(true, true, false), granted.stream().map(RoleResult::isOk).collect(Collectors.toList()));
            assertEquals(List.of("a", "editor", "view-members"),
                    client.listMemberRoles(id, annId).stream().map(OrganizationRole::getName).collect(Collectors.toList()));
            assertTrue(client.listUserOrganizations(annId).stream().anyMatch(org -> org.getId().equals(id)));
            client.revokeRole(id, "editor", annId);
            assertEquals(List.of(true), client.revokeRoles(id, annId, List.of("a")).stream().map(RoleResult::isOk).collect(Collectors.toList()));
            assertEquals(List.of("view-members"), client.listMemberRoles(id, annId).stream().map(OrganizationRole::getName).collect(Collectors.toList()));

            BadRequestException notMember = assertThrows(BadRequestException.class, () -> client.grantRole(id, "editor", bobId));
            assertEquals("not_member", notMember.getError());
            assertEquals(List.of(204, 400), client.deleteRoles(id, List.of("a", "view-roles")).stream().map(RoleResult::getStatus).collect(Collectors.toList()));
            client.deleteRole(id, "editor");
            assertThrows(NotFoundException.class, () -> client.getRole(id, "editor"));
            assertEquals(400, assertThrows(BadRequestException.class, () -> client.deleteRole(id, "manage-roles")).getStatus());
        } finally {
            client.deleteOrganization(id);
        }
    }
}
