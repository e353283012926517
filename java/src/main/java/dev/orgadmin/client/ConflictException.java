package dev.orgadmin.client;

/** 409: the name (or id) is taken by another organization. Code {@link ErrorCode#CONFLICT}. */
public final class ConflictException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    ConflictException(HttpErrorDetails details) {
        super(details, ErrorCode.CONFLICT);
    }
}
