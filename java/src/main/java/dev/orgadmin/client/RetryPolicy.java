package dev.orgadmin.client;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * The retry policy of the Java SDK, in one place: which failed attempts are tried again, how long
 * to wait first, and how each attempt is described in exceptions. The request pipeline and the
 * token source both follow it.
 *
 * <p><b>The TypeScript SDK's policy ({@code src/client/retry-policy.ts}, used by
 * {@code src/client/http.ts}) is the source of truth; the two are kept in step.</b> A change of the
 * policy is made there and here (with this comment) in the same change; {@code RetryPolicyTest}
 * pins these rules and the wording of the attempt log, and {@code test/java/java-sdk.test.ts}
 * compares the decisions of both policies case by case.
 *
 * <p>A retry follows what the failed attempt tells about the service, not only the method:
 * <table>
 *   <caption>What is retried</caption>
 *   <tr><th>What the attempt got</th><th>Retried for</th></tr>
 *   <tr><td>429, or 503 with {@code Retry-After}</td><td>every request: the service says it did nothing</td></tr>
 *   <tr><td>502, 503 (without {@code Retry-After}), 504</td><td>repeatable requests only</td></tr>
 *   <tr><td>a timeout, or a connection dropped after the request was sent</td><td>repeatable requests only</td></tr>
 *   <tr><td>a refused connection ({@code ECONNREFUSED}): nothing was sent</td><td>every request</td></tr>
 *   <tr><td>anything else (4xx, an unknown host, an answer that is not what the service sends)</td><td>never</td></tr>
 * </table>
 *
 * <p>A request is <em>repeatable</em> when sending it twice has the effect of sending it once: GET,
 * HEAD, PUT and DELETE (RFC 9110 §9.2.2), the token request (a second token is harmless; the token
 * source retries it inside its single flight), and a create that carries a client-chosen id (a
 * second attempt that meets the first one's organization is answered 409 for that id).
 *
 * <p>Waits: {@code Retry-After} when the answer gave one (capped by {@code retryMaxDelay}),
 * otherwise exponential backoff with full jitter: a random wait in
 * {@code [0, min(max, base * 2^retry))}. At most {@code maxRetries} (default 3) retries. A 401 is
 * not part of this policy: the pipeline fetches a fresh token and sends once more.
 */
final class RetryPolicy {
    private RetryPolicy() {
    }

    /** Default retries after the first attempt. */
    static final int DEFAULT_MAX_RETRIES = 3;
    /** Default first backoff ceiling. */
    static final Duration DEFAULT_BASE_DELAY = Duration.ofMillis(250);
    /** Default cap of every wait. */
    static final Duration DEFAULT_MAX_DELAY = Duration.ofSeconds(10);

    /** Statuses that say "try again later" for a repeatable request. */
    private static final Set<Integer> UNAVAILABLE_STATUSES = Set.of(502, 503, 504);

    /** Connection failures after which a repeatable request is worth another try. */
    private static final Set<String> DROPPED_CONNECTION_CODES = Set.of(NetworkException.CONNECTION_CLOSED, NetworkException.CONNECT_TIMEOUT);

    /** What one failed attempt got: an error status, a timeout, or a connection failure. */
    static final class Failure {
        /** The three kinds of failed attempts. */
        enum Kind { STATUS, TIMEOUT, NETWORK }

        final Kind kind;
        final int status;
        final Long retryAfterSeconds;
        final long timeoutMs;
        final String code;

        private Failure(Kind kind, int status, Long retryAfterSeconds, long timeoutMs, String code) {
            this.kind = kind;
            this.status = status;
            this.retryAfterSeconds = retryAfterSeconds;
            this.timeoutMs = timeoutMs;
            this.code = code;
        }

        static Failure status(int status, Long retryAfterSeconds) {
            return new Failure(Kind.STATUS, status, retryAfterSeconds, 0, null);
        }

        static Failure timeout(long timeoutMs) {
            return new Failure(Kind.TIMEOUT, 0, null, timeoutMs, null);
        }

        static Failure network(String code) {
            return new Failure(Kind.NETWORK, 0, null, 0, code);
        }

        /** The policy's view of a transport exception, or null for any other exception. */
        static Failure of(OrgAdminException error) {
            if (error instanceof RequestTimeoutException) return timeout(((RequestTimeoutException) error).getTimeout().toMillis());
            if (error instanceof NetworkException) return network(((NetworkException) error).getCauseCode());
            return null;
        }
    }

    /** How often and how long to retry. */
    record Settings(int maxRetries, Duration baseDelay, Duration maxDelay, DoubleSupplier random) {
    }

    /** Methods that may be sent twice with the same effect (RFC 9110 §9.2.2). */
    static boolean isIdempotent(String method) {
        return "GET".equals(method) || "HEAD".equals(method) || "PUT".equals(method) || "DELETE".equals(method);
    }

    /** Failures that prove the service did nothing with the request. */
    private static boolean serviceDidNothing(Failure failure) {
        if (failure.kind == Failure.Kind.STATUS) {
            return failure.status == 429 || (failure.status == 503 && failure.retryAfterSeconds != null);
        }
        return failure.kind == Failure.Kind.NETWORK && NetworkException.REFUSED.equals(failure.code);
    }

    /**
     * True when an attempt that failed with {@code failure} may be tried again. {@code repeatable}:
     * sending the request twice has the effect of sending it once (see the table above).
     */
    static boolean isRetryable(Failure failure, boolean repeatable) {
        if (serviceDidNothing(failure)) return true;
        if (!repeatable) return false;
        switch (failure.kind) {
            case STATUS: return UNAVAILABLE_STATUSES.contains(failure.status);
            case TIMEOUT: return true;
            default: return failure.code != null && DROPPED_CONNECTION_CODES.contains(failure.code);
        }
    }

    /**
     * Exponential backoff with full jitter: a random wait in {@code [0, min(maxMs, baseMs * 2^retry))},
     * {@code retry} counting from 0. Full jitter spreads clients that failed together.
     *
     * @param random a number in [0, 1)
     */
    static long backoffMillis(int retry, long baseMs, long maxMs, double random) {
        double ceiling = Math.min((double) maxMs, baseMs * Math.pow(2, retry));
        return (long) Math.floor(random * ceiling);
    }

    /** How long to wait before retry number {@code retry} (from 0) after {@code failure}. */
    static Duration delayBeforeRetry(Failure failure, int retry, Settings settings) {
        if (failure.kind == Failure.Kind.STATUS && failure.retryAfterSeconds != null) {
            return Duration.ofMillis(Math.min(failure.retryAfterSeconds * 1000, settings.maxDelay().toMillis()));
        }
        return Duration.ofMillis(backoffMillis(retry, settings.baseDelay().toMillis(), settings.maxDelay().toMillis(),
                settings.random().getAsDouble()));
    }

    /** One line for an attempt in an exception: {@code HTTP 503 (Retry-After 1 s)}, {@code timed out after 2000 ms}. */
    static String describeAttempt(Failure failure) {
        switch (failure.kind) {
            case STATUS:
                return failure.retryAfterSeconds != null
                        ? "HTTP " + failure.status + " (Retry-After " + failure.retryAfterSeconds + " s)"
                        : "HTTP " + failure.status;
            case TIMEOUT:
                return "timed out after " + failure.timeoutMs + " ms";
            default:
                return NetworkException.REFUSED.equals(failure.code)
                        ? "connection refused (ECONNREFUSED)"
                        : "connection failed" + (failure.code != null ? " (" + failure.code + ")" : "");
        }
    }

    /**
     * Why a failed request was not tried (again), for people: empty when it was retried until the
     * limit, otherwise the rule that stopped it.
     */
    static String whyNotRetried(Failure failure, boolean repeatable, int attempts, int maxRetries) {
        if (isRetryable(failure, repeatable)) {
            if (maxRetries == 0) return "not retried (max_retries = 0)";
            return attempts > maxRetries ? "gave up after " + attempts + " attempts (max_retries = " + maxRetries + ")" : "";
        }
        if (!repeatable && (failure.kind != Failure.Kind.STATUS || UNAVAILABLE_STATUSES.contains(failure.status))) {
            return "not retried: the request may have been carried out, and sending it again could do it twice";
        }
        // An answer such as 400 or 404: asking again would get the same answer, which needs no comment.
        return "";
    }

    /**
     * Reads {@code Retry-After} (RFC 9110 §10.2.3): delay-seconds or an HTTP date. Returns whole
     * seconds to wait (0 for a date in the past), or null when absent or unreadable.
     */
    static Long parseRetryAfter(String value, long nowMillis) {
        if (value == null) return null;
        String text = value.trim();
        if (text.matches("\\d{1,18}")) return Long.parseLong(text);
        try {
            long at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
            return Math.max(0L, (long) Math.ceil((at - nowMillis) / 1000.0));
        } catch (DateTimeParseException unreadable) {
            return null;
        }
    }
}
