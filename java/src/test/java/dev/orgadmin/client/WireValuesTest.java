package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The value types of domains, identity providers, the audit log and webhooks: each reads the
 * service's JSON (src/api/*.ts shapes) and writes it back unchanged, rejects a wrong shape, and
 * keeps secrets out of {@code toString()}.
 */
class WireValuesTest {
    /** Parses {@code text}, reads it with {@code reader}, writes it back with {@code writer}: the same compact JSON. */
    private static <T> T roundTrip(String text, Function<Object, T> reader, Function<T, Object> writer) throws Exception {
        T value = reader.apply(Json.parse(text));
        assertEquals(text, Json.write(writer.apply(value)));
        assertEquals(value, reader.apply(Json.parse(text)), "equal when read twice");
        return value;
    }

    @Test
    void readsAndWritesDomainsAndVerifications() throws Exception {
        OrganizationDomain domain = roundTrip("{\"domain_name\":\"globex.example\",\"verified\":false,\"record_key\":\"_org-domain-ownership\","
                + "\"record_value\":\"v=abc\"}", OrganizationDomain::fromJson, OrganizationDomain::toJson);
        assertEquals("_org-domain-ownership.globex.example", domain.getRecordName());
        assertFalse(domain.isVerified());

        DomainVerification checked = roundTrip("{\"domain_name\":\"globex.example\",\"verified\":true,\"record_key\":\"_org-domain-ownership\","
                + "\"record_value\":\"v=abc\",\"verification\":{\"record_name\":\"_org-domain-ownership.globex.example\",\"outcome\":\"verified\","
                + "\"detail\":\"found it\"}}", DomainVerification::fromJson, DomainVerification::toJson);
        assertTrue(checked.isVerified());
        assertEquals("verified", checked.getOutcome());
        // The hosted service answers the representation only.
        DomainVerification vendor = roundTrip("{\"domain_name\":\"globex.example\",\"verified\":false,\"record_key\":\"k\",\"record_value\":\"v\"}",
                DomainVerification::fromJson, DomainVerification::toJson);
        assertNull(vendor.getOutcome());
        assertThrows(Wire.ShapeException.class, () -> OrganizationDomain.fromJson(Json.parse("{\"domain_name\":\"x\",\"verified\":\"yes\"}")));
    }

    @Test
    void readsAndWritesIdentityProvidersAndMappersWithTheSecretMaskedOrRedacted() throws Exception {
        IdentityProvider idp = roundTrip("{\"alias\":\"globex-okta\",\"displayName\":\"Globex Okta\",\"internalId\":\"i1\",\"providerId\":\"oidc\","
                + "\"enabled\":true,\"trustEmail\":false,\"storeToken\":false,\"addReadTokenRoleOnCreate\":false,\"linkOnly\":false,"
                + "\"hideOnLogin\":false,\"firstBrokerLoginFlowAlias\":\"first broker login\",\"postBrokerLoginFlowAlias\":\"\","
                + "\"config\":{\"clientId\":\"broker\",\"clientSecret\":\"**********\",\"issuer\":\"https://login.globex.example\"},"
                + "\"redirectUri\":\"https://acme.example/realms/acme/broker/globex-okta/endpoint\"}", IdentityProvider::fromJson, IdentityProvider::toJson);
        assertEquals(IdentityProviderConfig.SECRET_MASK, idp.getConfig().get(IdentityProviderConfig.CLIENT_SECRET));
        assertTrue(idp.toString().contains("**********"), "the mask is no secret: " + idp);

        // A server that answered a real secret: toString still hides it.
        IdentityProvider leaky = IdentityProvider.fromJson(Json.parse("{\"alias\":\"a\",\"providerId\":\"oidc\",\"enabled\":true,"
                + "\"config\":{\"clientSecret\":\"upstream-secret\"}}"));
        assertFalse(leaky.toString().contains("upstream-secret"), leaky.toString());
        assertTrue(leaky.toString().contains("[redacted]"), leaky.toString());

        IdentityProviderMapper mapper = roundTrip("{\"id\":\"m1\",\"name\":\"username\",\"identityProviderAlias\":\"globex-okta\","
                + "\"identityProviderMapper\":\"oidc-username-idp-mapper\",\"config\":{\"template\":\"${CLAIM.email}\"}}",
                IdentityProviderMapper::fromJson, IdentityProviderMapper::toJson);
        assertEquals(IdentityProviderMapper.of("username", IdentityProviderMapper.USERNAME_TEMPLATE).withConfig("template", "${CLAIM.email}").getConfig(),
                mapper.getConfig());
        assertThrows(Wire.ShapeException.class, () -> IdentityProviderMapper.fromJson(Json.parse("{\"id\":\"m1\",\"name\":\"n\","
                + "\"identityProviderMapper\":\"t\",\"config\":{\"n\":1}}")));
    }

