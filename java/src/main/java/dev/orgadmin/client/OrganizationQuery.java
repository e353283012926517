package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Query of "get organizations" and "get organizations count". Immutable: start with
 * {@link #all()} and narrow with the {@code with...} methods.
 *
 * <pre>{@code
 * OrganizationQuery.all().withSearch("glob").withAttribute("tier", "gold plus");
 * }</pre>
 */
public final class OrganizationQuery {
    private static final Pattern VALUE_NEEDS_QUOTES = Pattern.compile("\\s");
    private static final Pattern KEY_NEEDS_QUOTES = Pattern.compile("[\\s:]");

    private final String search;
    private final String q;
    private final Map<String, String> attributes;
    private final Integer first;
    private final Integer max;

    private OrganizationQuery(String search, String q, Map<String, String> attributes, Integer first, Integer max) {
        this.search = search;
        this.q = q;
        this.attributes = attributes;
        this.first = first;
        this.max = max;
    }

    /**
     * @return a query matching every organization
     */
    public static OrganizationQuery all() {
        return new OrganizationQuery(null, null, Map.of(), null, null);
    }

    /**
     * @param search case-insensitive substring of the name or display name
     * @return a new query
     */
    public OrganizationQuery withSearch(String search) {
        return new OrganizationQuery(search, q, attributes, first, max);
    }

    /**
     * @param q a raw attribute query ({@code key:value key2:"two words"}); replaces attribute matches
     * @return a new query
     */
    public OrganizationQuery withQ(String q) {
        return new OrganizationQuery(search, q, Map.of(), first, max);
    }

    /**
     * Adds an exact attribute match; rendered into {@code q}, quoting terms with spaces.
     *
     * @param key the attribute name; not empty, no double quote
     * @param value the value; not empty, no double quote
     * @return a new query
     * @throws IllegalArgumentException when a term is empty or contains a double quote, which q cannot express
     */
    public OrganizationQuery withAttribute(String key, String value) {
        renderTerm("an attribute name", key, KEY_NEEDS_QUOTES);
        renderTerm("the value of attribute \"" + key + "\"", value, VALUE_NEEDS_QUOTES);
        Map<String, String> next = new LinkedHashMap<>(attributes);
        next.put(key, value);
        return new OrganizationQuery(search, null, next, first, max);
    }

    /**
     * @param first offset, ≥ 0 (paged calls only)
     * @return a new query
     */
    public OrganizationQuery withFirst(int first) {
        if (first < 0) throw new IllegalArgumentException("first must be an integer >= 0, got " + first);
        return new OrganizationQuery(search, q, attributes, first, max);
    }

    /**
     * @param max page size, ≥ 0; the service cuts it to 100 (paged calls only)
     * @return a new query
     */
    public OrganizationQuery withMax(int max) {
        if (max < 0) throw new IllegalArgumentException("max must be an integer >= 0, got " + max);
        return new OrganizationQuery(search, q, attributes, first, max);
    }

    String search() {
        return search;
    }

    Integer first() {
        return first;
    }

    Integer max() {
        return max;
    }

    /** {@code q} as sent: the raw string, or the attribute matches rendered; null when neither. */
    String renderedQ() {
        if (q != null) return q;
        if (attributes.isEmpty()) return null;
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> match : attributes.entrySet()) {
            if (out.length() > 0) out.append(' ');
            out.append(renderTerm("an attribute name", match.getKey(), KEY_NEEDS_QUOTES)).append(':')
                    .append(renderTerm("the value of attribute \"" + match.getKey() + "\"", match.getValue(), VALUE_NEEDS_QUOTES));
        }
        return out.toString();
    }

    private static String renderTerm(String what, String term, Pattern needsQuotes) {
        if (term == null || term.isEmpty()) throw new IllegalArgumentException("q: " + what + " must not be empty");
        // Neither the service nor the hosted service can express a double quote inside a term.
        if (term.contains("\"")) throw new IllegalArgumentException("q: " + what + " contains a double quote, which q cannot express");
        return needsQuotes.matcher(term).find() ? "\"" + term + "\"" : term;
    }

    @Override
    public String toString() {
        return "OrganizationQuery{search=" + search + ", q=" + renderedQ() + ", first=" + first + ", max=" + max + "}";
    }
}
