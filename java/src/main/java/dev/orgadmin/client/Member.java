package dev.orgadmin.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A member (a user of the realm) as the service returns it. Immutable. */
public final class Member {
    private final String id;
    private final String username;
    private final String email;
    private final String firstName;
    private final String lastName;
    private final boolean emailVerified;
    private final boolean enabled;
    private final long createdTimestamp;
    private final Map<String, List<OrganizationRole>> organizations;

    private Member(String id, String username, String email, String firstName, String lastName, boolean emailVerified,
                   boolean enabled, long createdTimestamp, Map<String, List<OrganizationRole>> organizations) {
        this.id = id;
        this.username = username;
        this.email = email;
        this.firstName = firstName;
        this.lastName = lastName;
        this.emailVerified = emailVerified;
        this.enabled = enabled;
        this.createdTimestamp = createdTimestamp;
        this.organizations = organizations;
    }

    /** Reads the service's representation; throws {@link Wire.ShapeException} on a wrong shape. */
    static Member fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "the member");
        return new Member(Wire.string(map, "id"), Wire.string(map, "username"), Wire.nullableString(map, "email"),
                Wire.nullableString(map, "firstName"), Wire.nullableString(map, "lastName"), Wire.bool(map, "emailVerified"),
                Wire.bool(map, "enabled"), Wire.integer(map, "createdTimestamp"), organizations(map.get("organizations")));
    }

    /** {@code organizations}: organization id → the member's roles there; null when absent. */
    private static Map<String, List<OrganizationRole>> organizations(Object json) {
        if (json == null) return null;
        Map<String, List<OrganizationRole>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> entry : Wire.object(json, "\"organizations\"").entrySet()) {
            List<OrganizationRole> roles = new ArrayList<>();
            for (Object role : Wire.array(entry.getValue(), "the roles in organization \"" + entry.getKey() + "\"")) {
                roles.add(OrganizationRole.fromJson(role));
            }
            out.put(entry.getKey(), Collections.unmodifiableList(roles));
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * @return the user id
     */
    public String getId() {
        return id;
    }

    /**
     * @return the username
     */
    public String getUsername() {
        return username;
    }

    /**
     * @return the email address, or null
     */
    public String getEmail() {
        return email;
    }

    /**
     * @return the first name, or null
     */
    public String getFirstName() {
        return firstName;
    }

    /**
     * @return the last name, or null
     */
    public String getLastName() {
        return lastName;
    }

    /**
     * @return whether the email address is verified
     */
    public boolean isEmailVerified() {
        return emailVerified;
    }

    /**
     * @return whether the user is enabled
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * @return when the user was created, in milliseconds since the epoch
     */
    public long getCreatedTimestamp() {
        return createdTimestamp;
    }

    /**
     * @return the organizations the user belongs to (id → the user's roles there, in the service's
     *     order), when the listing asked for them ({@link MemberQuery#withIncludeOrgs(boolean)});
     *     null otherwise. Unmodifiable.
     */
    public Map<String, List<OrganizationRole>> getOrganizations() {
        return organizations;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Member)) return false;
        Member other = (Member) o;
        return id.equals(other.id) && username.equals(other.username) && Objects.equals(email, other.email)
                && Objects.equals(firstName, other.firstName) && Objects.equals(lastName, other.lastName)
                && emailVerified == other.emailVerified && enabled == other.enabled
                && createdTimestamp == other.createdTimestamp && Objects.equals(organizations, other.organizations);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, username, email, firstName, lastName, emailVerified, enabled, createdTimestamp, organizations);
    }

    @Override
    public String toString() {
        return "Member{id=" + id + ", username=" + username + ", email=" + email + ", firstName=" + firstName
                + ", lastName=" + lastName + ", emailVerified=" + emailVerified + ", enabled=" + enabled
                + ", createdTimestamp=" + createdTimestamp + (organizations == null ? "" : ", organizations=" + organizations) + "}";
    }
}
