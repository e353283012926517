package dev.orgadmin.client;

import java.util.Map;
import java.util.Objects;

/**
 * An organization role (the vendor spec's {@code OrganizationRoleRepresentation}): what the role
 * operations of {@link OrgAdminClient} return, and a member's roles in
 * {@link Member#getOrganizations()}. To create one, {@link #named(String)}. Immutable.
 */
public final class OrganizationRole {
    private final String id;
    private final String name;
    private final String description;

    private OrganizationRole(String id, String name, String description) {
        this.id = id;
        this.name = name;
        this.description = description;
    }

    /**
     * A role to create, without a description.
     *
     * @param name the role's name, unique in its organization
     * @return the role (no id: the service gives it one)
     */
    public static OrganizationRole named(String name) {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("name must be a non-empty string");
        return new OrganizationRole(null, name, null);
    }

    /**
     * @param description the description, or null for none
     * @return a copy with that description
     */
    public OrganizationRole withDescription(String description) {
        return new OrganizationRole(id, name, description);
    }

    /** The body of a create: name and, when set, description. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new java.util.LinkedHashMap<>();
        out.put("name", name);
        if (description != null) out.put("description", description);
        return out;
    }

    static OrganizationRole fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "an organization role");
        return new OrganizationRole(Wire.nullableString(map, "id"), Wire.nullableString(map, "name"), Wire.nullableString(map, "description"));
    }

    /** @return the role's id, or null */
    public String getId() {
        return id;
    }

    /** @return the role's name, or null */
    public String getName() {
        return name;
    }

    /** @return the role's description, or null */
    public String getDescription() {
        return description;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof OrganizationRole)) return false;
        OrganizationRole other = (OrganizationRole) o;
        return Objects.equals(id, other.id) && Objects.equals(name, other.name) && Objects.equals(description, other.description);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, description);
    }

    @Override
    public String toString() {
        return "OrganizationRole{id=" + id + ", name=" + name + ", description=" + description + "}";
    }
}
