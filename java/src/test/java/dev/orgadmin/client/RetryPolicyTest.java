package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The rules of {@link RetryPolicy}, pinned. They mirror the TypeScript SDK's
 * src/client/retry-policy.ts (the source of truth), wording of the attempt log included.
 */
class RetryPolicyTest {
    private static final RetryPolicy.Failure REFUSED = RetryPolicy.Failure.network(NetworkException.REFUSED);
    private static final RetryPolicy.Failure DROPPED = RetryPolicy.Failure.network(NetworkException.CONNECTION_CLOSED);
    private static final RetryPolicy.Failure TIMEOUT = RetryPolicy.Failure.timeout(2000);

    private static RetryPolicy.Failure status(int status) {
        return RetryPolicy.Failure.status(status, null);
    }

    @Test
    void retriesWhatProvesTheServiceDidNothingForEveryRequest() {
        for (boolean repeatable : new boolean[] {true, false}) {
            assertTrue(RetryPolicy.isRetryable(status(429), repeatable));
            assertTrue(RetryPolicy.isRetryable(RetryPolicy.Failure.status(429, 3L), repeatable));
            assertTrue(RetryPolicy.isRetryable(RetryPolicy.Failure.status(503, 1L), repeatable));
            assertTrue(RetryPolicy.isRetryable(REFUSED, repeatable));
        }
    }

    @Test
    void retriesUnavailabilityTimeoutsAndDroppedConnectionsForRepeatableRequestsOnly() {
        for (RetryPolicy.Failure failure : new RetryPolicy.Failure[] {status(502), status(503), status(504), TIMEOUT, DROPPED,
                RetryPolicy.Failure.network(NetworkException.CONNECT_TIMEOUT)}) {
            assertTrue(RetryPolicy.isRetryable(failure, true), RetryPolicy.describeAttempt(failure));
            assertFalse(RetryPolicy.isRetryable(failure, false), RetryPolicy.describeAttempt(failure));
        }
    }

    @Test
    void neverRetriesOtherAnswers() {
        for (int code : new int[] {400, 401, 403, 404, 409, 500}) assertFalse(RetryPolicy.isRetryable(status(code), true));
        assertFalse(RetryPolicy.isRetryable(RetryPolicy.Failure.network(NetworkException.UNKNOWN_HOST), true));
        assertFalse(RetryPolicy.isRetryable(RetryPolicy.Failure.network(null), true));
    }

    @Test
    void treatsIdempotentMethodsAsRepeatable() {
        for (String method : new String[] {"GET", "HEAD", "PUT", "DELETE"}) assertTrue(RetryPolicy.isIdempotent(method));
        assertFalse(RetryPolicy.isIdempotent("POST"));
    }

    @Test
    void waitsRetryAfterCappedOrBacksOffWithFullJitter() {
        RetryPolicy.Settings settings = new RetryPolicy.Settings(3, Duration.ofMillis(250), Duration.ofSeconds(10), () -> 0.999);
        assertEquals(Duration.ofSeconds(2), RetryPolicy.delayBeforeRetry(RetryPolicy.Failure.status(502, 2L), 0, settings));
        assertEquals(Duration.ofSeconds(10), RetryPolicy.delayBeforeRetry(RetryPolicy.Failure.status(429, 60L), 0, settings));
        assertEquals(Duration.ofMillis(999), RetryPolicy.delayBeforeRetry(TIMEOUT, 2, settings));
        assertEquals(0, RetryPolicy.backoffMillis(0, 250, 10_000, 0.0));
        assertEquals(249, RetryPolicy.backoffMillis(0, 250, 10_000, 0.999));
        assertEquals(9_990, RetryPolicy.backoffMillis(10, 250, 10_000, 0.999), "capped at the maximum");
    }

    @Test
    void describesAttemptsAndWhyTheyStopped() {
        assertEquals("HTTP 503 (Retry-After 1 s)", RetryPolicy.describeAttempt(RetryPolicy.Failure.status(503, 1L)));
        assertEquals("HTTP 502", RetryPolicy.describeAttempt(status(502)));
        assertEquals("timed out after 2000 ms", RetryPolicy.describeAttempt(TIMEOUT));
        assertEquals("connection refused (ECONNREFUSED)", RetryPolicy.describeAttempt(REFUSED));
        assertEquals("connection failed (CONNECTION_CLOSED)", RetryPolicy.describeAttempt(DROPPED));

        assertEquals("gave up after 4 attempts (max_retries = 3)", RetryPolicy.whyNotRetried(status(503), true, 4, 3));
        assertEquals("", RetryPolicy.whyNotRetried(status(503), true, 2, 3));
        assertEquals("not retried (max_retries = 0)", RetryPolicy.whyNotRetried(status(429), false, 1, 0));
        assertEquals("not retried: the request may have been carried out, and sending it again could do it twice",
                RetryPolicy.whyNotRetried(status(502), false, 1, 3));
        assertEquals("not retried: the request may have been carried out, and sending it again could do it twice",
                RetryPolicy.whyNotRetried(TIMEOUT, false, 1, 3));
        assertEquals("", RetryPolicy.whyNotRetried(status(404), false, 1, 3));
        assertEquals("", RetryPolicy.whyNotRetried(status(400), true, 1, 3));
    }

    @Test
    void readsRetryAfterAsSecondsOrHttpDate() {
        long now = 1_700_000_000_000L; // 2023-11-14T22:13:20Z
        assertEquals(120L, RetryPolicy.parseRetryAfter(" 120 ", now));
        assertEquals(10L, RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:13:30 GMT", now));
        assertEquals(0L, RetryPolicy.parseRetryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now));
        assertNull(RetryPolicy.parseRetryAfter("soon", now));
        assertNull(RetryPolicy.parseRetryAfter("-1", now));
        assertNull(RetryPolicy.parseRetryAfter(null, now));
    }
}
