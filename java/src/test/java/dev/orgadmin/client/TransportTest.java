package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How one exchange ends when it takes too long or its caller gives up: the default
 * {@link RequestTimer} against real time (the only tests here that wait for a limit to pass, 50 ms
 * each), and the exchange cancelled, its connection closed, on a timeout and on an interrupt.
 */
class TransportTest {
    private static final String COUNT = "/realms/acme/orgs/count";

    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopCaller() {
        caller.shutdownNow();
    }

    private static OrgAdminClient.Builder client(SilentServer server) {
        return OrgAdminClient.builder(server.baseUrl(), new StaticTokenSource("tok")).realm("acme").maxRetries(0);
    }

    @Test
    void theDefaultTimerExpiresALimitWhenItsTimePasses() {
        CompletableFuture<String> never = new CompletableFuture<>();
        long started = System.nanoTime();
        RequestTimer.SYSTEM.limit(never, Duration.ofMillis(50));
        ExecutionException expired = assertThrows(ExecutionException.class, () -> never.get(10, TimeUnit.SECONDS));
        assertInstanceOf(TimeoutException.class, expired.getCause());
        assertTrue(System.nanoTime() - started >= TimeUnit.MILLISECONDS.toNanos(50), "not before the limit");
    }

    @Test
    void theDefaultTimerLeavesAnExchangeThatCompletedInTime() throws Exception {
        CompletableFuture<String> answered = new CompletableFuture<>();
        // A limit far off, so that only a timer that fires early could complete it first.
        RequestTimer.SYSTEM.limit(answered, Duration.ofMinutes(10));
        answered.complete("answer");
        assertEquals("answer", answered.get(10, TimeUnit.SECONDS));
        assertFalse(answered.isCompletedExceptionally());
    }

    @Test
    void theDefaultTimerTimesOutARequestThatIsNeverAnsweredAndClosesItsConnection() throws Exception {
        try (SilentServer server = new SilentServer()) {
            // The connect timeout would be 50 ms too; a loaded machine must not turn this into a connect failure.
            OrgAdminClient client = client(server).timeout(Duration.ofMillis(50))
                    .httpClient(Transport.newHttpClient(Duration.ofSeconds(10))).build();
            RequestTimeoutException error = assertThrows(RequestTimeoutException.class, client::countOrganizations);
            assertEquals(ErrorCode.TIMEOUT, error.getCode());
            assertEquals(Duration.ofMillis(50), error.getTimeout());
            assertTrue(error.getMessage().startsWith("GET " + COUNT + " timed out after 50 ms"), error.getMessage());
            assertTrue(server.awaitClosedByClient(), "the timed-out exchange was cancelled");
        }
    }

    @Test
    void anExpiredLimitCancelsTheExchange() throws Exception {
        ManualTimer timer = new ManualTimer();
        try (SilentServer server = new SilentServer()) {
            OrgAdminClient client = client(server).timer(timer).build();
            Future<Long> count = caller.submit(() -> client.countOrganizations());
            assertTrue(server.awaitRequest());
            assertEquals(Duration.ofSeconds(30), timer.expireNext(), "the default timeout");
            ExecutionException failed = assertThrows(ExecutionException.class, () -> count.get(10, TimeUnit.SECONDS));
            RequestTimeoutException error = assertInstanceOf(RequestTimeoutException.class, failed.getCause());
            assertEquals("GET " + COUNT + " timed out after 30000 ms (not retried (max_retries = 0))", error.getMessage());
            assertTrue(server.awaitClosedByClient(), "the timed-out exchange was cancelled");
        }
    }

    @Test
    void anInterruptedCallCancelsItsExchange() throws Exception {
        ManualTimer timer = new ManualTimer();
        AtomicReference<Thread> callingThread = new AtomicReference<>();
        try (SilentServer server = new SilentServer()) {
            OrgAdminClient client = client(server).timer(timer).build();
            Future<Object> call = caller.submit(() -> {
                callingThread.set(Thread.currentThread());
                try {
                    return client.countOrganizations();
                } catch (CancelledException cancelled) {
                    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is set again");
                    return cancelled;
                }
            });
            assertTrue(server.awaitRequest());
            callingThread.get().interrupt();
            CancelledException cancelled = assertInstanceOf(CancelledException.class, call.get(10, TimeUnit.SECONDS));
            assertEquals(ErrorCode.CANCELLED, cancelled.getCode());
            assertTrue(server.awaitClosedByClient(), "the abandoned exchange was cancelled");
            assertEquals(1, timer.asked().size(), "the limit was started, and never expired");
        }
    }
}
