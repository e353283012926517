package dev.orgadmin.client;

import java.time.Duration;

/**
 * The request did not finish within the configured time (the client's or the token source's
 * {@code timeout}). Code {@link ErrorCode#TIMEOUT}. Retried for repeatable requests (see
 * {@link RetryPolicy}); thrown when no retry is left or allowed.
 */
public final class RequestTimeoutException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    /** The request method. */
    private final String method;
    /** The request path without the query string. */
    private final String path;
    /** The limit that was exceeded. */
    private final Duration timeout;

    RequestTimeoutException(String method, String path, Duration timeout, Throwable cause) {
        super(method + " " + path + " timed out after " + timeout.toMillis() + " ms", ErrorCode.TIMEOUT, 0, null, null, cause);
        this.method = method;
        this.path = path;
        this.timeout = timeout;
    }

    /**
     * @return the request method
     */
    public String getMethod() {
        return method;
    }

    /**
     * @return the request path without the query string
     */
    public String getPath() {
        return path;
    }

    /**
     * @return the limit that was exceeded
     */
    public Duration getTimeout() {
        return timeout;
    }
}
