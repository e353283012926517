package dev.orgadmin.client;

/**
 * The calling thread was interrupted while it waited for an answer, a token or a backoff. Code
 * {@link ErrorCode#CANCELLED}. The thread's interrupt flag is set again before this is thrown, so
 * code further up still sees the interruption.
 */
public final class CancelledException extends OrgAdminException {
    private static final long serialVersionUID = 1L;

    CancelledException(String what, InterruptedException cause) {
        super(what + " was interrupted", ErrorCode.CANCELLED, 0, null, null, cause);
    }
}
