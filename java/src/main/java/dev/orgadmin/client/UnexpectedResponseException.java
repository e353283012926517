package dev.orgadmin.client;

/**
 * The service answered with a success status but a body the SDK cannot use (not JSON, the wrong
 * shape, a missing {@code Location}). Code {@link ErrorCode#UNEXPECTED_RESPONSE}. Usually a proxy in
 * the way, or a base address that is not the service.
 */
public final class UnexpectedResponseException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    /** The request method. */
    private final String method;
    /** The request path without the query string. */
    private final String path;

    UnexpectedResponseException(int status, String method, String path, String reason) {
        super(method + " " + path + " returned " + status + " with an unusable answer: " + reason,
                ErrorCode.UNEXPECTED_RESPONSE, status, null, null, null);
        this.method = method;
        this.path = path;
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
}
