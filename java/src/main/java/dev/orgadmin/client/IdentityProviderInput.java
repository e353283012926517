package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The body of {@link OrgAdminClient#createIdentityProvider} and
 * {@link OrgAdminClient#updateIdentityProvider}. Immutable: start with {@link #aliased(String)} (or
 * {@link #from(IdentityProvider)} to change a provider as read) and add fields with the
 * {@code with...} methods, each of which returns a new input.
 *
 * <p>An update replaces the settings: send the client secret as
 * {@link IdentityProviderConfig#SECRET_MASK} (what {@link #from(IdentityProvider)} carries) to keep
 * the stored one. The client secret never appears in {@link #toString()}, and an error answer that
 * repeats it has it redacted.
 *
 * <pre>{@code
 * IdentityProviderInput.aliased("globex-okta").withDisplayName("Globex Okta")
 *     .withConfig(IdentityProviderConfig.ISSUER, "https://login.globex.example")
 *     .withConfig(IdentityProviderConfig.CLIENT_ID, "broker")
 *     .withClientSecret(secret);
 * }</pre>
 */
public final class IdentityProviderInput {
    private final String alias;
    private final String displayName;
    private final String providerId;
    private final Boolean enabled;
    private final Boolean trustEmail;
    private final Map<String, String> config;

    private IdentityProviderInput(String alias, String displayName, String providerId, Boolean enabled, Boolean trustEmail,
                                  Map<String, String> config) {
        this.alias = alias;
        this.displayName = displayName;
        this.providerId = providerId;
        this.enabled = enabled;
        this.trustEmail = trustEmail;
        this.config = config;
    }

    /**
     * @param alias the provider's name, unique in the realm; not empty (on update, the path's alias wins)
     * @return an input with only the alias set (provider type {@code oidc}, enabled, by the service's defaults)
     */
    public static IdentityProviderInput aliased(String alias) {
        return new IdentityProviderInput(Wire.requireText(alias, "alias"), null, null, null, null, Map.of());
    }

    /**
     * An input that restates {@code provider} as read, its client secret as the mask (so an update
     * keeps the stored secret); change what you mean to change with the {@code with...} methods.
     *
     * @param provider a provider as {@link OrgAdminClient#getIdentityProvider} answered it
     * @return the input
     */
    public static IdentityProviderInput from(IdentityProvider provider) {
        Objects.requireNonNull(provider, "provider");
        Map<String, String> config = new LinkedHashMap<>(provider.getConfig());
        // Set by the service from the owning organization; not a setting a request makes.
        config.remove(IdentityProviderConfig.ORGANIZATION);
        return new IdentityProviderInput(provider.getAlias(), provider.getDisplayName(), provider.getProviderId(), provider.isEnabled(),
                provider.isTrustEmail(), Wire.copyStringMap(config, "config"));
    }

    /**
     * @param displayName the name on the login page, or null for none
     * @return a new input
     */
    public IdentityProviderInput withDisplayName(String displayName) {
        return new IdentityProviderInput(alias, displayName, providerId, enabled, trustEmail, config);
    }

    /**
     * @param providerId {@code oidc} (the default) or {@code keycloak-oidc}
     * @return a new input
     */
    public IdentityProviderInput withProviderId(String providerId) {
        return new IdentityProviderInput(alias, displayName, Wire.requireText(providerId, "providerId"), enabled, trustEmail, config);
    }

    /**
     * @param enabled whether sign-in through it is on (default true)
     * @return a new input
     */
    public IdentityProviderInput withEnabled(boolean enabled) {
        return new IdentityProviderInput(alias, displayName, providerId, enabled, trustEmail, config);
    }

    /**
     * @param trustEmail whether email addresses from the upstream count as verified (default false)
     * @return a new input
     */
    public IdentityProviderInput withTrustEmail(boolean trustEmail) {
        return new IdentityProviderInput(alias, displayName, providerId, enabled, trustEmail, config);
    }

    /**
     * @param config every setting (names in {@link IdentityProviderConfig}); replaces any set before
     * @return a new input
     */
    public IdentityProviderInput withConfig(Map<String, String> config) {
        return new IdentityProviderInput(alias, displayName, providerId, enabled, trustEmail, Wire.copyStringMap(config, "config"));
    }

    /**
     * @param name a setting's name (see {@link IdentityProviderConfig})
     * @param value its value
     * @return a new input with that setting replaced
     */
    public IdentityProviderInput withConfig(String name, String value) {
        Map<String, String> next = new LinkedHashMap<>(config);
        next.put(Wire.requireText(name, "config name"), Objects.requireNonNull(value, "config value"));
        return withConfig(next);
    }

    /**
     * @param clientSecret the upstream client's secret, or {@link IdentityProviderConfig#SECRET_MASK}
     *     to keep the stored one on update
     * @return a new input
     */
    public IdentityProviderInput withClientSecret(String clientSecret) {
        return withConfig(IdentityProviderConfig.CLIENT_SECRET, clientSecret);
    }

    /** @return the alias */
    public String getAlias() {
        return alias;
    }

    /** @return the display name, or null */
    public String getDisplayName() {
        return displayName;
    }

    /** @return the provider type, or null for the service's default */
    public String getProviderId() {
        return providerId;
    }

    /** @return whether it is enabled, or null for the service's default */
    public Boolean getEnabled() {
        return enabled;
    }

    /** @return whether upstream emails are trusted, or null for the service's default */
    public Boolean getTrustEmail() {
        return trustEmail;
    }

    /** @return the settings, unmodifiable (the client secret included: do not log them) */
    public Map<String, String> getConfig() {
        return config;
    }

    /** The JSON body: only the fields that are set. */
    Map<String, Object> toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("alias", alias);
        if (displayName != null) body.put("displayName", displayName);
        if (providerId != null) body.put("providerId", providerId);
        if (enabled != null) body.put("enabled", enabled);
        if (trustEmail != null) body.put("trustEmail", trustEmail);
        body.put("config", config);
        return body;
    }

    /** The secrets the body carries, for redaction from error answers. */
    List<String> secrets() {
        return IdentityProviderConfig.secrets(config);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof IdentityProviderInput)) return false;
        return toJson().equals(((IdentityProviderInput) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    /** @return the fields, the client secret (unless the mask) shown as {@code [redacted]} */
    @Override
    public String toString() {
        Map<String, Object> shown = toJson();
        shown.put("config", IdentityProviderConfig.redacted(config));
        return "IdentityProviderInput" + shown;
    }
}
