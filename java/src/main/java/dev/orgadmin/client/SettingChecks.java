package dev.orgadmin.client;

import java.time.Duration;

/**
 * The rules of the options that {@link OrgAdminClient.Builder} and
 * {@link ClientCredentialsTokenSource.Builder} both take (timeouts and retries), written once.
 */
final class SettingChecks {
    private SettingChecks() {
    }

    /** @return {@code timeout} when it is positive; otherwise throws {@link IllegalArgumentException} */
    static Duration positiveTimeout(Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) throw new IllegalArgumentException("timeout must be > 0");
        return timeout;
    }

    /** @return {@code maxRetries} when it is ≥ 0; otherwise throws {@link IllegalArgumentException} */
    static int maxRetries(int maxRetries) {
        if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be >= 0, got " + maxRetries);
        return maxRetries;
    }

    /** @return {@code delay} when it is ≥ 0; otherwise throws {@link IllegalArgumentException} naming {@code name} */
    static Duration nonNegativeDelay(String name, Duration delay) {
        if (delay == null || delay.isNegative()) throw new IllegalArgumentException(name + " must be >= 0");
        return delay;
    }
}
