package dev.orgadmin.client;

import java.util.OptionalLong;

/**
 * The token endpoint refused to issue a token, or answered something that is not a token. Code
 * {@link ErrorCode#TOKEN}. {@code invalid_client} means an unknown or revoked API key or a wrong
 * secret (the service does not say which, RFC 6749 section 5.2); the hosted service answers a wrong
 * secret with {@code unauthorized_client}. Never carries the client secret.
 */
public final class TokenException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    /** The realm whose token endpoint was asked. */
    private final String realm;
    /** Seconds from {@code Retry-After}, or null. */
    private final Long retryAfterSeconds;

    TokenException(String realm, int status, String error, String errorDescription, Long retryAfterSeconds, String message) {
        super(message != null ? message : standardMessage(realm, status, error, errorDescription),
                ErrorCode.TOKEN, status, error, errorDescription, null);
        this.realm = realm;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    private static String standardMessage(String realm, int status, String error, String errorDescription) {
        String code = error == null || error.isEmpty() ? "" : " " + error;
        String description = errorDescription == null || errorDescription.isEmpty() ? "" : ": " + errorDescription;
        return "Token request for realm \"" + realm + "\" failed: " + (status == 0 ? "no status" : String.valueOf(status)) + code + description;
    }

    /**
     * @return the realm whose token endpoint was asked
     */
    public String getRealm() {
        return realm;
    }

    /**
     * @return the seconds the token endpoint asked us to wait ({@code Retry-After}), when it said so
     */
    public OptionalLong getRetryAfterSeconds() {
        return retryAfterSeconds == null ? OptionalLong.empty() : OptionalLong.of(retryAfterSeconds);
    }
}
