package dev.orgadmin.client;

import java.util.OptionalLong;

/**
 * The service answered with an error status. Subclasses name the common statuses; an
 * {@code HttpStatusException} itself (code {@link ErrorCode#HTTP}) is any other status.
 */
public class HttpStatusException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    /** The request method. */
    private final String method;
    /** The request path without the query string. */
    private final String path;
    /** Seconds from {@code Retry-After}, or null. */
    private final Long retryAfterSeconds;

    HttpStatusException(HttpErrorDetails details, ErrorCode code) {
        super(details.message(), code, details.status(), details.error(), details.errorDescription(), null);
        this.method = details.method();
        this.path = details.path();
        this.retryAfterSeconds = details.retryAfterSeconds();
    }

    /**
     * @return the request method, e.g. {@code GET}
     */
    public String getMethod() {
        return method;
    }

    /**
     * @return the request path without the query string, e.g. {@code /realms/acme/orgs/42}
     */
    public String getPath() {
        return path;
    }

    /**
     * @return the seconds the service asked us to wait ({@code Retry-After}), when it said so
     */
    public OptionalLong getRetryAfterSeconds() {
        return retryAfterSeconds == null ? OptionalLong.empty() : OptionalLong.of(retryAfterSeconds);
    }

    /** The exception class for an error status: 400, 401, 403, 404, 409, 429 and 5xx have their own. */
    static HttpStatusException of(HttpErrorDetails details) {
        switch (details.status()) {
            case 400: return new BadRequestException(details);
            case 401: return new UnauthorizedException(details);
            case 403: return new ForbiddenException(details);
            case 404: return new NotFoundException(details);
            case 409: return new ConflictException(details);
            case 429: return new RateLimitedException(details);
            default:
                return details.status() >= 500 && details.status() <= 599
                        ? new ServerException(details)
                        : new HttpStatusException(details, ErrorCode.HTTP);
        }
    }
}
