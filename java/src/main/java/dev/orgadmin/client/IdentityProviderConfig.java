package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The names of the {@code config} settings of an identity provider that the service reads
 * (Keycloak's names; the Java twin of {@code IDP_CONFIG} in {@code src/api/identity-provider-settings.ts}),
 * the mask that stands in for a client secret, and the one place that keeps secrets out of
 * {@code toString()}.
 */
public final class IdentityProviderConfig {
    private IdentityProviderConfig() {
    }

    /**
     * What stands in for a client secret in every answer (Keycloak's mask). Sending it back in an
     * update keeps the stored secret.
     */
    public static final String SECRET_MASK = "**********";

    /** The upstream client's id. */
    public static final String CLIENT_ID = "clientId";
    /** The upstream client's secret: never answered (masked), never in {@code toString()}. */
    public static final String CLIENT_SECRET = "clientSecret";
    /** {@code client_secret_post} (the default) or {@code client_secret_basic}. */
    public static final String CLIENT_AUTH_METHOD = "clientAuthMethod";
    /** The upstream's issuer. */
    public static final String ISSUER = "issuer";
    /** The upstream's discovery document (Keycloak's name for it). */
    public static final String DISCOVERY_URL = "metadataDescriptorUrl";
    /** The upstream's authorization endpoint. */
    public static final String AUTHORIZATION_URL = "authorizationUrl";
    /** The upstream's token endpoint. */
    public static final String TOKEN_URL = "tokenUrl";
    /** The upstream's key set. */
    public static final String JWKS_URL = "jwksUrl";
    /** Scopes asked of the upstream (default {@code openid email profile}). */
    public static final String DEFAULT_SCOPE = "defaultScope";
    /** When mappers apply: {@code IMPORT}, {@code FORCE} (the default) or {@code LEGACY}. */
    public static final String SYNC_MODE = "syncMode";
    /** {@code ##}-separated email domains the provider signs in (default: the organization's verified domains). */
    public static final String DOMAINS = "home.idp.discovery.domains";
    /** The organization that owns the provider (set by the service). */
    public static final String ORGANIZATION = "home.idp.discovery.org";

    /** Config settings whose values are secrets. */
    private static final Set<String> SECRET_SETTINGS = Set.of(CLIENT_SECRET);

    /** A copy of {@code config} for {@code toString()}: secrets other than the mask read {@code [redacted]}. */
    static Map<String, String> redacted(Map<String, String> config) {
        if (config == null) return null;
        Map<String, String> out = new LinkedHashMap<>(config);
        for (String name : SECRET_SETTINGS) {
            String value = out.get(name);
            if (value != null && !value.equals(SECRET_MASK)) out.put(name, "[redacted]");
        }
        return out;
    }

    /** The secrets {@code config} carries (not the mask), for redaction from error answers. */
    static java.util.List<String> secrets(Map<String, String> config) {
        java.util.List<String> out = new java.util.ArrayList<>();
        if (config == null) return out;
        for (String name : SECRET_SETTINGS) {
            String value = config.get(name);
            if (value != null && !value.isEmpty() && !value.equals(SECRET_MASK)) out.add(value);
        }
        return out;
    }
}
