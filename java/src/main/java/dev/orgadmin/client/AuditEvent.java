package dev.orgadmin.client;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One event of the audit log ({@link OrgAdminClient#listEvents}), the same shape webhooks deliver
 * ({@link #fromDelivery(String)}): the vendor's unified event, {@link #getType()}
 * {@code admin.<RESOURCE>-<OPERATION>} for changes and {@code access.<TYPE>[_ERROR]} for sign-ins
 * and token grants. Fields without a value are null. Immutable.
 */
public final class AuditEvent {
    private final String id;
    private final String uid;
    private final long time;
    private final String realmId;
    private final String realmName;
    private final String type;
    private final String operationType;
    private final String resourceType;
    private final String resourcePath;
    private final String representation;
    private final String error;
    private final Map<String, String> details;
    private final AuthDetails authDetails;

    private AuditEvent(Map<String, Object> map) {
        this.id = Wire.string(map, "id");
        this.uid = Wire.nullableString(map, "uid");
        this.time = Wire.integer(map, "time");
        this.realmId = Wire.string(map, "realmId");
        this.realmName = Wire.string(map, "realmName");
        this.type = Wire.string(map, "type");
        this.operationType = Wire.nullableString(map, "operationType");
        this.resourceType = Wire.nullableString(map, "resourceType");
        this.resourcePath = Wire.nullableString(map, "resourcePath");
        this.representation = Wire.nullableString(map, "representation");
        this.error = Wire.nullableString(map, "error");
        this.details = Wire.stringMap(map, "details");
        this.authDetails = AuthDetails.fromJson(map.get("authDetails"));
    }

    static AuditEvent fromJson(Object json) {
        return new AuditEvent(Wire.object(json, "an event"));
    }

    /**
     * Reads the body of a webhook delivery. Check its signature first, on the raw body:
     * {@link WebhookSignature#verify(String, String, String)}.
     *
     * @param body the delivered JSON text
     * @return the event, with {@link #getUid()} (the send's id)
     * @throws IllegalArgumentException when the body is not JSON or not an event
     */
    public static AuditEvent fromDelivery(String body) {
        Objects.requireNonNull(body, "body");
        try {
            return fromJson(Json.parse(body));
        } catch (Json.ParseException notJson) {
            throw new IllegalArgumentException("the delivery is not JSON: " + notJson.getMessage());
        } catch (Wire.ShapeException notAnEvent) {
            throw new IllegalArgumentException("the delivery is not an event: " + notAnEvent.getMessage());
        }
    }

    /** The wire form; fields without a value are left out, as the service does. */
    Map<String, Object> toJson() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", id);
        if (uid != null) out.put("uid", uid);
        out.put("time", time);
        out.put("realmId", realmId);
        out.put("realmName", realmName);
        out.put("type", type);
        if (operationType != null) out.put("operationType", operationType);
        if (resourceType != null) out.put("resourceType", resourceType);
        if (resourcePath != null) out.put("resourcePath", resourcePath);
        if (representation != null) out.put("representation", representation);
        if (error != null) out.put("error", error);
        out.put("details", details);
        out.put("authDetails", authDetails.toJson());
        return out;
    }

    /** @return the event's id: the same in every delivery and redelivery of it */
    public String getId() {
        return id;
    }

    /** @return in a webhook delivery, the id of this webhook's send of the event; null in the audit log */
    public String getUid() {
        return uid;
    }

    /** @return when it happened, milliseconds since the epoch */
    public long getTime() {
        return time;
    }

    /** @return the realm's id (its name, in this service) */
    public String getRealmId() {
        return realmId;
    }

    /** @return the realm's name */
    public String getRealmName() {
        return realmName;
    }

    /** @return {@code admin.<RESOURCE>-<OPERATION>} or {@code access.<TYPE>[_ERROR]} */
    public String getType() {
        return type;
    }

    /** @return admin events: {@code CREATE}, {@code UPDATE}, {@code DELETE} or {@code ACTION}; else null */
    public String getOperationType() {
        return operationType;
    }

    /** @return admin events: the kind of thing changed ({@code ORGANIZATION}, {@code WEBHOOK}, …); else null */
    public String getResourceType() {
        return resourceType;
    }

    /** @return admin events: the changed thing's path below the realm, e.g. {@code orgs/{id}}; else null */
    public String getResourcePath() {
        return resourcePath;
    }

    /** @return admin events: the representation after the change as JSON text (secrets never included), or null */
    public String getRepresentation() {
        return representation;
    }

    /** @return failed access events: the OAuth error code; else null */
    public String getError() {
        return error;
    }

    /** @return more about the event (access events: {@code grant_type}, {@code username}, …), unmodifiable */
    public Map<String, String> getDetails() {
        return details;
    }

    /** @return who acted and from where */
    public AuthDetails getAuthDetails() {
        return authDetails;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        if (!(o instanceof AuditEvent)) return false;
        return toJson().equals(((AuditEvent) o).toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return "AuditEvent" + toJson();
    }

    /** Who made a change or signed in, and from where (Keycloak's {@code AuthDetails} with the vendor's {@code username}). Immutable. */
    public static final class AuthDetails {
        private final String realmId;
        private final String clientId;
        private final String userId;
        private final String ipAddress;
        private final String username;

        private AuthDetails(Map<String, Object> map) {
            this.realmId = Wire.string(map, "realmId");
            this.clientId = Wire.nullableString(map, "clientId");
            this.userId = Wire.nullableString(map, "userId");
            this.ipAddress = Wire.nullableString(map, "ipAddress");
            this.username = Wire.nullableString(map, "username");
        }

        static AuthDetails fromJson(Object json) {
            return new AuthDetails(Wire.object(json, "\"authDetails\""));
        }

        Map<String, Object> toJson() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("realmId", realmId);
            if (clientId != null) out.put("clientId", clientId);
            if (userId != null) out.put("userId", userId);
            if (ipAddress != null) out.put("ipAddress", ipAddress);
            if (username != null) out.put("username", username);
            return out;
        }

        /** @return the realm the actor belongs to */
        public String getRealmId() {
            return realmId;
        }

        /** @return the client acted through (an API key's client id, {@code dashboard}, …), or null */
        public String getClientId() {
            return clientId;
        }

        /** @return the user (an API key's service-account user or an end user), or null */
        public String getUserId() {
            return userId;
        }

        /** @return the caller's address, or null */
        public String getIpAddress() {
            return ipAddress;
        }

        /** @return the user's username, or null */
        public String getUsername() {
            return username;
        }

        @Override
        public boolean equals(Object o) {
            if (this == o) return true;
            if (!(o instanceof AuthDetails)) return false;
            return toJson().equals(((AuthDetails) o).toJson());
        }

        @Override
        public int hashCode() {
            return toJson().hashCode();
        }

        @Override
        public String toString() {
            return "AuthDetails" + toJson();
        }
    }
}
