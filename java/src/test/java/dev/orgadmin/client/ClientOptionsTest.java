package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Construction of the client: the realm from the host, the base address, option checks. */
class ClientOptionsTest {
    private static final TokenSource TOKENS = new StaticTokenSource("t");

    @Test
    void takesTheRealmFromTheHostsFirstLabel() {
        OrgAdminClient client = new OrgAdminClient(URI.create("https://acme.example.com/prefix/"), TOKENS);
        assertEquals("acme", client.getRealm());
        assertEquals(URI.create("https://acme.example.com/prefix"), client.getBaseUrl());
        assertEquals("globex", client.forRealm("globex").getRealm());
        assertEquals("other", new OrgAdminClient(URI.create("https://acme.example.com"), "other", TOKENS).getRealm());
    }

    @Test
    void needsARealmForAnIpAddressOrLocalhost() {
        IllegalArgumentException ip = assertThrows(IllegalArgumentException.class,
                () -> new OrgAdminClient(URI.create("http://127.0.0.1:8080"), TOKENS));
        assertTrue(ip.getMessage().contains("name the realm"), ip.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new OrgAdminClient(URI.create("http://localhost:8080"), TOKENS));
        assertEquals("acme", new OrgAdminClient(URI.create("http://localhost:8080"), "acme", TOKENS).getRealm());
    }

    @Test
    void refusesBadBaseAddressesAndOptions() {
        assertThrows(IllegalArgumentException.class, () -> new OrgAdminClient(URI.create("ftp://acme.example.com"), TOKENS));
        assertThrows(IllegalArgumentException.class, () -> new OrgAdminClient(URI.create("https://acme.example.com/?a=1"), TOKENS));
        assertThrows(IllegalArgumentException.class, () -> OrgAdminClient.builder(URI.create("https://a.example.com"), TOKENS).maxRetries(-1));
        assertThrows(IllegalArgumentException.class, () -> OrgAdminClient.builder(URI.create("https://a.example.com"), TOKENS).timeout(Duration.ZERO));
        assertThrows(NullPointerException.class, () -> OrgAdminClient.builder(null, TOKENS));
        assertThrows(NullPointerException.class, () -> OrgAdminClient.builder(URI.create("https://a.example.com"), TOKENS).timer(null));
        OrgAdminClient client = new OrgAdminClient(URI.create("https://acme.example.com"), TOKENS);
        assertThrows(IllegalArgumentException.class, () -> client.getOrganization(""));
        assertThrows(IllegalArgumentException.class, () -> client.isMember("o", null));
        assertThrows(IllegalArgumentException.class, () -> OrganizationQuery.all().withAttribute("tier", "say \"hi\""));
        assertThrows(IllegalArgumentException.class, () -> OrganizationInput.named(""));
    }

    @Test
    void buildsTheOrganizationBodyFromTheFieldsThatAreSet() {
        OrganizationInput input = OrganizationInput.named("globex").withDomains("a.example.com").withAttribute("tier", "gold");
        assertEquals("{\"name\":\"globex\",\"domains\":[\"a.example.com\"],\"attributes\":{\"tier\":[\"gold\"]}}", Json.write(input.toJson()));
        assertEquals("tier:gold \"a key\":\"two words\"",
                OrganizationQuery.all().withAttribute("tier", "gold").withAttribute("a key", "two words").renderedQ());
    }
}
