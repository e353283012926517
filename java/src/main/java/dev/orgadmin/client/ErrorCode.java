package dev.orgadmin.client;

/**
 * The stable, machine-readable code of every {@link OrgAdminException}. The set is closed, so a
 * {@code switch} over it is exhaustive. {@link #code()} is the same string the TypeScript SDK uses
 * ({@code ORGADMIN_NOT_FOUND}, ...), so logs of both SDKs read alike.
 */
public enum ErrorCode {
    /** An error status without a class of its own (e.g. 405, 413, 415). */
    HTTP("ORGADMIN_HTTP"),
    /** 400: the service rejected the request's content. */
    BAD_REQUEST("ORGADMIN_BAD_REQUEST"),
    /** 401 that persisted after a fresh token. */
    UNAUTHORIZED("ORGADMIN_UNAUTHORIZED"),
    /** 403: the API key lacks the permission, or the operation is not allowed. */
    FORBIDDEN("ORGADMIN_FORBIDDEN"),
    /** 404: realm, organization, user or membership not found. */
    NOT_FOUND("ORGADMIN_NOT_FOUND"),
    /** 409: the name or id is taken. */
    CONFLICT("ORGADMIN_CONFLICT"),
    /** 429 after every retry. */
    RATE_LIMITED("ORGADMIN_RATE_LIMITED"),
    /** 5xx after every retry. */
    SERVER("ORGADMIN_SERVER"),
    /** The token endpoint refused to issue a token, or answered something that is not one. */
    TOKEN("ORGADMIN_TOKEN"),
    /** The request did not finish in time. */
    TIMEOUT("ORGADMIN_TIMEOUT"),
    /** The connection failed after every retry the request allowed. */
    NETWORK("ORGADMIN_NETWORK"),
    /** A success status with a body the SDK cannot use. */
    UNEXPECTED_RESPONSE("ORGADMIN_UNEXPECTED_RESPONSE"),
    /**
     * The calling thread was interrupted while it waited (Java only: the counterpart of an aborted
     * {@code AbortSignal} in the TypeScript SDK). The thread's interrupt flag is set again.
     */
    CANCELLED("ORGADMIN_CANCELLED");

    private final String code;

    ErrorCode(String code) {
        this.code = code;
    }

    /**
     * @return the code as a string, e.g. {@code ORGADMIN_NOT_FOUND}
     */
    public String code() {
        return code;
    }

    @Override
    public String toString() {
        return code;
    }
}
