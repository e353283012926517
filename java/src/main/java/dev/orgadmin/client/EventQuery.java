package dev.orgadmin.client;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Query of the audit log ({@link OrgAdminClient#listEvents}). Immutable: start with {@link #all()}
 * and narrow with the {@code with...} methods.
 *
 * <pre>{@code
 * EventQuery.all().withTypes("admin.WEBHOOK-*", "admin.IDENTITY_PROVIDER-*").withResourcePath("orgs/" + orgId)
 *     .withFrom(Instant.now().minus(Duration.ofDays(1))).withMax(500);
 * }</pre>
 */
public final class EventQuery {
    private final List<String> types;
    private final String resourcePath;
    private final String actor;
    private final String from;
    private final String to;
    private final Integer first;
    private final Integer max;

    private EventQuery(List<String> types, String resourcePath, String actor, String from, String to, Integer first, Integer max) {
        this.types = types;
        this.resourcePath = resourcePath;
        this.actor = actor;
        this.from = from;
        this.to = to;
        this.first = first;
        this.max = max;
    }

    /**
     * @return a query of every event (the newest page of the service's default size, 100)
     */
    public static EventQuery all() {
        return new EventQuery(List.of(), null, null, null, null, null, null);
    }

    /**
     * @param types event types, each exact or with {@code *} ({@code admin.ORGANIZATION-*},
     *     {@code access.LOGIN_ERROR}); an event matching any is included. None: every type
     * @return a new query
     */
    public EventQuery withTypes(String... types) {
        return withTypes(Arrays.asList(types));
    }

    /**
     * @param types event types, each exact or with {@code *}; replaces any set before
     * @return a new query
     */
    public EventQuery withTypes(List<String> types) {
        for (String type : types) {
            if (type == null || type.isEmpty()) throw new IllegalArgumentException("types must hold non-empty strings");
            // The service takes several types comma-separated in one parameter.
            if (type.contains(",")) throw new IllegalArgumentException("an event type cannot contain a comma: " + type);
        }
        return new EventQuery(List.copyOf(types), resourcePath, actor, from, to, first, max);
    }

    /**
     * @param resourcePath only events whose resource path starts with this, e.g. {@code orgs/{id}}; null for any
     * @return a new query
     */
    public EventQuery withResourcePath(String resourcePath) {
        return new EventQuery(types, resourcePath, actor, from, to, first, max);
    }

    /**
     * @param actor only events of this actor: an API key's client id or a user id; null for any
     * @return a new query
     */
    public EventQuery withActor(String actor) {
        return new EventQuery(types, resourcePath, actor, from, to, first, max);
    }

    /**
     * @param from only events at or after this instant
     * @return a new query
     */
    public EventQuery withFrom(Instant from) {
        return new EventQuery(types, resourcePath, actor, String.valueOf(Objects.requireNonNull(from, "from").toEpochMilli()), to, first, max);
    }

    /**
     * @param from only events at or after this time: an ISO 8601 date ({@code 2026-01-31}) or date-time, or milliseconds since the epoch
     * @return a new query
     */
    public EventQuery withFrom(String from) {
        return new EventQuery(types, resourcePath, actor, Wire.requireText(from, "from"), to, first, max);
    }

    /**
     * @param to only events before this instant
     * @return a new query
     */
    public EventQuery withTo(Instant to) {
        return new EventQuery(types, resourcePath, actor, from, String.valueOf(Objects.requireNonNull(to, "to").toEpochMilli()), first, max);
    }

    /**
     * @param to only events before this time, same forms as {@link #withFrom(String)}; a date alone includes the whole of that day
     * @return a new query
     */
    public EventQuery withTo(String to) {
        return new EventQuery(types, resourcePath, actor, from, Wire.requireText(to, "to"), first, max);
    }

    /**
     * @param first offset, ≥ 0
     * @return a new query
     */
    public EventQuery withFirst(int first) {
        if (first < 0) throw new IllegalArgumentException("first must be an integer >= 0, got " + first);
        return new EventQuery(types, resourcePath, actor, from, to, first, max);
    }

    /**
     * @param max page size, ≥ 0 (the service's default 100, its cap 1000)
     * @return a new query
     */
    public EventQuery withMax(int max) {
        if (max < 0) throw new IllegalArgumentException("max must be an integer >= 0, got " + max);
        return new EventQuery(types, resourcePath, actor, from, to, first, max);
    }

    /** {@code type} as sent: the types comma-separated, or null for any. */
    String renderedTypes() {
        return types.isEmpty() ? null : String.join(",", types);
    }

    String resourcePath() {
        return resourcePath;
    }

    String actor() {
        return actor;
    }

    String from() {
        return from;
    }

    String to() {
        return to;
    }

    Integer first() {
        return first;
    }

    Integer max() {
        return max;
    }

    @Override
    public String toString() {
        return "EventQuery{types=" + types + ", resourcePath=" + resourcePath + ", actor=" + actor + ", from=" + from + ", to=" + to
                + ", first=" + first + ", max=" + max + "}";
    }
}
