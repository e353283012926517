package dev.orgadmin.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link RequestTimer} the test runs by hand: the limits it is given never pass on their own;
 * {@link #expireNext()} expires them, so a test decides when an exchange times out without
 * waiting for real time.
 */
final class ManualTimer implements RequestTimer {
    /** One limit the SDK started. */
    private record Limit(CompletableFuture<?> exchange, Duration timeout) {
    }

    private final BlockingQueue<Limit> started = new LinkedBlockingQueue<>();
    private final List<Duration> asked = new CopyOnWriteArrayList<>();

    @Override
    public void limit(CompletableFuture<?> exchange, Duration timeout) {
        asked.add(timeout);
        started.add(new Limit(exchange, timeout));
    }

    /**
     * Expires the oldest limit whose exchange is still under way, as if its time had passed. The
     * SDK starts a limit just after it sends the request, so this waits for one to be started (up
     * to 10 s, a bound that only a broken test reaches).
     *
     * @return the limit that was expired
     * @throws AssertionError when no exchange under way got a limit within 10 s
     */
    Duration expireNext() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            Limit next = started.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (next == null) throw new AssertionError("no request under way was given a time limit");
            if (next.exchange().completeExceptionally(new TimeoutException("expired by the test"))) return next.timeout();
        }
    }

    /** @return every limit the SDK asked for, in order, expired or not */
    List<Duration> asked() {
        return List.copyOf(asked);
    }
}
