package dev.orgadmin.client;

/**
 * What an HTTP error answer said, and to which request (package-private carrier).
 *
 * @param status the HTTP status
 * @param error the service's {@code error}, or null
 * @param errorDescription the service's {@code error_description} or a body excerpt, or null
 * @param method the request method
 * @param path the request path without the query string
 * @param retryAfterSeconds {@code Retry-After} in seconds, or null
 * @param override a message replacing the standard one, or null
 */
record HttpErrorDetails(int status, String error, String errorDescription, String method, String path,
                        Long retryAfterSeconds, String override) {

    /** The standard message: {@code GET /realms/acme/orgs/42 failed: 404 not_found: Organization not found}. */
    String standardMessage() {
        String code = error == null || error.isEmpty() ? "" : " " + error;
        String description = errorDescription == null || errorDescription.isEmpty() ? "" : ": " + errorDescription;
        return method + " " + path + " failed: " + status + code + description;
    }

    /** The message the exception carries. */
    String message() {
        return override != null ? override : standardMessage();
    }

    /** The same details with another message. */
    HttpErrorDetails withMessage(String message) {
        return new HttpErrorDetails(status, error, errorDescription, method, path, retryAfterSeconds, message);
    }
}
