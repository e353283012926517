package dev.orgadmin.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Limits how long one HTTP exchange may take: the one place that decides when a request (an API
 * call's attempt or a token request) has timed out. The default uses the JDK's shared scheduler;
 * tests inject one that they expire by hand, so no test waits for a limit to pass.
 */
@FunctionalInterface
public interface RequestTimer {
    /**
     * {@link CompletableFuture#orTimeout}: one JDK-wide daemon scheduler thread serves every limit
     * (no thread per request), and the pending limit is dropped as soon as the exchange completes.
     */
    RequestTimer SYSTEM = (exchange, timeout) -> exchange.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS);

    /**
     * Starts the limit of one exchange. Returns at once; the exchange goes on without it.
     *
     * @param exchange the exchange's answer to come: when {@code timeout} passes before it completes,
     *     the timer completes it exceptionally with a {@link TimeoutException} (and with nothing
     *     else); the SDK then cancels the exchange and throws {@link RequestTimeoutException}
     * @param timeout the configured limit (the client's or the token source's {@code timeout})
     */
    void limit(CompletableFuture<?> exchange, Duration timeout);
}
