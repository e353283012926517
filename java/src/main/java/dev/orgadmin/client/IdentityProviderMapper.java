package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A mapper of an identity provider (Keycloak's {@code IdentityProviderMapperRepresentation}): what
 * the mapper operations of {@link OrgAdminClient} return, and, built with {@link #of(String, String)},
 * the body of create and update. Immutable.
 *
 * <pre>{@code
 * IdentityProviderMapper.of("username", IdentityProviderMapper.USERNAME_TEMPLATE).withConfig("template", "${CLAIM.email}");
 * }</pre>
 */
public final class IdentityProviderMapper {
    /** Copies a claim of the ID token into a user field (config {@code claim}, {@code user.attribute}). */
    public static final String ATTRIBUTE = "oidc-user-attribute-idp-mapper";
    /** Makes the new user's username from a template (config {@code template}). */
    public static final String USERNAME_TEMPLATE = "oidc-username-idp-mapper";
    /** Grants organization roles in the provider's organization (config {@code org_role}, several separated by {@code ##}). */
    public static final String ORGANIZATION_ROLES = "oidc-hardcoded-org-role-idp-mapper";

    private final String id;
    private final String name;
    private final String identityProviderAlias;
    private final String identityProviderMapper;
    private final Map<String, String> config;

    private IdentityProviderMapper(String id, String name, String identityProviderAlias, String identityProviderMapper, Map<String, String> config) {
        this.id = id;
        this.name = name;
        this.identityProviderAlias = identityProviderAlias;
        this.identityProviderMapper = identityProviderMapper;
        this.config = config;
    }

    /**
     * A mapper to create or update.
     *
     * @param name the mapper's name, unique for its provider; not empty
     * @param type the mapper type ({@code identityProviderMapper}), e.g. {@link #USERNAME_TEMPLATE}; not empty
     * @return the mapper, without config (no id: the service gives it one)
     */
    public static IdentityProviderMapper of(String name, String type) {
        return new IdentityProviderMapper(null, Wire.requireText(name, "name"), null, Wire.requireText(type, "type"), Map.of());
    }

    /**
     * @param config every setting; replaces any set before
     * @return a copy with that config
     */
    public IdentityProviderMapper withConfig(Map<String, String> config) {
        return new IdentityProviderMapper(id, name, identityProviderAlias, identityProviderMapper, Wire.copyStringMap(config, "config"));
    }

    /**
     * @param key a setting's name
     * @param value its value
     * @return a copy with that setting replaced
     */
    public IdentityProviderMapper withConfig(String key, String value) {
        Map<String, String> next = new LinkedHashMap<>(config);
        next.put(Wire.requireText(key, "config name"), Objects.requireNonNull(value, "config value"));
        return withConfig(next);
    }

    static IdentityProviderMapper fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "a mapper");
        return new IdentityProviderMapper(Wire.string(map, "id"), Wire.string(map, "name"), Wire.nullableString(map, "identityProviderAlias"),
                Wire.string(map, "identityProviderMapper"), Wire.stringMap(map, "config"));
    }

    /** The wire form: the body of create and update (no id or alias: the path's), or the representation as read. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (id != null) out.put("id", id);
        out.put("name", name);
        if (identityProviderAlias != null) out.put("identityProviderAlias", identityProviderAlias);
        out.put("identityProviderMapper", identityProviderMapper);
        out.put("config", config);
        return out;
    }

    /** @return the mapper's id, or null for one to create */
    public String getId() {
        return id;
    }

    /** @return the mapper's name */
    public String getName() {
        return name;
    }

    /** @return the provider's alias, or null for one to create */
    public String getIdentityProviderAlias() {
        return identityProviderAlias;
    }

    /** @return the mapper type */
    public String getIdentityProviderMapper() {
        return identityProviderMapper;
    }

    /** @return the settings, unmodifiable */
    public Map<String, String> getConfig() {
        return config;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof IdentityProviderMapper)) return false;
        return toJson().equals(((IdentityProviderMapper) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "IdentityProviderMapper" + toJson();
    }
}
