package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A webhook of the realm as the service answers it (the vendor's {@code WebhookRepresentation}):
 * never its secret, which only {@link OrgAdminClient#getWebhookSecret} reads. Immutable.
 */
public final class Webhook {
    private final String id;
    private final boolean enabled;
    private final String url;
    private final List<String> eventTypes;
    private final String createdBy;
    private final long createdAt;
    private final String realm;

    private Webhook(Map<String, Object> map) {
        this.id = Wire.string(map, "id");
        this.enabled = Wire.bool(map, "enabled");
        this.url = Wire.string(map, "url");
        List<String> types = Wire.stringList(map, "eventTypes");
        this.eventTypes = types == null ? List.of() : types;
        this.createdBy = Wire.nullableString(map, "createdBy");
        this.createdAt = Wire.integer(map, "createdAt");
        this.realm = Wire.string(map, "realm");
    }

    static Webhook fromJson(Object json) {
        return new Webhook(Wire.object(json, "a webhook"));
    }

    /** The wire form; {@code createdBy} left out when unknown. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("enabled", enabled);
        out.put("url", url);
        out.put("eventTypes", eventTypes);
        if (createdBy != null) out.put("createdBy", createdBy);
        out.put("createdAt", createdAt);
        out.put("realm", realm);
        return out;
    }

    /** @return the webhook's id */
    public String getId() {
        return id;
    }

    /** @return whether events are sent to it */
    public boolean isEnabled() {
        return enabled;
    }

    /** @return where events are sent */
    public String getUrl() {
        return url;
    }

    /** @return the event-type filters ({@code *}, {@code admin.*}, {@code access.LOGIN_ERROR}, …), unmodifiable */
    public List<String> getEventTypes() {
        return eventTypes;
    }

    /** @return the user id of whoever created it, or null when unknown */
    public String getCreatedBy() {
        return createdBy;
    }

    /** @return when it was created, milliseconds since the epoch */
    public long getCreatedAt() {
        return createdAt;
    }

    /** @return the realm it belongs to */
    public String getRealm() {
        return realm;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof Webhook)) return false;
        return toJson().equals(((Webhook) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "Webhook" + toJson();
    }
}
