package dev.orgadmin.client;

import java.util.Map;
import java.util.Objects;

/**
 * One organization role of a member, in {@link Member#getOrganizations()} (the vendor spec's
 * {@code OrganizationRoleRepresentation}). orgadmin itself has no organization roles, so its lists are
 * empty; the hosted service may fill them. Immutable.
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
