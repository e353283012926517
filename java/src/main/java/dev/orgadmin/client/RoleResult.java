package dev.orgadmin.client;

import java.util.Map;
import java.util.Objects;

/**
 * What one role of a bulk request (create, delete, grant or revoke many) came to, in the order of
 * the request: {@link #isOk()} when the service did it (status 201 created or granted, 204 deleted
 * or revoked), otherwise {@link #getError()} says why not (status 400). Immutable.
 */
public final class RoleResult {
    private final String name;
    private final int status;
    private final String error;
    private final OrganizationRole role;

    private RoleResult(String name, int status, String error, OrganizationRole role) {
        this.name = name;
        this.status = status;
        this.error = error;
        this.role = role;
    }

    /** Reads one entry of a 207 answer ({@code BulkResponseItem}) for the role asked as {@code name}. */
    static RoleResult fromJson(String name, Object json) {
        Map<String, Object> map = Wire.object(json, "a bulk result");
        Object status = map.get("status");
        if (!(status instanceof Long)) throw new Wire.ShapeException("expected \"status\" to be an integer");
        Object item = map.get("item");
        OrganizationRole role = null;
        if (item != null) {
            OrganizationRole read = OrganizationRole.fromJson(item);
            role = read.getId() != null && read.getName() != null ? read : null;
        }
        return new RoleResult(name, ((Long) status).intValue(), Wire.nullableString(map, "error"), role);
    }

    /** @return the role's name, as asked */
    public String getName() {
        return name;
    }

    /** @return the entry's own status */
    public int getStatus() {
        return status;
    }

    /** @return true for a 2xx entry: the service did it */
    public boolean isOk() {
        return status >= 200 && status < 300;
    }

    /** @return why the service refused this role, or null when {@link #isOk()} */
    public String getError() {
        return error;
    }

    /** @return the role concerned as the service answered it, or null when refused (or only named) */
    public OrganizationRole getRole() {
        return role;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof RoleResult)) return false;
        RoleResult other = (RoleResult) o;
        return status == other.status && name.equals(other.name) && Objects.equals(error, other.error) && Objects.equals(role, other.role);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, status, error, role);
    }

    @Override
    public String toString() {
        return "RoleResult{name=" + name + ", status=" + status + ", error=" + error + ", role=" + role + "}";
    }
}
