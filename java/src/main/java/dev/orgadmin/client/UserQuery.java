package dev.orgadmin.client;

/**
 * Query of the user lookup ({@code view-users}). Immutable: start with {@link #byEmail(String)},
 * {@link #byUsername(String)} or {@link #search(String)}.
 */
public final class UserQuery {
    private final String username;
    private final String email;
    private final String search;
    private final Boolean exact;
    private final Integer first;
    private final Integer max;

    private UserQuery(String username, String email, String search, Boolean exact, Integer first, Integer max) {
        this.username = username;
        this.email = email;
        this.search = search;
        this.exact = exact;
        this.first = first;
        this.max = max;
    }

    /**
     * @param email the address (exact match)
     * @return a query
     */
    public static UserQuery byEmail(String email) {
        return new UserQuery(null, email, null, true, null, null);
    }

    /**
     * @param username the username (exact match)
     * @return a query
     */
    public static UserQuery byUsername(String username) {
        return new UserQuery(username, null, null, true, null, null);
    }

    /**
     * @param search free text over username, email, first and last name
     * @return a query
     */
    public static UserQuery search(String search) {
        return new UserQuery(null, null, search, null, null, null);
    }

    /**
     * @param exact match username and email exactly (true) or as substrings (false)
     * @return a new query
     */
    public UserQuery withExact(boolean exact) {
        return new UserQuery(username, email, search, exact, first, max);
    }

    /**
     * @param first offset, ≥ 0
     * @return a new query
     */
    public UserQuery withFirst(int first) {
        if (first < 0) throw new IllegalArgumentException("first must be an integer >= 0, got " + first);
        return new UserQuery(username, email, search, exact, first, max);
    }

    /**
     * @param max page size, ≥ 0
     * @return a new query
     */
    public UserQuery withMax(int max) {
        if (max < 0) throw new IllegalArgumentException("max must be an integer >= 0, got " + max);
        return new UserQuery(username, email, search, exact, first, max);
    }

    String username() {
        return username;
    }

    String email() {
        return email;
    }

    String searchText() {
        return search;
    }

    Boolean exact() {
        return exact;
    }

    Integer first() {
        return first;
    }

    Integer max() {
        return max;
    }

    @Override
    public String toString() {
        return "UserQuery{username=" + username + ", email=" + email + ", search=" + search + ", exact=" + exact
                + ", first=" + first + ", max=" + max + "}";
    }
}
