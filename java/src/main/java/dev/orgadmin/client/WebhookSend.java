package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One delivery of one event to one webhook (the vendor's {@code WebhookSendRepresentation}), from
 * {@link OrgAdminClient#listWebhookSends} and {@link OrgAdminClient#getWebhookSend}. Immutable.
 */
public final class WebhookSend {
    private final String id;
    private final String type;
    private final Long status;
    private final String statusMessage;
    private final long retries;
    private final String sentAt;
    private final String eventId;
    private final String keycloakEventType;
    private final String keycloakEventId;
    private final String state;
    private final String nextAttemptAt;
    private final String webhookId;
    private final boolean webhookEnabled;
    private final String webhookUrl;
    private final String payload;

    private WebhookSend(Map<String, Object> map) {
        this.id = Wire.string(map, "id");
        this.type = Wire.string(map, "type");
        this.status = Wire.nullableInteger(map, "status");
        this.statusMessage = Wire.nullableString(map, "status_message");
        this.retries = Wire.integer(map, "retries");
        this.sentAt = Wire.nullableString(map, "sent_at");
        this.eventId = Wire.string(map, "event_id");
        this.keycloakEventType = Wire.nullableString(map, "keycloak_event_type");
        this.keycloakEventId = Wire.nullableString(map, "keycloak_event_id");
        this.state = Wire.nullableString(map, "state");
        this.nextAttemptAt = Wire.nullableString(map, "next_attempt_at");
        Map<String, Object> webhook = Wire.object(map.get("webhook"), "\"webhook\"");
        this.webhookId = Wire.string(webhook, "id");
        this.webhookEnabled = Wire.bool(webhook, "enabled");
        this.webhookUrl = Wire.string(webhook, "url");
        this.payload = Wire.nullableString(map, "payload");
    }

    static WebhookSend fromJson(Object json) {
        return new WebhookSend(Wire.object(json, "a send"));
    }

    /** The wire form (the vendor's snake_case names); fields without a value are left out. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        out.put("type", type);
        if (status != null) out.put("status", status);
        if (statusMessage != null) out.put("status_message", statusMessage);
        out.put("retries", retries);
        if (sentAt != null) out.put("sent_at", sentAt);
        out.put("event_id", eventId);
        if (keycloakEventType != null) out.put("keycloak_event_type", keycloakEventType);
        if (keycloakEventId != null) out.put("keycloak_event_id", keycloakEventId);
        if (state != null) out.put("state", state);
        if (nextAttemptAt != null) out.put("next_attempt_at", nextAttemptAt);
        Map<String, Object> webhook = new LinkedHashMap<>();
        webhook.put("id", webhookId);
        webhook.put("enabled", webhookEnabled);
        webhook.put("url", webhookUrl);
        out.put("webhook", webhook);
        if (payload != null) out.put("payload", payload);
        return out;
    }

    /** @return the send's id: the delivered event's {@link AuditEvent#getUid()} */
    public String getId() {
        return id;
    }

    /** @return the event's type */
    public String getType() {
        return type;
    }

    /** @return the HTTP status of the last attempt, or null when no attempt got an answer yet */
    public Integer getStatus() {
        return status == null ? null : status.intValue();
    }

    /** @return {@code HTTP 200 OK}, as the vendor words it, or null */
    public String getStatusMessage() {
        return statusMessage;
    }

    /** @return attempts made so far */
    public long getRetries() {
        return retries;
    }

    /** @return when the last attempt was made (ISO 8601), or null before the first */
    public String getSentAt() {
        return sentAt;
    }

    /** @return the event's id */
    public String getEventId() {
        return eventId;
    }

    /** @return {@code ADMIN} or {@code USER} (Keycloak's kinds: access events are user events), or null */
    public String getKeycloakEventType() {
        return keycloakEventType;
    }

    /** @return the event's id again, where the vendor names Keycloak's own event id; or null */
    public String getKeycloakEventId() {
        return keycloakEventId;
    }

    /**
     * @return {@code pending} (to be tried), {@code delivered} or {@code failed} (retries given up);
     *     this service's addition, null from the hosted service
     */
    public String getState() {
        return state;
    }

    /** @return when the next attempt is due (ISO 8601) while pending, or null */
    public String getNextAttemptAt() {
        return nextAttemptAt;
    }

    /** @return the webhook's id */
    public String getWebhookId() {
        return webhookId;
    }

    /** @return whether the webhook was enabled */
    public boolean isWebhookEnabled() {
        return webhookEnabled;
    }

    /** @return the webhook's URL */
    public String getWebhookUrl() {
        return webhookUrl;
    }

    /** @return the delivered body ({@link OrgAdminClient#getWebhookSend} only; null in lists) */
    public String getPayload() {
        return payload;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof WebhookSend)) return false;
        return toJson().equals(((WebhookSend) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "WebhookSend" + toJson();
    }
}
