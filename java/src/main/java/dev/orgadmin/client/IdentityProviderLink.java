package dev.orgadmin.client;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of {@link OrgAdminClient#linkIdentityProvider} (the vendor's
 * {@code LinkIdentityProviderRepresentation}): gives a provider of the realm that no organization
 * owns to one. Immutable: start with {@link #alias(String)}.
 */
public final class IdentityProviderLink {
    private final String alias;
    private final String postBrokerFlow;
    private final String syncMode;
    private final List<String> domains;

    private IdentityProviderLink(String alias, String postBrokerFlow, String syncMode, List<String> domains) {
        this.alias = alias;
        this.postBrokerFlow = postBrokerFlow;
        this.syncMode = syncMode;
        this.domains = domains;
    }

    /**
     * @param alias the provider to link; not empty
     * @return a link of that provider with the service's defaults
     */
    public static IdentityProviderLink alias(String alias) {
        return new IdentityProviderLink(Wire.requireText(alias, "alias"), null, null, null);
    }

    /**
     * @param postBrokerFlow the post-broker-login flow's alias ({@code post_broker_flow}), or null
     * @return a new link
     */
    public IdentityProviderLink withPostBrokerFlow(String postBrokerFlow) {
        return new IdentityProviderLink(alias, postBrokerFlow, syncMode, domains);
    }

    /**
     * @param syncMode {@code IMPORT}, {@code FORCE} or {@code LEGACY} ({@code sync_mode}), or null
     * @return a new link
     */
    public IdentityProviderLink withSyncMode(String syncMode) {
        return new IdentityProviderLink(alias, postBrokerFlow, syncMode, domains);
    }

    /**
     * @param domains email domains the provider signs in (replaces any set before)
     * @return a new link
     */
    public IdentityProviderLink withDomains(String... domains) {
        return new IdentityProviderLink(alias, postBrokerFlow, syncMode, List.copyOf(Arrays.asList(domains)));
    }

    /** @return the provider's alias */
    public String getAlias() {
        return alias;
    }

    /** @return the post-broker-login flow, or null */
    public String getPostBrokerFlow() {
        return postBrokerFlow;
    }

    /** @return the sync mode, or null */
    public String getSyncMode() {
        return syncMode;
    }

    /** @return the domains, or null when not set */
    public List<String> getDomains() {
        return domains;
    }

    /** The JSON body: only the fields that are set, in the vendor's snake_case names. */
    Map<String, Object> toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("alias", alias);
        if (postBrokerFlow != null) body.put("post_broker_flow", postBrokerFlow);
        if (syncMode != null) body.put("sync_mode", syncMode);
        if (domains != null) body.put("domains", domains);
        return body;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof IdentityProviderLink)) return false;
        return toJson().equals(((IdentityProviderLink) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "IdentityProviderLink" + toJson();
    }
}
