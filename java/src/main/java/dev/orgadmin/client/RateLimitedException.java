package dev.orgadmin.client;

/** 429 after every retry: the API key's rate limit. {@link #getRetryAfterSeconds()} says how long to wait. Code {@link ErrorCode#RATE_LIMITED}. */
public final class RateLimitedException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    RateLimitedException(HttpErrorDetails details) {
        super(details, ErrorCode.RATE_LIMITED);
    }
}
