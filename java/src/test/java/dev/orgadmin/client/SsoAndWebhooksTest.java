package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The domain, identity-provider, audit-log and webhook methods against a local stub (methods, paths,
 * bodies, ids from {@code Location}, which calls are retried), secrets redacted from error answers
 * that echo them, and {@link WebhookSignature} against known HMAC-SHA-256 vectors.
 */
class SsoAndWebhooksTest {
    private static final String ORG = "/realms/acme/orgs/o1";
    private static final String HOOKS = "/realms/acme/webhooks";
    private static final String UNAVAILABLE = "{\"error\":\"internal_error\",\"error_description\":\"later\"}";

    private static OrgAdminClient client(URI base) {
        return OrgAdminClient.builder(base, new StaticTokenSource("tok")).realm("acme").maxRetries(3)
                .retryBaseDelay(Duration.ofMillis(1)).sleeper(wait -> { }).random(() -> 0.5).build();
    }

    private static StubServer.Seen last(StubServer stub) {
        List<StubServer.Seen> seen = stub.requests();
        return seen.get(seen.size() - 1);
    }

    @Test
    void sendsEveryIdentityProviderCallToItsPathWithItsBody() throws Exception {
        try (StubServer stub = new StubServer((request, n) -> switch (request.method() + " " + request.path()) {
            case "POST " + ORG + "/idps" -> StubServer.Answer.json(201, "", Map.of("Location", "http://x" + ORG + "/idps/globex%20okta"));
            case "POST " + ORG + "/idps/link" -> StubServer.Answer.json(201, "", Map.of("Location", ORG + "/idps/other"));
            case "POST " + ORG + "/idps/globex%20okta/mappers" -> StubServer.Answer.json(201, "", Map.of("Location", ORG + "/idps/globex%20okta/mappers/m1"));
            case "GET " + ORG + "/idps/globex%20okta/mappers" -> StubServer.Answer.json(200, "[{\"id\":\"m1\",\"name\":\"u\","
                    + "\"identityProviderAlias\":\"globex okta\",\"identityProviderMapper\":\"oidc-username-idp-mapper\",\"config\":{}}]");
            default -> StubServer.Answer.empty(204);
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            IdentityProviderInput input = IdentityProviderInput.aliased("globex okta").withConfig(IdentityProviderConfig.CLIENT_ID, "broker");
            assertEquals("globex okta", client.createIdentityProvider("o1", input));
            assertEquals("{\"alias\":\"globex okta\",\"config\":{\"clientId\":\"broker\"}}", last(stub).body());
            client.updateIdentityProvider("o1", "globex okta", input.withEnabled(false));
            assertEquals("PUT " + ORG + "/idps/globex%20okta", last(stub).method() + " " + last(stub).path());
            assertEquals("other", client.linkIdentityProvider("o1", IdentityProviderLink.alias("other").withSyncMode("FORCE").withDomains("a.example")));
            assertEquals("{\"alias\":\"other\",\"sync_mode\":\"FORCE\",\"domains\":[\"a.example\"]}", last(stub).body());
            client.unlinkIdentityProvider("o1", "globex okta");
            assertEquals("POST " + ORG + "/idps/globex%20okta/unlink", last(stub).method() + " " + last(stub).path());

            IdentityProviderMapper mapper = IdentityProviderMapper.of("u", IdentityProviderMapper.USERNAME_TEMPLATE).withConfig("template", "${CLAIM.sub}");
            assertEquals("m1", client.createIdentityProviderMapper("o1", "globex okta", mapper));
            assertEquals("{\"name\":\"u\",\"identityProviderMapper\":\"oidc-username-idp-mapper\",\"config\":{\"template\":\"${CLAIM.sub}\"}}", last(stub).body());
            // Updating with a mapper as read sends name, type and config only: id and alias are the path's.
            IdentityProviderMapper read = client.listIdentityProviderMappers("o1", "globex okta").get(0);
            client.updateIdentityProviderMapper("o1", "globex okta", "m1", read);
            assertEquals("{\"name\":\"u\",\"identityProviderMapper\":\"oidc-username-idp-mapper\",\"config\":{}}", last(stub).body());
            client.deleteIdentityProviderMapper("o1", "globex okta", "m1");
            assertEquals("DELETE " + ORG + "/idps/globex%20okta/mappers/m1", last(stub).method() + " " + last(stub).path());
            client.deleteIdentityProvider("o1", "globex okta");
            assertEquals("DELETE " + ORG + "/idps/globex%20okta", last(stub).method() + " " + last(stub).path());
        }
    }

    @Test
    void redactsSecretsFromErrorAnswersThatEchoThem() throws Exception {
        try (StubServer stub = new StubServer((request, n) -> StubServer.Answer.json(400,
                "{\"error\":\"invalid_request\",\"error_description\":\"bad body: " + request.body().replace("\"", "'") + "\"}"))) {
            OrgAdminClient client = client(stub.baseUrl());
            BadRequestException idp = assertThrows(BadRequestException.class,
                    () -> client.createIdentityProvider("o1", IdentityProviderInput.aliased("a").withClientSecret("upstream-secret")));
            assertTrue(idp.getMessage().contains("[redacted]"), idp.getMessage());
            assertFalse(idp.getMessage().contains("upstream-secret"), idp.getMessage());
            assertFalse(String.valueOf(idp.getErrorDescription()).contains("upstream-secret"));

            BadRequestException hook = assertThrows(BadRequestException.class,
                    () -> client.updateWebhook("w1", WebhookInput.to("https://h.example").withSecret("hook-secret-123")));
            assertFalse(hook.getMessage().contains("hook-secret-123"), hook.getMessage());
            assertTrue(hook.getMessage().contains("https://h.example"), "the rest of the answer is kept: " + hook.getMessage());
        }
    }

    @Test
    void retriesAVerificationAndAResendButNotACreate() throws Exception {
        try (StubServer stub = new StubServer((request, n) -> {
            if (request.method().equals("POST") && request.path().equals(HOOKS)) return StubServer.Answer.json(503, UNAVAILABLE);
            if (n == 1) return StubServer.Answer.json(503, UNAVAILABLE);
            if (request.path().endsWith("/verify")) {
                return StubServer.Answer.json(200, "{\"domain_name\":\"globex.example\",\"verified\":false,\"record_key\":\"k\",\"record_value\":\"v\","
                        + "\"verification\":{\"record_name\":\"k.globex.example\",\"outcome\":\"no_record\",\"detail\":\"no TXT record\"}}");
            }
            return StubServer.Answer.empty(204);
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            DomainVerification verification = client.verifyDomain("o1", "globex.example");
            assertEquals("no_record", verification.getOutcome());
            assertEquals(2, stub.count(ORG + "/domains/globex.example/verify"));
            client.resendWebhookSend("w1", "s1");
            assertEquals(2, stub.count(HOOKS + "/w1/sends/s1/resend"));
            assertThrows(ServerException.class, () -> client.createWebhook(WebhookInput.to("https://h.example")));
            assertEquals(1, stub.count(HOOKS));
        }
    }

    @Test
    void readsWebhookListsPagesSecretsAndTheAuditLog() throws Exception {
        String hook = "{\"id\":\"w%d\",\"enabled\":true,\"url\":\"https://h.example\",\"eventTypes\":[\"*\"],\"createdAt\":1,\"realm\":\"acme\"}";
        try (StubServer stub = new StubServer((request, n) -> switch (request.method() + " " + request.path()) {
            case "GET " + HOOKS -> {
                // 150 webhooks: a full page of 100, then 50.
                int first = Integer.parseInt(request.query().replaceAll(".*first=(\\d+).*", "$1"));
                StringBuilder page = new StringBuilder("[");
                for (int i = first; i < Math.min(first + 100, 150); i++) page.append(i > first ? "," : "").append(String.format(hook, i));
                yield StubServer.Answer.json(200, page.append(']').toString());
            }
            case "GET " + HOOKS + "/count" -> StubServer.Answer.json(200, "150");
            case "GET " + HOOKS + "/w1/secret" -> StubServer.Answer.json(200, "{\"type\":\"secret\",\"value\":\"s3cret\"}");
            case "GET " + HOOKS + "/w2/secret" -> StubServer.Answer.json(200, "{\"type\":\"password\",\"value\":\"x\"}");
            case "GET /admin/realms/acme/events" -> StubServer.Answer.json(200, "[]");
            default -> StubServer.Answer.json(404, "{\"error\":\"not_found\",\"error_description\":\"no\"}");
        })) {
            OrgAdminClient client = client(stub.baseUrl());
            List<Webhook> all = client.listWebhooks();
            assertEquals(150, all.size());
            assertEquals("w149", all.get(149).getId());
            assertEquals(150, client.countWebhooks());
            assertEquals("s3cret", client.getWebhookSecret("w1"));
            assertThrows(UnexpectedResponseException.class, () -> client.getWebhookSecret("w2"));
            assertEquals(List.of(), client.listEvents(EventQuery.all().withTypes("admin.WEBHOOK-*").withMax(5)));
            assertEquals("type=admin.WEBHOOK-*&max=5", last(stub).query());
            assertThrows(NotFoundException.class, () -> client.getWebhookSend("w1", "nope"));
            assertThrows(IllegalArgumentException.class, () -> client.listWebhookSends("w1", -1, 10));
            assertThrows(IllegalArgumentException.class, () -> client.getDomain("o1", ""));
        }
    }

    @Test
    void signsAndVerifiesLikeTheTypeScriptSdk() {
        // RFC 4231 test case 2, and a UTF-8 body and key whose signature Node's crypto computed the way
        // src/api/webhooks.ts does: createHmac('sha256', secret).update(body).digest('hex').
        assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", WebhookSignature.sign("Jefe", "what do ya want for nothing?"));
        String secret = "whsec Ünïcode 🔑";
        String body = "{\"id\":\"e-1\",\"type\":\"admin.WEBHOOK-CREATE\",\"realmName\":\"acmé\"}";
        String expected = "99d4a0460ecf3c15090378220f4c875a5dadf4beb7d81d3a1675a6140244067f";
        assertEquals(expected, WebhookSignature.sign(secret, body));
        assertEquals(expected, WebhookSignature.sign(secret, body.getBytes(StandardCharsets.UTF_8)));
        assertEquals("4cbc96099a6467ce002461f10549b4898265ebe6188b45efacc44293516e62c4", WebhookSignature.sign("", "x"), "an empty key");

        assertTrue(WebhookSignature.verify(secret, body, expected));
        assertTrue(WebhookSignature.verify(secret, body, expected.toUpperCase()), "hex case does not matter");
        assertFalse(WebhookSignature.verify("another secret", body, expected));
        assertFalse(WebhookSignature.verify(secret, body + " ", expected), "the exact bytes");
        assertFalse(WebhookSignature.verify(secret, body, null));
        assertFalse(WebhookSignature.verify(secret, body, expected.substring(1)));
        assertFalse(WebhookSignature.verify(secret, body, "sha256=" + expected));
        assertEquals("X-Keycloak-Signature", WebhookSignature.HEADER);
    }
}
