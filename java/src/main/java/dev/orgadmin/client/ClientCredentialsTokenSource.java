package dev.orgadmin.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.DoubleSupplier;

/**
 * Gets tokens with the OAuth 2.0 client-credentials grant (RFC 6749 §4.4):
 * {@code POST {base}/realms/{realm}/protocol/openid-connect/token} with
 * {@code grant_type=client_credentials}, the API key presented as form fields or HTTP Basic.
 *
 * <p>Tokens are cached per realm until {@code expires_in - refreshSkew} (the skew capped to half the
 * token's lifetime). Concurrent callers of one realm share one token request (single flight): a
 * hundred threads that need a token cost one request. The token request is repeatable (a second
 * token is harmless), so it is retried here, inside the single flight, by the SDK's retry policy
 * (429, 502–504, timeouts and dropped connections; see {@link RetryPolicy}): a dropped answer costs
 * one more token request for all waiting threads, not one per thread. Thread-safe.
 *
 * <p>The secret is sent only in the token request and never appears in an exception or in
 * {@link #toString()}.
 *
 * <pre>{@code
 * TokenSource tokens = new ClientCredentialsTokenSource(baseUrl, clientId, clientSecret);
 * OrgAdminClient client = new OrgAdminClient(baseUrl, tokens);
 * }</pre>
 */
public final class ClientCredentialsTokenSource implements TokenSource {
    private final URI baseUrl;
    private final String clientId;
    private final String clientSecret;
    private final ClientAuthentication authentication;
    private final Duration refreshSkew;
    private final Duration timeout;
    private final RequestTimer timer;
    private final Clock clock;
    private final HttpClient httpClient;
    private final RetryPolicy.Settings retry;
    private final Sleeper sleeper;
    private final Map<String, CachedToken> cache = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<CachedToken>> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger requestsSent = new AtomicInteger();

    /** A cached token and when to stop using it. */
    private record CachedToken(String token, long refreshAtMillis) {
    }

    /**
     * A token source with the defaults: form authentication, refresh 30 s before expiry, 30 s timeout.
     *
     * @param baseUrl the service's base address, e.g. {@code https://acme.example.com}; a path prefix is kept
     * @param clientId the API key's client id
     * @param clientSecret the API key's secret
     */
    public ClientCredentialsTokenSource(URI baseUrl, String clientId, String clientSecret) {
        this(builder(baseUrl, clientId, clientSecret));
    }

    private ClientCredentialsTokenSource(Builder b) {
        this.baseUrl = BaseUrl.check(b.baseUrl, "ClientCredentialsTokenSource");
        this.clientId = b.clientId;
        this.clientSecret = b.clientSecret;
        this.authentication = b.authentication;
        this.refreshSkew = b.refreshSkew;
        this.timeout = b.timeout;
        this.timer = b.timer;
        this.clock = b.clock;
        this.httpClient = b.httpClient != null ? b.httpClient : Transport.newHttpClient(b.timeout);
        this.retry = new RetryPolicy.Settings(b.maxRetries, b.retryBaseDelay, b.retryMaxDelay, b.random);
        this.sleeper = b.sleeper;
    }

    /**
     * @param baseUrl the service's base address
     * @param clientId the API key's client id
     * @param clientSecret the API key's secret
     * @return a builder for the other options
     */
    public static Builder builder(URI baseUrl, String clientId, String clientSecret) {
        return new Builder(baseUrl, clientId, clientSecret);
    }

    /**
     * @return how many token requests were sent so far (observability; tests count them)
     */
    public int getTokenRequestCount() {
        return requestsSent.get();
    }

