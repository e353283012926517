package dev.orgadmin.client;

import java.time.Duration;

/**
 * Waits between attempts. The default sleeps the calling thread; tests inject one that records the
 * waits instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {
    /** Sleeps the calling thread. */
    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

    /**
     * @param duration how long to wait
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    void sleep(Duration duration) throws InterruptedException;
}
