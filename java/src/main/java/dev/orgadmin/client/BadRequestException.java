package dev.orgadmin.client;

/** 400: the service rejected the request's content (body or query). Fix the input. Code {@link ErrorCode#BAD_REQUEST}. */
public final class BadRequestException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    BadRequestException(HttpErrorDetails details) {
        super(details, ErrorCode.BAD_REQUEST);
    }
}
