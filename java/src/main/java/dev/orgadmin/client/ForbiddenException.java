package dev.orgadmin.client;

/** 403: the token is valid but the API key lacks the permission for this operation, or the operation is refused (removing an organization's default admin user). Code {@link ErrorCode#FORBIDDEN}. */
public final class ForbiddenException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    ForbiddenException(HttpErrorDetails details) {
        super(details, ErrorCode.FORBIDDEN);
    }
}
