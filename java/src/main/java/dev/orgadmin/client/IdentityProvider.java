package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An identity provider owned by an organization, as the service answers it (Keycloak's
 * {@code IdentityProviderRepresentation}): the client secret, when set, is
 * {@link IdentityProviderConfig#SECRET_MASK}. {@link #getRedirectUri()} is this service's addition:
 * the broker's callback, to register at the upstream. Immutable; to change one, start an
 * {@link IdentityProviderInput#from(IdentityProvider)}.
 */
public final class IdentityProvider {
    private final String alias;
    private final String displayName;
    private final String internalId;
    private final String providerId;
    private final boolean enabled;
    private final boolean trustEmail;
    private final boolean storeToken;
    private final boolean addReadTokenRoleOnCreate;
    private final boolean linkOnly;
    private final boolean hideOnLogin;
    private final String firstBrokerLoginFlowAlias;
    private final String postBrokerLoginFlowAlias;
    private final Map<String, String> config;
    private final String redirectUri;

    private IdentityProvider(Map<String, Object> map) {
        this.alias = Wire.string(map, "alias");
        this.displayName = Wire.nullableString(map, "displayName");
        this.internalId = Wire.nullableString(map, "internalId");
        this.providerId = Wire.string(map, "providerId");
        this.enabled = Wire.bool(map, "enabled");
        this.trustEmail = Wire.optionalBool(map, "trustEmail");
        this.storeToken = Wire.optionalBool(map, "storeToken");
        this.addReadTokenRoleOnCreate = Wire.optionalBool(map, "addReadTokenRoleOnCreate");
        this.linkOnly = Wire.optionalBool(map, "linkOnly");
        this.hideOnLogin = Wire.optionalBool(map, "hideOnLogin");
        this.firstBrokerLoginFlowAlias = Wire.nullableString(map, "firstBrokerLoginFlowAlias");
        this.postBrokerLoginFlowAlias = Wire.nullableString(map, "postBrokerLoginFlowAlias");
        this.config = Wire.stringMap(map, "config");
        this.redirectUri = Wire.nullableString(map, "redirectUri");
    }

    static IdentityProvider fromJson(Object json) {
        return new IdentityProvider(Wire.object(json, "an identity provider"));
    }

    /** The wire form; fields without a value are left out. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("alias", alias);
        if (displayName != null) out.put("displayName", displayName);
        if (internalId != null) out.put("internalId", internalId);
        out.put("providerId", providerId);
        out.put("enabled", enabled);
        out.put("trustEmail", trustEmail);
        out.put("storeToken", storeToken);
        out.put("addReadTokenRoleOnCreate", addReadTokenRoleOnCreate);
        out.put("linkOnly", linkOnly);
        out.put("hideOnLogin", hideOnLogin);
        if (firstBrokerLoginFlowAlias != null) out.put("firstBrokerLoginFlowAlias", firstBrokerLoginFlowAlias);
        if (postBrokerLoginFlowAlias != null) out.put("postBrokerLoginFlowAlias", postBrokerLoginFlowAlias);
        out.put("config", config);
        if (redirectUri != null) out.put("redirectUri", redirectUri);
        return out;
    }

    /** @return the alias: the provider's name, unique in the realm */
    public String getAlias() {
        return alias;
    }

    /** @return the name on the login page, or null */
    public String getDisplayName() {
        return displayName;
    }

    /** @return the service's internal id, or null */
    public String getInternalId() {
        return internalId;
    }

    /** @return the provider type, e.g. {@code oidc} */
    public String getProviderId() {
        return providerId;
    }

    /** @return whether sign-in through it is on */
    public boolean isEnabled() {
        return enabled;
    }

    /** @return whether email addresses from the upstream count as verified */
    public boolean isTrustEmail() {
        return trustEmail;
    }

    /** @return Keycloak's {@code storeToken} (false here) */
    public boolean isStoreToken() {
        return storeToken;
    }

    /** @return Keycloak's {@code addReadTokenRoleOnCreate} (false here) */
    public boolean isAddReadTokenRoleOnCreate() {
        return addReadTokenRoleOnCreate;
    }

    /** @return Keycloak's {@code linkOnly} */
    public boolean isLinkOnly() {
        return linkOnly;
    }

    /** @return Keycloak's {@code hideOnLogin} */
    public boolean isHideOnLogin() {
        return hideOnLogin;
    }

    /** @return the first-broker-login flow's alias, or null */
    public String getFirstBrokerLoginFlowAlias() {
        return firstBrokerLoginFlowAlias;
    }

    /** @return the post-broker-login flow's alias, or null */
    public String getPostBrokerLoginFlowAlias() {
        return postBrokerLoginFlowAlias;
    }

    /**
     * @return the settings (names in {@link IdentityProviderConfig}), unmodifiable; the client secret
     *     as {@link IdentityProviderConfig#SECRET_MASK}
     */
    public Map<String, String> getConfig() {
        return config;
    }

    /** @return the broker's callback to register at the upstream, or null when the service did not say */
    public String getRedirectUri() {
        return redirectUri;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof IdentityProvider)) return false;
        return toJson().equals(((IdentityProvider) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    /** @return the fields, a client secret other than the mask shown as {@code [redacted]} */
    @Override
    public String toString() {
        Map<String, Object> shown = toJson();
        shown.put("config", IdentityProviderConfig.redacted(config));
        return "IdentityProvider" + shown;
    }
}
