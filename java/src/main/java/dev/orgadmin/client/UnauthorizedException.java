package dev.orgadmin.client;

/** 401 that persisted after a fresh token: the credentials are wrong, or (on the hosted service, which answers 401 where orgadmin answers 403) the API key lacks the permission. Code {@link ErrorCode#UNAUTHORIZED}. */
public final class UnauthorizedException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    UnauthorizedException(HttpErrorDetails details) {
        super(details, ErrorCode.UNAUTHORIZED);
    }
}
