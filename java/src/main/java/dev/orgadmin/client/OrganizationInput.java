package dev.orgadmin.client;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The body of create and update. Immutable: start with {@link #named(String)} and add fields with
 * the {@code with...} methods, each of which returns a new input.
 *
 * <p>On update, {@code displayName}, {@code url} and {@code attributes} that are not set are
 * cleared; {@code domains} are replaced only when set. {@code id} is honoured on create only; a
 * create that carries one is repeatable, so the SDK retries it after a timeout, a dropped connection
 * or a 502/503/504 like an idempotent request (see {@link RetryPolicy}); a retry that meets the first
 * attempt's organization is answered 409.
 *
 * <pre>{@code
 * OrganizationInput.named("globex").withDisplayName("Globex").withDomains("globex.example.com")
 *     .withAttribute("tier", "gold");
 * }</pre>
 */
public final class OrganizationInput {
    private final String id;
    private final String name;
    private final String displayName;
    private final String url;
    private final List<String> domains;
    private final Map<String, List<String>> attributes;

    private OrganizationInput(String id, String name, String displayName, String url, List<String> domains,
                              Map<String, List<String>> attributes) {
        this.id = id;
        this.name = name;
        this.displayName = displayName;
        this.url = url;
        this.domains = domains;
        this.attributes = attributes;
    }

    /**
     * @param name the organization's unique name within the realm; not empty
     * @return an input with only the name set
     */
    public static OrganizationInput named(String name) {
        return new OrganizationInput(null, Wire.requireText(name, "name"), null, null, null, null);
    }

    /**
     * @param id the id to create the organization with (create only); not empty
     * @return a new input
     */
    public OrganizationInput withId(String id) {
        return new OrganizationInput(Wire.requireText(id, "id"), name, displayName, url, domains, attributes);
    }

    /**
     * @param name the new name; not empty
     * @return a new input
     */
    public OrganizationInput withName(String name) {
        return new OrganizationInput(id, Wire.requireText(name, "name"), displayName, url, domains, attributes);
    }

    /**
     * @param displayName the display name, or null to leave it unset
     * @return a new input
     */
    public OrganizationInput withDisplayName(String displayName) {
        return new OrganizationInput(id, name, displayName, url, domains, attributes);
    }

    /**
     * @param url the URL, or null to leave it unset
     * @return a new input
     */
    public OrganizationInput withUrl(String url) {
        return new OrganizationInput(id, name, displayName, url, domains, attributes);
    }

    /**
     * @param domains the domains (replaces any set before)
     * @return a new input
     */
    public OrganizationInput withDomains(List<String> domains) {
        return new OrganizationInput(id, name, displayName, url, List.copyOf(domains), attributes);
    }

    /**
     * @param domains the domains (replaces any set before)
     * @return a new input
     */
    public OrganizationInput withDomains(String... domains) {
        return withDomains(Arrays.asList(domains));
    }

    /**
     * @param attributes name → values (replaces any set before)
     * @return a new input
     */
    public OrganizationInput withAttributes(Map<String, List<String>> attributes) {
        return new OrganizationInput(id, name, displayName, url, domains, Wire.copyAttributes(attributes));
    }

    /**
     * @param key an attribute name
     * @param values its values (replace that attribute's values)
     * @return a new input
     */
    public OrganizationInput withAttribute(String key, String... values) {
        Map<String, List<String>> next = new LinkedHashMap<>(attributes == null ? Map.of() : attributes);
        next.put(key, List.of(values));
        return withAttributes(next);
    }

    /**
     * @return the id to create with, or null
     */
    public String getId() {
        return id;
    }

    /**
     * @return the name
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
     * @return the domains, or null when not set
     */
    public List<String> getDomains() {
        return domains;
    }

    /**
     * @return the attributes, or null when not set
     */
    public Map<String, List<String>> getAttributes() {
        return attributes;
    }

    /** The JSON body: only the fields that are set. */
    Map<String, Object> toJson() {
        Map<String, Object> body = new LinkedHashMap<>();
        if (id != null) body.put("id", id);
        body.put("name", name);
        if (displayName != null) body.put("displayName", displayName);
        if (url != null) body.put("url", url);
        if (domains != null) body.put("domains", domains);
        if (attributes != null) body.put("attributes", attributes);
        return body;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof OrganizationInput)) return false;
        OrganizationInput other = (OrganizationInput) o;
        return toJson().equals(other.toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "OrganizationInput" + toJson();
    }
}
