package dev.orgadmin.client;

/**
 * The connection failed (refused, closed, reset, unknown host) after every retry the request
 * allowed. Code {@link ErrorCode#NETWORK}. {@link #getCauseCode()} classifies the cause with the
 * names the TypeScript SDK uses where one exists ({@code ECONNREFUSED}).
 */
public final class NetworkException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    /** Nothing reached the service: the connection was refused. Safe to retry for every method. */
    public static final String REFUSED = "ECONNREFUSED";
    /** The connection could not be set up in time. */
    public static final String CONNECT_TIMEOUT = "CONNECT_TIMEOUT";
    /** The host name could not be resolved. */
    public static final String UNKNOWN_HOST = "UNKNOWN_HOST";
    /** The connection broke or closed while the request or answer was under way. */
    public static final String CONNECTION_CLOSED = "CONNECTION_CLOSED";

    /** The request method. */
    private final String method;
    /** The request path without the query string. */
    private final String path;
    /** The classified cause. */
    private final String causeCode;

    NetworkException(String method, String path, String causeCode, String reason, Throwable cause) {
        super(method + " " + path + " failed: network error: " + (reason != null ? reason : causeCode),
                ErrorCode.NETWORK, 0, null, null, cause);
        this.method = method;
        this.path = path;
        this.causeCode = causeCode;
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
     * @return one of {@link #REFUSED}, {@link #CONNECT_TIMEOUT}, {@link #UNKNOWN_HOST}, {@link #CONNECTION_CLOSED}
     */
    public String getCauseCode() {
        return causeCode;
    }
}