    @Test
    void keepsInputSecretsOutOfToStringButInTheBody() {
        IdentityProviderInput input = IdentityProviderInput.aliased("globex-okta").withConfig(IdentityProviderConfig.CLIENT_ID, "broker")
                .withClientSecret("upstream-secret");
        assertFalse(input.toString().contains("upstream-secret"), input.toString());
        assertTrue(input.toString().contains("broker"), input.toString());
        assertEquals("upstream-secret", ((Map<?, ?>) input.toJson().get("config")).get("clientSecret"));
        assertEquals(List.of("upstream-secret"), input.secrets());
        assertEquals(List.of(), input.withClientSecret(IdentityProviderConfig.SECRET_MASK).secrets(), "the mask is not a secret");

        WebhookInput hook = WebhookInput.to("https://hooks.example/h").withSecret("hook-secret-123").withEventTypes("admin.*").withEnabled(false);
        assertFalse(hook.toString().contains("hook-secret-123"), hook.toString());
        assertEquals("{\"url\":\"https://hooks.example/h\",\"enabled\":false,\"secret\":\"hook-secret-123\",\"eventTypes\":[\"admin.*\"]}",
                Json.write(hook.toJson()));
        assertEquals("{\"url\":\"https://hooks.example/h\"}", Json.write(WebhookInput.to("https://hooks.example/h").toJson()),
                "unset fields are left to the service");
    }

    @Test
    void restatesAProviderAsReadForAnUpdateThatKeepsTheSecret() throws Exception {
        IdentityProvider read = IdentityProvider.fromJson(Json.parse("{\"alias\":\"a\",\"displayName\":\"A\",\"providerId\":\"oidc\",\"enabled\":true,"
                + "\"trustEmail\":true,\"config\":{\"clientId\":\"c\",\"clientSecret\":\"**********\",\"home.idp.discovery.org\":\"o1\"}}"));
        IdentityProviderInput update = IdentityProviderInput.from(read).withEnabled(false);
        assertEquals("{\"alias\":\"a\",\"displayName\":\"A\",\"providerId\":\"oidc\",\"enabled\":false,\"trustEmail\":true,"
                + "\"config\":{\"clientId\":\"c\",\"clientSecret\":\"**********\"}}", Json.write(update.toJson()));
    }

    @Test
    void readsAndWritesEventsAndWebhookDeliveries() throws Exception {
        String text = "{\"id\":\"e1\",\"uid\":\"s1\",\"time\":1767225600000,\"realmId\":\"acme\",\"realmName\":\"acme\","
                + "\"type\":\"admin.WEBHOOK-CREATE\",\"operationType\":\"CREATE\",\"resourceType\":\"WEBHOOK\",\"resourcePath\":\"webhooks/w1\","
                + "\"representation\":\"{\\\"id\\\":\\\"w1\\\"}\",\"details\":{},"
                + "\"authDetails\":{\"realmId\":\"acme\",\"clientId\":\"key-1\",\"userId\":\"u1\",\"ipAddress\":\"127.0.0.1\"}}";
        AuditEvent event = roundTrip(text, AuditEvent::fromJson, AuditEvent::toJson);
        assertEquals(event, AuditEvent.fromDelivery(text));
        assertEquals("key-1", event.getAuthDetails().getClientId());
        assertNull(event.getError());
        AuditEvent access = roundTrip("{\"id\":\"e2\",\"time\":1,\"realmId\":\"acme\",\"realmName\":\"acme\",\"type\":\"access.LOGIN_ERROR\","
                + "\"error\":\"invalid_grant\",\"details\":{\"grant_type\":\"password\"},\"authDetails\":{\"realmId\":\"acme\"}}",
                AuditEvent::fromJson, AuditEvent::toJson);
        assertEquals(Map.of("grant_type", "password"), access.getDetails());
        assertThrows(IllegalArgumentException.class, () -> AuditEvent.fromDelivery("not json"));
        assertThrows(IllegalArgumentException.class, () -> AuditEvent.fromDelivery("{\"id\":\"e\"}"));
    }

