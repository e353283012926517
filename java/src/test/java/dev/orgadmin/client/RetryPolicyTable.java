package dev.orgadmin.client;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates {@link RetryPolicy} for a table of failed attempts and prints the decisions as JSON, so
 * test/java/java-sdk.test.ts can compare them with the TypeScript policy (src/client/retry-policy.ts,
 * the source of truth) case by case: the two policies are kept in step by a test, not by hand.
 */
public final class RetryPolicyTable {
    private RetryPolicyTable() {
    }

    /** Connection failures by the neutral names the harness uses. */
    private static final Map<String, String> NETWORK_CODES = Map.of(
            "refused", NetworkException.REFUSED,
            "dropped", NetworkException.CONNECTION_CLOSED,
            "connect-timeout", NetworkException.CONNECT_TIMEOUT,
            "unknown-host", NetworkException.UNKNOWN_HOST);

    /**
     * @param args one path: a JSON array of cases {@code {kind, status?, retryAfterSeconds?, timeoutMs?,
     *     network?, repeatable, attempts, maxRetries}}
     * @throws Exception when the file cannot be read or is not such an array
     */
    public static void main(String[] args) throws Exception {
        List<Object> cases = Wire.array(Json.parse(Files.readString(Path.of(args[0]), StandardCharsets.UTF_8)), "the cases");
        RetryPolicy.Settings settings = new RetryPolicy.Settings(3, Duration.ofMillis(250), Duration.ofSeconds(10), () -> 0.5);
        List<Object> out = new ArrayList<>();
        for (Object item : cases) {
            Map<String, Object> c = Wire.object(item, "a case");
            RetryPolicy.Failure failure;
            switch (Wire.string(c, "kind")) {
                case "status":
                    failure = RetryPolicy.Failure.status((int) Wire.integer(c, "status"),
                            c.get("retryAfterSeconds") == null ? null : Wire.integer(c, "retryAfterSeconds"));
                    break;
                case "timeout":
                    failure = RetryPolicy.Failure.timeout(Wire.integer(c, "timeoutMs"));
                    break;
                default:
                    failure = RetryPolicy.Failure.network(NETWORK_CODES.get(Wire.string(c, "network")));
            }
            boolean repeatable = Wire.bool(c, "repeatable");
            int attempts = (int) Wire.integer(c, "attempts");
            int maxRetries = (int) Wire.integer(c, "maxRetries");
            Map<String, Object> decision = new LinkedHashMap<>();
            decision.put("retryable", RetryPolicy.isRetryable(failure, repeatable));
            decision.put("stoppedBecause", RetryPolicy.whyNotRetried(failure, repeatable, attempts, maxRetries));
            decision.put("delayMs", RetryPolicy.delayBeforeRetry(failure, attempts - 1, settings).toMillis());
            // Connection failures name platform codes (ECONNRESET vs CONNECTION_CLOSED): compared elsewhere.
            decision.put("describe", failure.kind == RetryPolicy.Failure.Kind.NETWORK && !"refused".equals(c.get("network"))
                    ? null : RetryPolicy.describeAttempt(failure));
            out.add(decision);
        }
        System.out.println(Json.write(out));
    }
}
