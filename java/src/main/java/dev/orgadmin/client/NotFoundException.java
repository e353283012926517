package dev.orgadmin.client;

/** 404: the realm, organization, user or membership does not exist. Code {@link ErrorCode#NOT_FOUND}. */
public final class NotFoundException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    NotFoundException(HttpErrorDetails details) {
        super(details, ErrorCode.NOT_FOUND);
    }
}
