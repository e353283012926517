package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The role methods against a local stub: methods, paths, bodies, reading 207 answers (null fields of
 * the hosted service tolerated, an answer that cannot be matched to the names asked refused), and
 * the retry policy of the new methods (PUT and the repeatable PATCH retried, the POST create not).
 */
class RolesTest {
    private static final String TOKEN_PATH = "/realms/acme/protocol/openid-connect/token";
    private static final String ROLES = "/realms/acme/orgs/o1/roles";
    private static final String MEMBER_ROLES = "/realms/acme/users/u1/orgs/o1/roles";

    private static StubServer service(StubServer.Handler api) throws IOException {
        return new StubServer((request, n) -> request.path().equals(TOKEN_PATH)
                ? StubServer.Answer.json(200, "{\"access_token\":\"tok\",\"expires_in\":300}")
                : api.handle(request, n));
    }

    private static OrgAdminClient client(URI base) {
        return OrgAdminClient.builder(base, new StaticTokenSource("tok")).realm("acme").maxRetries(3)
                .retryBaseDelay(Duration.ofMillis(1)).sleeper(wait -> { }).random(() -> 0.5).build();
    }

    @Test
    void readsRolesAndBulkAnswersWithTheHostedServicesNullFields() throws Exception {
        try (StubServer stub = service((request, n) -> switch (request.method() + " " + request.path()) {
            case "GET " + ROLES -> StubServer.Answer.json(200, "[{\"id\":\"r1\",\"name\":\"editor\",\"description\":null}]");
            case "PUT " + ROLES -> StubServer.Answer.json(207,
                    "[{\"status\":201,\"error\":null,\"item\":{\"id\":\"r2\",\"name\":\"a\"}},{\"status\":400,\"error\":\"taken\",\"item\":null}]");
            case "PATCH " + MEMBER_ROLES -> StubServer.Answer.json(207, "[{\"status\":204,\"item\":{\"name\":\"gone\"}}]");
            default -> StubServer.Answer.json(404, "{\"error\":\"not_found\",\"error_description\":\"no\"}");
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            OrganizationRole editor = client.listRoles("o1").get(0);
            assertEquals("r1", editor.getId());
            assertNull(editor.getDescription());

            List<RoleResult> created = client.createRoles("o1", List.of(OrganizationRole.named("a"), OrganizationRole.named("b").withDescription("Bee")));
            assertEquals("[{\"name\":\"a\"},{\"name\":\"b\",\"description\":\"Bee\"}]", stub.requests().get(stub.requests().size() - 1).body());
            assertTrue(created.get(0).isOk());
            assertEquals("r2", created.get(0).getRole().getId());
            assertFalse(created.get(1).isOk());
            assertEquals("taken", created.get(1).getError());
            assertNull(created.get(1).getRole());

            RoleResult revoked = client.revokeRoles("o1", "u1", List.of("gone")).get(0);
            assertEquals("gone", revoked.getName());
            assertTrue(revoked.isOk());
            assertNull(revoked.getRole(), "an entry that only names the role has no role");
        }
    }

    @Test
    void refusesABulkAnswerThatCannotBeMatchedToTheNamesAsked() throws Exception {
        try (StubServer stub = service((request, n) -> StubServer.Answer.json(207, "[{\"status\":201,\"item\":{\"id\":\"r1\",\"name\":\"a\"}}]"))) {
            UnexpectedResponseException error = assertThrows(UnexpectedResponseException.class,
                    () -> client(stub.baseUrl()).grantRoles("o1", "u1", List.of("a", "b")));
            assertTrue(error.getMessage().contains("1 entries for 2 roles asked"), error.getMessage());
        }
    }

    @Test
    void retriesABulkGrantAndABulkRevokeAfter503ButNotARoleCreate() throws Exception {
        try (StubServer stub = service((request, n) -> {
            if (request.method().equals("POST")) return StubServer.Answer.json(503, "{\"error\":\"internal_error\",\"error_description\":\"later\"}");
            if (n % 2 == 1) return StubServer.Answer.json(503, "{\"error\":\"internal_error\",\"error_description\":\"later\"}");
            return StubServer.Answer.json(207, "[{\"status\":" + (request.method().equals("PUT") ? 201 : 204) + ",\"item\":{\"id\":\"r1\",\"name\":\"a\"}}]");
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            assertTrue(client.grantRoles("o1", "u1", List.of("a")).get(0).isOk());
            assertTrue(client.revokeRoles("o1", "u1", List.of("a")).get(0).isOk());
            assertEquals(4, stub.count(MEMBER_ROLES));
            assertThrows(ServerException.class, () -> client.createRole("o1", OrganizationRole.named("x")));
            assertEquals(1, stub.count(ROLES));
        }
    }

    @Test
    void checksAGrantTrueOn204AndFalseOn404AndSaysNotMemberOn400() throws Exception {
        try (StubServer stub = service((request, n) -> switch (request.method() + " " + request.path()) {
            case "GET /realms/acme/orgs/o1/roles/editor/users/u1" -> StubServer.Answer.empty(204);
            case "PUT /realms/acme/orgs/o1/roles/editor/users/u9" -> StubServer.Answer.json(400,
                    "{\"error\":\"not_member\",\"error_description\":\"User u9 must be a member of organization o1 to be granted a role.\"}");
            default -> StubServer.Answer.json(404, "{\"error\":\"not_found\",\"error_description\":\"no\"}");
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            assertTrue(client.hasRole("o1", "editor", "u1"));
            assertFalse(client.hasRole("o1", "editor", "u2"));
            BadRequestException error = assertThrows(BadRequestException.class, () -> client.grantRole("o1", "editor", "u9"));
            assertEquals("not_member", error.getError());
        }
    }

    @Test
    void refusesEmptyNamesBeforeSendingAnything() throws Exception {
        try (StubServer stub = service((request, n) -> StubServer.Answer.empty(204))) {
            OrgAdminClient client = client(stub.baseUrl());
            assertThrows(IllegalArgumentException.class, () -> client.getRole("o1", ""));
            assertThrows(IllegalArgumentException.class, () -> client.grantRoles("o1", "u1", java.util.Arrays.asList("a", "")));
            assertThrows(IllegalArgumentException.class, () -> OrganizationRole.named(""));
            assertEquals(0, stub.requests().size());
        }
    }
}
