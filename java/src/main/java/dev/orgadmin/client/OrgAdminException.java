package dev.orgadmin.client;

/**
 * The base of every exception the SDK throws on purpose. Switch on {@link #getCode()} or catch a
 * subclass to decide what to do.
 *
 * <p>Messages and {@link #toString()} never carry an access token or a client secret: they name the
 * method, the path (without the query string), the status and the service's own error code and
 * sentence.
 *
 * <p>Arguments that are wrong before anything is sent (a null or empty id, a negative page size)
 * are programming errors and throw {@link IllegalArgumentException} or {@link NullPointerException}
 * instead.
 */
public class OrgAdminException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The stable code. */
    private final ErrorCode code;
    /** The HTTP status, or 0. */
    private final int status;
    /** The service's error code, or null. */
    private final String error;
    /** The service's sentence, or null. */
    private final String errorDescription;
    /** What each attempt got; set once by the SDK when the request failed. */
    private volatile AttemptLog attempts;

    /**
     * @param message one sentence for people; never contains a token or a secret
     * @param code the stable code of the concrete exception
     * @param status the HTTP status of the answer, or 0 when there was no usable answer
     * @param error the service's {@code error} code, or null
     * @param errorDescription the service's {@code error_description}, or null
     * @param cause the lower-level exception, or null
     */
    protected OrgAdminException(String message, ErrorCode code, int status, String error, String errorDescription, Throwable cause) {
        super(message, cause);
        this.code = code;
        this.status = status;
        this.error = error;
        this.errorDescription = errorDescription;
    }

    /**
     * Records what each attempt got; the message then ends with a summary, e.g.
     * {@code (3 attempts: HTTP 503; timed out after 2000 ms; HTTP 502; gave up after 3 attempts ...)}.
     * A single attempt adds only the reason it was not retried.
     */
    final <T extends OrgAdminException> T withAttempts(AttemptLog log) {
        this.attempts = log;
        @SuppressWarnings("unchecked")
        T self = (T) this;
        return self;
    }

    /**
     * @return what each attempt of the failed request got and why no further attempt was made, or
     *     null when the SDK made no attempt of its own (e.g. a failure inside a custom token source)
     */
    public AttemptLog getAttempts() {
        return attempts;
    }

    /** The message, followed by the attempt summary when there is one. */
    @Override
    public String getMessage() {
        AttemptLog log = attempts;
        String summary = log == null ? "" : log.summary();
        return summary.isEmpty() ? super.getMessage() : super.getMessage() + " (" + summary + ")";
    }

    /**
     * @return the stable code of this kind of failure
     */
    public ErrorCode getCode() {
        return code;
    }

    /**
     * @return the HTTP status of the answer, or 0 when the failure happened before one arrived
     */
    public int getStatus() {
        return status;
    }

    /**
     * @return the service's error code ({@code error} in the body, e.g. {@code not_found}), or null
     */
    public String getError() {
        return error;
    }

    /**
     * @return the service's sentence ({@code error_description}) or an excerpt of a non-JSON body, or null
     */
    public String getErrorDescription() {
        return errorDescription;
    }
}
