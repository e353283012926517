package dev.orgadmin.client;

/** 5xx after every retry the request allowed: the service failed. Code {@link ErrorCode#SERVER}. */
public final class ServerException extends HttpStatusException {
    private static final long serialVersionUID = 1L;

    ServerException(HttpErrorDetails details) {
        super(details, ErrorCode.SERVER);
    }
}
