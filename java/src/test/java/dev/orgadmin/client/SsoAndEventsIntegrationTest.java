package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Domains, identity providers with their mappers, webhooks with their delivery log, and the audit
 * log, against the real service started by test/java/java-sdk.test.ts. That harness publishes one
 * TXT record in a DNS server of its own (for {@code ORGADMIN_IT_VERIFIED_ORG_ID} and
 * {@code ORGADMIN_IT_VERIFIED_DOMAIN}), lets the service deliver to loopback, and runs the delivery
 * worker before it answers a list of sends; the deliveries land in this test's own receiver.
 */
class SsoAndEventsIntegrationTest {
    private static OrgAdminClient client;

    @BeforeAll
    static void connect() {
        client = OrgAdminClient.builder(ItConfig.baseUrl(), ItConfig.adminTokens()).realm(ItConfig.realm()).maxRetries(0).build();
    }

    private static Set<String> types(List<AuditEvent> events) {
        return events.stream().map(AuditEvent::getType).collect(Collectors.toSet());
    }

    @Test
    void listsVerifiesAndReadsDomainsAgainstARealDnsLookup() {
        String orgId = ItConfig.env("ORGADMIN_IT_VERIFIED_ORG_ID");
        String published = ItConfig.env("ORGADMIN_IT_VERIFIED_DOMAIN");
        String unpublished = "java-unpublished.example";
        client.createOrganization(OrganizationInput.named("java-domains").withId(orgId).withDomains(published, unpublished));
        try {
            List<OrganizationDomain> listed = client.listDomains(orgId);
            assertEquals(List.of(published, unpublished), listed.stream().map(OrganizationDomain::getDomainName).collect(Collectors.toList()));
            assertTrue(listed.stream().noneMatch(OrganizationDomain::isVerified));
            OrganizationDomain before = client.getDomain(orgId, published);
            assertEquals("_org-domain-ownership." + published, before.getRecordName());
            assertFalse(before.getRecordValue().isEmpty());

            DomainVerification verified = client.verifyDomain(orgId, published);
            assertTrue(verified.isVerified(), verified.toString());
            assertEquals("verified", verified.getOutcome());
            assertTrue(client.getDomain(orgId, published).isVerified());

            DomainVerification missing = client.verifyDomain(orgId, unpublished);
            assertFalse(missing.isVerified());
            assertEquals("no_record", missing.getOutcome());
            assertEquals("_org-domain-ownership." + unpublished, missing.getRecordName());
            assertThrows(NotFoundException.class, () -> client.getDomain(orgId, "not-listed.example"));
        } finally {
            client.deleteOrganization(orgId);
        }
    }

    @Test
    void runsAnIdentityProviderAndAMapperThroughTheirLifecycleWithTheSecretNeverAnswered() {
        String secret = "java-upstream-secret-7f3a";
        String orgId = client.createOrganization(OrganizationInput.named("java-sso"));
        try {
            String alias = client.createIdentityProvider(orgId, IdentityProviderInput.aliased("java-okta").withDisplayName("Java Okta")
                    .withConfig(IdentityProviderConfig.ISSUER, "https://login.globex.example").withConfig(IdentityProviderConfig.CLIENT_ID, "broker")
                    .withClientSecret(secret));
            assertEquals("java-okta", alias);
            IdentityProvider read = client.getIdentityProvider(orgId, alias);
            assertEquals("Java Okta", read.getDisplayName());
            assertTrue(read.isEnabled());
            assertEquals("broker", read.getConfig().get(IdentityProviderConfig.CLIENT_ID));
            assertEquals("**********", read.getConfig().get(IdentityProviderConfig.CLIENT_SECRET));
            assertNotNull(read.getRedirectUri());
            assertEquals(List.of(alias), client.listIdentityProviders(orgId).stream().map(IdentityProvider::getAlias).collect(Collectors.toList()));
            assertFalse(client.listIdentityProviders(orgId).toString().contains(secret));

            // An update that restates the provider as read keeps the secret (still set, so still masked).
            client.updateIdentityProvider(orgId, alias, IdentityProviderInput.from(read).withDisplayName("Java SSO").withEnabled(false));
            IdentityProvider updated = client.getIdentityProvider(orgId, alias);
            assertEquals("Java SSO", updated.getDisplayName());
            assertFalse(updated.isEnabled());
            assertEquals("**********", updated.getConfig().get(IdentityProviderConfig.CLIENT_SECRET));

            // The service links enabled providers only.
            client.updateIdentityProvider(orgId, alias, IdentityProviderInput.from(updated).withEnabled(true));
            assertTrue(client.getIdentityProvider(orgId, alias).isEnabled());
            client.unlinkIdentityProvider(orgId, alias);
            assertThrows(NotFoundException.class, () -> client.getIdentityProvider(orgId, alias));
            assertEquals(alias, client.linkIdentityProvider(orgId, IdentityProviderLink.alias(alias)));

            String mapperId = client.createIdentityProviderMapper(orgId, alias,
                    IdentityProviderMapper.of("username", IdentityProviderMapper.USERNAME_TEMPLATE).withConfig("template", "${CLAIM.email}"));
            IdentityProviderMapper mapper = client.getIdentityProviderMapper(orgId, alias, mapperId);
            assertEquals("username", mapper.getName());
            assertEquals(alias, mapper.getIdentityProviderAlias());
            assertEquals("${CLAIM.email}", mapper.getConfig().get("template"));
            client.updateIdentityProviderMapper(orgId, alias, mapperId, mapper.withConfig("template", "${ALIAS}.${CLAIM.sub}"));
            assertEquals(List.of("${ALIAS}.${CLAIM.sub}"), client.listIdentityProviderMappers(orgId, alias).stream()
                    .map(m -> m.getConfig().get("template")).collect(Collectors.toList()));
            client.deleteIdentityProviderMapper(orgId, alias, mapperId);
            assertThrows(NotFoundException.class, () -> client.getIdentityProviderMapper(orgId, alias, mapperId));

            client.deleteIdentityProvider(orgId, alias);
            assertEquals(List.of(), client.listIdentityProviders(orgId));

            // The audit log, filtered by type: this provider's and its mapper's changes, never the secret.
            List<AuditEvent> events = client.listEvents(EventQuery.all().withTypes("admin.IDENTITY_PROVIDER-*", "admin.IDENTITY_PROVIDER_MAPPER-*"));
            assertTrue(events.stream().allMatch(e -> e.getType().startsWith("admin.IDENTITY_PROVIDER")), types(events).toString());
            assertTrue(types(events).containsAll(Set.of("admin.IDENTITY_PROVIDER-CREATE", "admin.IDENTITY_PROVIDER-UPDATE",
                    "admin.IDENTITY_PROVIDER-DELETE", "admin.IDENTITY_PROVIDER_MAPPER-CREATE", "admin.IDENTITY_PROVIDER_MAPPER-UPDATE",
                    "admin.IDENTITY_PROVIDER_MAPPER-DELETE")), types(events).toString());
            assertFalse(events.toString().contains(secret));
            assertEquals(Set.of("admin.IDENTITY_PROVIDER-CREATE"), types(client.listEvents(EventQuery.all()
                    .withTypes("admin.IDENTITY_PROVIDER-CREATE").withResourcePath("identity-provider/instances/" + alias))));
        } finally {
            client.deleteOrganization(orgId);
        }
    }

