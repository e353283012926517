package dev.orgadmin.client;

/**
 * Query of "get organization memberships". Immutable: start with {@link #all()}.
 * For {@link OrgAdminClient#listMembers(String, MemberQuery)} (every page), {@code max} is the page
 * size (default 100, at most 1000) and {@code first} is ignored.
 */
public final class MemberQuery {
    private final String search;
    private final Integer first;
    private final Integer max;
    private final Boolean excludeAdminAccounts;
    private final Boolean includeOrgs;

    private MemberQuery(String search, Integer first, Integer max, Boolean excludeAdminAccounts, Boolean includeOrgs) {
        this.search = search;
        this.first = first;
        this.max = max;
        this.excludeAdminAccounts = excludeAdminAccounts;
        this.includeOrgs = includeOrgs;
    }

    /**
     * @return a query matching every member
     */
    public static MemberQuery all() {
        return new MemberQuery(null, null, null, null, null);
    }

    /**
     * @param search comma-separated terms matching username, email, first or last name
     * @return a new query
     */
    public MemberQuery withSearch(String search) {
        return new MemberQuery(search, first, max, excludeAdminAccounts, includeOrgs);
    }

    /**
     * @param first offset, ≥ 0
     * @return a new query
     */
    public MemberQuery withFirst(int first) {
        if (first < 0) throw new IllegalArgumentException("first must be an integer >= 0, got " + first);
        return new MemberQuery(search, first, max, excludeAdminAccounts, includeOrgs);
    }

    /**
     * @param max page size, ≥ 1; the service caps it at 1000
     * @return a new query
     */
    public MemberQuery withMax(int max) {
        if (max < 1) throw new IllegalArgumentException("max must be an integer >= 1, got " + max);
        return new MemberQuery(search, first, max, excludeAdminAccounts, includeOrgs);
    }

    /**
     * @param exclude leave out the organization's default admin user
     * @return a new query
     */
    public MemberQuery withExcludeAdminAccounts(boolean exclude) {
        return new MemberQuery(search, first, max, exclude, includeOrgs);
    }

    /**
     * @param include fill each member's {@link Member#getOrganizations()}
     * @return a new query
     */
    public MemberQuery withIncludeOrgs(boolean include) {
        return new MemberQuery(search, first, max, excludeAdminAccounts, include);
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

    Boolean excludeAdminAccounts() {
        return excludeAdminAccounts;
    }

    Boolean includeOrgs() {
        return includeOrgs;
    }

    @Override
    public String toString() {
        return "MemberQuery{search=" + search + ", first=" + first + ", max=" + max + ", excludeAdminAccounts="
                + excludeAdminAccounts + ", includeOrgs=" + includeOrgs + "}";
    }
}
