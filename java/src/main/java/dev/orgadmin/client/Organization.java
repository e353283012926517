package dev.orgadmin.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** An organization as the service returns it. Immutable. */
public final class Organization {
    private final String id;
    private final String name;
    private final String displayName;
    private final String url;
    private final List<String> domains;
    private final Map<String, List<String>> attributes;
    private final String realm;

    private Organization(String id, String name, String displayName, String url, List<String> domains,
                         Map<String, List<String>> attributes, String realm) {
        this.id = id;
        this.name = name;
        this.displayName = displayName;
        this.url = url;
        this.domains = domains;
        this.attributes = attributes;
        this.realm = realm;
    }

    /** Reads the service's representation; throws {@link Wire.ShapeException} on a wrong shape. */
    static Organization fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "the organization");
        List<String> domains = Wire.stringList(map, "domains");
        return new Organization(Wire.string(map, "id"), Wire.string(map, "name"), Wire.nullableString(map, "displayName"),
                Wire.nullableString(map, "url"), domains == null ? List.of() : domains, Wire.attributes(map, "attributes"),
                Wire.string(map, "realm"));
    }

    /**
     * @return the id (a UUID, or the id chosen at creation)
     */
    public String getId() {
        return id;
    }

    /**
     * @return the unique name within the realm
     */
    public String getName() {
        return name;
    }

    /**
     * @return the display name, or null when unset
     */
    public String getDisplayName() {
        return displayName;
    }

    /**
     * @return the URL, or null when unset
     */
    public String getUrl() {
        return url;
    }

    /**
     * @return the domains, unmodifiable, possibly empty
     */
    public List<String> getDomains() {
        return domains;
    }

    /**
     * @return the attributes (name → values), unmodifiable, possibly empty
     */
    public Map<String, List<String>> getAttributes() {
        return attributes;
    }

    /**
     * @return the realm the organization belongs to
     */
    public String getRealm() {
        return realm;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Organization)) return false;
        Organization other = (Organization) o;
        return id.equals(other.id) && name.equals(other.name) && Objects.equals(displayName, other.displayName)
                && Objects.equals(url, other.url) && domains.equals(other.domains) && attributes.equals(other.attributes)
                && realm.equals(other.realm);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, displayName, url, domains, attributes, realm);
    }

    @Override
    public String toString() {
        return "Organization{id=" + id + ", name=" + name + ", displayName=" + displayName + ", url=" + url
                + ", domains=" + domains + ", attributes=" + attributes + ", realm=" + realm + "}";
    }
}