    @Test
    void createsAWebhookWithASecretAndReceivesSignedDeliveriesThatTheSendLogRecords() throws Exception {
        String secret = "java-webhook-secret-0123456789";
        try (StubServer receiver = new StubServer((request, n) -> StubServer.Answer.empty(204))) {
            String url = receiver.baseUrl() + "/hook";
            String webhookId = client.createWebhook(WebhookInput.to(url).withEventTypes("admin.ORGANIZATION-*").withSecret(secret));
            String orgId = null;
            try {
                Webhook webhook = client.getWebhook(webhookId);
                assertEquals(url, webhook.getUrl());
                assertTrue(webhook.isEnabled());
                assertEquals(List.of("admin.ORGANIZATION-*"), webhook.getEventTypes());
                assertEquals(ItConfig.realm(), webhook.getRealm());
                assertFalse(webhook.toString().contains(secret));
                assertEquals(secret, client.getWebhookSecret(webhookId));
                assertTrue(client.listWebhooks().stream().anyMatch(w -> w.getId().equals(webhookId)));
                assertEquals(client.listWebhooks().size(), client.countWebhooks());

                orgId = client.createOrganization(OrganizationInput.named("java-hooked"));
                List<WebhookSend> sends = client.listWebhookSends(webhookId);
                assertEquals(1, sends.size(), sends.toString());
                WebhookSend send = sends.get(0);
                assertEquals("admin.ORGANIZATION-CREATE", send.getType());
                assertEquals("delivered", send.getState());
                assertEquals(204, send.getStatus());

                // The delivery as the receiver got it: signed with the secret over the exact body.
                assertEquals(1, receiver.requests().size());
                StubServer.Seen delivered = receiver.requests().get(0);
                assertTrue(WebhookSignature.verify(secret, delivered.body(), delivered.header(WebhookSignature.HEADER)));
                assertFalse(WebhookSignature.verify("another secret", delivered.body(), delivered.header(WebhookSignature.HEADER)));
                AuditEvent event = AuditEvent.fromDelivery(delivered.body());
                assertEquals("orgs/" + orgId, event.getResourcePath());
                assertEquals(send.getId(), event.getUid());
                assertEquals(send.getEventId(), event.getId());
                assertEquals(delivered.body(), client.getWebhookSend(webhookId, send.getId()).getPayload());

                client.resendWebhookSend(webhookId, send.getId());
                assertEquals(1, client.listWebhookSends(webhookId, 0, 10).size(), "a resend is the same send");
                assertEquals(2, receiver.requests().size());
                assertEquals(event, AuditEvent.fromDelivery(receiver.requests().get(1).body()));

                client.updateWebhook(webhookId, WebhookInput.to(url).withEnabled(false));
                assertFalse(client.getWebhook(webhookId).isEnabled());
                assertEquals(secret, client.getWebhookSecret(webhookId), "an update without a secret keeps it");

                List<AuditEvent> events = client.listEvents(EventQuery.all().withTypes("admin.WEBHOOK-*").withResourcePath("webhooks/" + webhookId));
                assertEquals(List.of("admin.WEBHOOK-UPDATE", "admin.WEBHOOK-CREATE"),
                        events.stream().map(AuditEvent::getType).collect(Collectors.toList()), "newest first");
                assertFalse(events.toString().contains(secret));
                assertEquals(webhook.getCreatedBy(), events.get(1).getAuthDetails().getUserId());
            } finally {
                client.deleteWebhook(webhookId);
                if (orgId != null) client.deleteOrganization(orgId);
            }
            assertThrows(NotFoundException.class, () -> client.getWebhook(webhookId));
        }
    }
}