    @Test
    void readsAndWritesWebhooksAndSends() throws Exception {
        Webhook webhook = roundTrip("{\"id\":\"w1\",\"enabled\":true,\"url\":\"https://hooks.example/h\",\"eventTypes\":[\"admin.*\"],"
                + "\"createdBy\":\"u1\",\"createdAt\":1767225600000,\"realm\":\"acme\"}", Webhook::fromJson, Webhook::toJson);
        assertEquals(List.of("admin.*"), webhook.getEventTypes());
        WebhookSend pending = roundTrip("{\"id\":\"s1\",\"type\":\"admin.WEBHOOK-CREATE\",\"status_message\":\"HTTP 999 Unknown Status Code\","
                + "\"retries\":0,\"event_id\":\"e1\",\"keycloak_event_type\":\"ADMIN\",\"keycloak_event_id\":\"e1\",\"state\":\"pending\","
                + "\"next_attempt_at\":\"2026-01-01T00:00:00.000Z\",\"webhook\":{\"id\":\"w1\",\"enabled\":true,\"url\":\"https://hooks.example/h\"}}",
                WebhookSend::fromJson, WebhookSend::toJson);
        assertNull(pending.getStatus());
        WebhookSend delivered = roundTrip("{\"id\":\"s1\",\"type\":\"admin.WEBHOOK-CREATE\",\"status\":200,\"status_message\":\"HTTP 200 OK\","
                + "\"retries\":1,\"sent_at\":\"2026-01-01T00:00:00.000Z\",\"event_id\":\"e1\",\"keycloak_event_type\":\"ADMIN\","
                + "\"keycloak_event_id\":\"e1\",\"state\":\"delivered\",\"webhook\":{\"id\":\"w1\",\"enabled\":true,\"url\":\"https://hooks.example/h\"},"
                + "\"payload\":\"{}\"}", WebhookSend::fromJson, WebhookSend::toJson);
        assertEquals(200, delivered.getStatus());
        assertEquals("w1", delivered.getWebhookId());
        assertThrows(Wire.ShapeException.class, () -> WebhookSend.fromJson(Json.parse("{\"id\":\"s1\",\"type\":\"t\",\"retries\":0,\"event_id\":\"e\"}")));
    }

    @Test
    void rendersEventQueriesAndRefusesWhatTheServiceCannotRead() {
        EventQuery query = EventQuery.all().withTypes("admin.WEBHOOK-*", "access.LOGIN_ERROR").withResourcePath("orgs/o1").withActor("key-1")
                .withFrom(Instant.ofEpochMilli(1000)).withTo("2026-01-31").withFirst(5).withMax(10);
        assertEquals("?type=admin.WEBHOOK-*%2Caccess.LOGIN_ERROR&resourcePath=orgs%2Fo1&actor=key-1&dateFrom=1000&dateTo=2026-01-31&first=5&max=10",
                ApiPaths.query(ApiPaths.params("type", query.renderedTypes(), "resourcePath", query.resourcePath(), "actor", query.actor(),
                        "dateFrom", query.from(), "dateTo", query.to(), "first", query.first(), "max", query.max())));
        assertNull(EventQuery.all().renderedTypes());
        assertThrows(IllegalArgumentException.class, () -> EventQuery.all().withTypes("a,b"));
        assertThrows(IllegalArgumentException.class, () -> EventQuery.all().withTypes(""));
        assertThrows(IllegalArgumentException.class, () -> EventQuery.all().withMax(-1));
    }
}