    /**
     * Runs the token requests. The shared request of a realm runs on its own thread rather than on
     * the first caller's, so a caller that is interrupted (and gives up) does not fail the others
     * waiting for the same token. Daemon threads: a token request never keeps the JVM alive.
     */
    private static final ExecutorService FETCHERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "orgadmin-token-request");
        thread.setDaemon(true);
        return thread;
    });

    @Override
    public String getToken(String realm) {
        Objects.requireNonNull(realm, "realm");
        CachedToken cached = cache.get(realm);
        if (isFresh(cached)) return cached.token;
        CompletableFuture<CachedToken> mine = new CompletableFuture<>();
        CompletableFuture<CachedToken> running = inFlight.putIfAbsent(realm, mine);
        if (running == null) {
            running = mine;
            FETCHERS.execute(() -> {
                CachedToken fresh = null;
                Throwable failure = null;
                try {
                    // Another thread may have cached a fresh token between our look and our claim.
                    CachedToken current = cache.get(realm);
                    fresh = isFresh(current) ? current : requestToken(realm);
                } catch (Throwable failed) {
                    failure = failed;
                }
                // Leave the in-flight map before completing: a caller that finds this request there
                // must never be handed its answer once it is old (the cache has it by now).
                inFlight.remove(realm, mine);
                if (failure != null) mine.completeExceptionally(failure);
                else mine.complete(fresh);
            });
        }
        return await(running, realm).token;
    }

    private boolean isFresh(CachedToken cached) {
        return cached != null && clock.millis() < cached.refreshAtMillis;
    }

    @Override
    public void invalidate(String realm, String token) {
        cache.computeIfPresent(realm, (r, cached) -> cached.token.equals(token) ? null : cached);
    }

    /** Waits for the shared request; its failure is every waiter's failure. */
    private CachedToken await(CompletableFuture<CachedToken> pending, String realm) {
        try {
            return pending.get();
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw new CancelledException("Waiting for a token of realm \"" + realm + "\"", interrupted);
        } catch (ExecutionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof RuntimeException) throw (RuntimeException) cause;
            if (cause instanceof Error) throw (Error) cause;
            throw new IllegalStateException(cause);
        }
    }

    /**
     * Gets a token with retries (the token request is repeatable) and caches it. Failures carry
     * what every attempt got.
     */
    private CachedToken requestToken(String realm) {
        List<String> outcomes = new ArrayList<>();
        for (int retries = 0; ; retries++) {
            RetryPolicy.Failure failure;
            try {
                return requestTokenOnce(realm);
            } catch (TokenException | RequestTimeoutException | NetworkException error) {
                failure = tokenFailure(error);
                if (failure == null) throw error;
                outcomes.add(RetryPolicy.describeAttempt(failure));
                if (!RetryPolicy.isRetryable(failure, true) || retries >= retry.maxRetries()) {
                    throw error.withAttempts(new AttemptLog(outcomes,
                            RetryPolicy.whyNotRetried(failure, true, outcomes.size(), retry.maxRetries())));
                }
            }
            try {
                sleeper.sleep(RetryPolicy.delayBeforeRetry(failure, retries, retry));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new CancelledException("Waiting to retry the token request of realm \"" + realm + "\"", interrupted);
            }
        }
    }

    /** The retry policy's view of a failed token request; null for an answer that is not a token. */
    private static RetryPolicy.Failure tokenFailure(OrgAdminException error) {
        if (error instanceof TokenException) {
            if (error.getStatus() == 0 || error.getStatus() == 200) return null;
            OptionalLong retryAfter = ((TokenException) error).getRetryAfterSeconds();
            return RetryPolicy.Failure.status(error.getStatus(), retryAfter.isPresent() ? retryAfter.getAsLong() : null);
        }
        return RetryPolicy.Failure.of(error);
    }

    /** Sends one token request and caches its answer. */
    private CachedToken requestTokenOnce(String realm) {
        String path = ApiPaths.token(realm);
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        HttpRequest.Builder request = HttpRequest.newBuilder(BaseUrl.resolve(baseUrl, path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json");
        if (authentication == ClientAuthentication.BASIC) {
            String pair = ApiPaths.formEncode(clientId) + ":" + ApiPaths.formEncode(clientSecret);
            request.header("Authorization", "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
        } else {
            form.put("client_id", clientId);
            form.put("client_secret", clientSecret);
        }
        request.POST(HttpRequest.BodyPublishers.ofString(ApiPaths.form(form)));

        long startedAt = clock.millis();
        requestsSent.incrementAndGet();
        HttpResponse<String> response = Transport.send(httpClient, request.build(), timeout, timer, "POST", path);
        if (response.statusCode() != 200) {
            ErrorBody body = ErrorBody.read(response.body()).redacted(clientSecret, ApiPaths.formEncode(clientSecret));
            Long retryAfter = RetryPolicy.parseRetryAfter(response.headers().firstValue("Retry-After").orElse(null), clock.millis());
            throw new TokenException(realm, response.statusCode(), body.error(), body.description(), retryAfter, null);
        }
        Object json;
        try {
            json = Json.parse(response.body());
        } catch (Json.ParseException notJson) {
            throw new TokenException(realm, 200, null, null, null,
                    "Token endpoint of realm \"" + realm + "\" answered 200 with a body that is not JSON");
        }
        Object token = json instanceof Map ? ((Map<?, ?>) json).get("access_token") : null;
        Object expiresIn = json instanceof Map ? ((Map<?, ?>) json).get("expires_in") : null;
        if (!(token instanceof String) || ((String) token).isEmpty()) {
            throw new TokenException(realm, 200, null, null, null,
                    "Token endpoint of realm \"" + realm + "\" answered 200 without an access_token");
        }
        if (!(expiresIn instanceof Number) || !(((Number) expiresIn).doubleValue() > 0)) {
            throw new TokenException(realm, 200, null, null, null,
                    "Token endpoint of realm \"" + realm + "\" answered 200 without a positive expires_in");
        }
        double lifetime = ((Number) expiresIn).doubleValue();
        // Refresh early so a token never expires between our check and the service's, but never
        // earlier than half-way: a short-lived token would otherwise be refetched on every call.
        double skew = Math.min(refreshSkew.toMillis() / 1000.0, lifetime / 2);
        CachedToken entry = new CachedToken((String) token, startedAt + (long) ((lifetime - skew) * 1000));
        cache.put(realm, entry);
        return entry;
    }

    /** Names the endpoint and the key, never the secret. */
    @Override
    public String toString() {
        return "ClientCredentialsTokenSource{baseUrl=" + BaseUrl.withoutUserInfo(baseUrl) + ", clientId=" + clientId
                + ", authentication=" + authentication + "}";
    }

    /** Options of {@link ClientCredentialsTokenSource}. Not thread-safe; build once. */
    public static final class Builder {
        private final URI baseUrl;
        private final String clientId;
        private final String clientSecret;
        private ClientAuthentication authentication = ClientAuthentication.FORM;
        private Duration refreshSkew = Duration.ofSeconds(30);
        private Duration timeout = Duration.ofSeconds(30);
        private RequestTimer timer = RequestTimer.SYSTEM;
        private Clock clock = Clock.systemUTC();
        private HttpClient httpClient;
        private int maxRetries = RetryPolicy.DEFAULT_MAX_RETRIES;
        private Duration retryBaseDelay = RetryPolicy.DEFAULT_BASE_DELAY;
        private Duration retryMaxDelay = RetryPolicy.DEFAULT_MAX_DELAY;
        private Sleeper sleeper = Sleeper.SYSTEM;
        private DoubleSupplier random = () -> ThreadLocalRandom.current().nextDouble();

        private Builder(URI baseUrl, String clientId, String clientSecret) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
            if (clientId == null || clientId.isEmpty()) throw new IllegalArgumentException("ClientCredentialsTokenSource needs a clientId");
            if (clientSecret == null || clientSecret.isEmpty()) {
                throw new IllegalArgumentException("ClientCredentialsTokenSource needs a clientSecret");
            }
            this.clientId = clientId;
            this.clientSecret = clientSecret;
        }

        /**
         * @param authentication form fields (default) or HTTP Basic
         * @return this builder
         */
        public Builder clientAuthentication(ClientAuthentication authentication) {
            this.authentication = Objects.requireNonNull(authentication, "authentication");
            return this;
        }

        /**
         * @param refreshSkew fetch a new token this long before the current one expires (default 30 s,
         *     capped to half the token's lifetime); not negative
         * @return this builder
         */
        public Builder refreshSkew(Duration refreshSkew) {
            if (refreshSkew == null || refreshSkew.isNegative()) throw new IllegalArgumentException("refreshSkew must be >= 0");
            this.refreshSkew = refreshSkew;
            return this;
        }

        /**
         * @param timeout limit of one token request, headers and body (default 30 s); positive
         * @return this builder
         */
        public Builder timeout(Duration timeout) {
            this.timeout = SettingChecks.positiveTimeout(timeout);
            return this;
        }

        /**
         * @param timer keeps the {@link #timeout(Duration)} of each token request (default
         *     {@link RequestTimer#SYSTEM}; tests inject one they expire by hand)
         * @return this builder
         */
        public Builder timer(RequestTimer timer) {
            this.timer = Objects.requireNonNull(timer, "timer");
            return this;
        }

        /**
         * @param clock the clock that decides when a token is due for refresh (tests move it)
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /**
         * @param httpClient the client that sends token requests (default: a private HTTP/1.1 client)
         * @return this builder
         */
        public Builder httpClient(HttpClient httpClient) {
            this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
            return this;
        }

        /**
         * @param maxRetries retries of a failed token request (default 3); ≥ 0
         * @return this builder
         */
        public Builder maxRetries(int maxRetries) {
            this.maxRetries = SettingChecks.maxRetries(maxRetries);
            return this;
        }

        /**
         * @param delay first backoff ceiling, doubling per retry (default 250 ms); ≥ 0
         * @return this builder
         */
        public Builder retryBaseDelay(Duration delay) {
            this.retryBaseDelay = SettingChecks.nonNegativeDelay("retryBaseDelay", delay);
            return this;
        }

        /**
         * @param delay cap of every wait, {@code Retry-After} included (default 10 s); ≥ 0
         * @return this builder
         */
        public Builder retryMaxDelay(Duration delay) {
            this.retryMaxDelay = SettingChecks.nonNegativeDelay("retryMaxDelay", delay);
            return this;
        }

        /**
         * @param sleeper waits between attempts (tests inject one that records)
         * @return this builder
         */
        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
            return this;
        }

        /**
         * @param random source of the backoff jitter, in [0, 1)
         * @return this builder
         */
        public Builder random(DoubleSupplier random) {
            this.random = Objects.requireNonNull(random, "random");
            return this;
        }

        /**
         * @return the token source
         */
        public ClientCredentialsTokenSource build() {
            return new ClientCredentialsTokenSource(this);
        }
    }
}
