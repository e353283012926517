package dev.orgadmin.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/** One entry of "get member info": an organization the token's subject belongs to. Immutable. */
public final class MemberInfoEntry {
    private final String name;
    private final String displayName;
    private final String url;
    private final Map<String, List<String>> attributes;
    private final List<String> roles;

    private MemberInfoEntry(String name, String displayName, String url, Map<String, List<String>> attributes, List<String> roles) {
        this.name = name;
        this.displayName = displayName;
        this.url = url;
        this.attributes = attributes;
        this.roles = roles;
    }

    static MemberInfoEntry fromJson(Object json) {
        Map<String, Object> map = Wire.object(json, "a member info entry");
        List<String> roles = Wire.stringList(map, "roles");
        return new MemberInfoEntry(Wire.string(map, "name"), Wire.nullableString(map, "displayName"),
                Wire.nullableString(map, "url"), Wire.attributes(map, "attributes"), roles == null ? List.of() : roles);
    }

    /**
     * @return the organization's name
     */
    public String getName() {
        return name;
    }

    /**
     * @return the display name, or null
     */
    public String getDisplayName() {
        return displayName;
    }

    /**
     * @return the URL, or null
     */
    public String getUrl() {
        return url;
    }

    /**
     * @return the organization's attributes, unmodifiable
     */
    public Map<String, List<String>> getAttributes() {
        return attributes;
    }

    /**
     * @return the subject's roles in the organization, unmodifiable
     */
    public List<String> getRoles() {
        return roles;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof MemberInfoEntry)) return false;
        MemberInfoEntry other = (MemberInfoEntry) o;
        return name.equals(other.name) && Objects.equals(displayName, other.displayName) && Objects.equals(url, other.url)
                && attributes.equals(other.attributes) && roles.equals(other.roles);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, displayName, url, attributes, roles);
    }

    @Override
    public String toString() {
        return "MemberInfoEntry{name=" + name + ", displayName=" + displayName + ", url=" + url + ", attributes=" + attributes
                + ", roles=" + roles + "}";
    }
}
