package dev.orgadmin.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The SDK's one request pipeline: every API call goes through {@link #send}, which adds the bearer
 * token, applies the timeout, retries by {@link RetryPolicy}, refreshes the token once after a 401
 * and turns error answers into the typed exceptions. Client methods only build paths and read
 * bodies. Thread-safe.
 */
final class RequestPipeline {
    /**
     * One API request. {@code repeatable}: sending it twice has the effect of sending it once although
     * its method is not idempotent (a create that carries a client-chosen id); idempotent methods are
     * repeatable anyway. {@code secrets}: values the body carries (a webhook secret, an identity
     * provider's client secret) that an error answer must not repeat: they are redacted from it like
     * the token.
     */
    record ApiRequest(String method, String path, String query, String contentType, String body, String realm, boolean repeatable,
                      List<String> secrets) {
        ApiRequest {
            secrets = List.copyOf(secrets);
        }

        /** A request whose body carries no secret. */
        ApiRequest(String method, String path, String query, String contentType, String body, String realm, boolean repeatable) {
            this(method, path, query, contentType, body, realm, repeatable, List.of());
        }
    }

    /** A successful (2xx) answer, body read in full. */
    record ApiResponse(int status, HttpHeaders headers, String text) {
    }

    /**
     * What one attempt came to: an answer, a 401 (with the token it rejected), or an exception with
     * the retry policy's view of it ({@code failure} null: final, e.g. a token that could not be had).
     */
    private record Outcome(ApiResponse response, String unauthorizedToken, HttpErrorDetails details,
                           OrgAdminException error, RetryPolicy.Failure failure) {
        static Outcome ok(ApiResponse response) {
            return new Outcome(response, null, null, null, null);
        }

        static Outcome unauthorized(String token, HttpErrorDetails details) {
            return new Outcome(null, token, details, null, null);
        }

        static Outcome fail(OrgAdminException error, RetryPolicy.Failure failure) {
            return new Outcome(null, null, null, error, failure);
        }
    }

    private final URI baseUrl;
    private final TokenSource tokenSource;
    private final HttpClient httpClient;
    private final Duration timeout;
    private final RequestTimer timer;
    private final RetryPolicy.Settings retry;
    private final String userAgent;
    private final Sleeper sleeper;
    private final Clock clock;

    RequestPipeline(URI baseUrl, TokenSource tokenSource, HttpClient httpClient, Duration timeout, RequestTimer timer,
                    RetryPolicy.Settings retry, String userAgent, Sleeper sleeper, Clock clock) {
        this.baseUrl = baseUrl;
        this.tokenSource = tokenSource;
        this.httpClient = httpClient;
        this.timeout = timeout;
        this.timer = timer;
        this.retry = retry;
        this.userAgent = userAgent;
        this.sleeper = sleeper;
        this.clock = clock;
    }

    /**
     * Sends {@code request} and returns its 2xx answer, or throws: an {@link HttpStatusException}
     * subclass for an error status, {@link RequestTimeoutException}, {@link NetworkException}, a
     * {@link TokenException} from the token source, or {@link CancelledException}.
     */
    ApiResponse send(ApiRequest request) {
        boolean repeatable = request.repeatable() || RetryPolicy.isIdempotent(request.method());
        List<String> outcomes = new ArrayList<>();
        int retries = 0;
        // The token a 401 rejected, and what that 401 said; set once, since we refresh only once.
        String rejectedToken = null;
        HttpErrorDetails rejectedDetails = null;
        for (;;) {
            if (Thread.currentThread().isInterrupted()) {
                throw new CancelledException(request.method() + " " + request.path(), new InterruptedException());
            }
            Outcome outcome = attempt(request, rejectedToken);
            if (outcome.response != null) return outcome.response;
            if (outcome.unauthorizedToken != null) {
                // The token may have been revoked, expired early or signed with a rotated key: one
                // fresh token, one more try. A 401 that survives that is about the credentials.
                if (rejectedToken == null && outcome.details != null) {
                    outcomes.add("HTTP 401 (fresh token fetched)");
                    rejectedToken = outcome.unauthorizedToken;
                    rejectedDetails = outcome.details;
                    tokenSource.invalidate(request.realm(), outcome.unauthorizedToken);
                    continue;
                }
                // Without details of its own the token source had no other token to offer (a static token).
                boolean refreshed = outcome.details != null;
                if (refreshed) outcomes.add("HTTP 401");
                HttpErrorDetails details = refreshed ? outcome.details : rejectedDetails;
                throw new UnauthorizedException(details.withMessage(details.standardMessage()
                        + ". The credentials were refused" + (refreshed ? " even with a fresh token" : "")
                        + ": the API key or token is wrong, expired or revoked, or it lacks the permission for this operation"
                        + " (the hosted service answers 401 where orgadmin answers 403).")).withAttempts(new AttemptLog(outcomes, ""));
            }
            RetryPolicy.Failure failure = outcome.failure;
            // Failures the policy does not know (a token the token source could not get) are final.
            if (failure == null) throw outcome.error;
            outcomes.add(RetryPolicy.describeAttempt(failure));
            if (!RetryPolicy.isRetryable(failure, repeatable) || retries >= retry.maxRetries()) {
                String stoppedBecause = RetryPolicy.whyNotRetried(failure, repeatable, outcomes.size(), retry.maxRetries());
                throw outcome.error.withAttempts(new AttemptLog(outcomes, stoppedBecause));
            }
            Duration wait = RetryPolicy.delayBeforeRetry(failure, retries, retry);
            retries++;
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                throw new CancelledException(request.method() + " " + request.path(), interrupted);
            }
        }
    }

    /**
     * One exchange: token, request, full body. When the token source hands out {@code rejectedToken}
     * again (a static token), the request is not sent: the outcome is a final "unauthorized"
     * without details of its own.
     */
    private Outcome attempt(ApiRequest request, String rejectedToken) {
        String method = request.method();
        String path = request.path();
        String token;
        try {
            token = tokenSource.getToken(request.realm());
        } catch (CancelledException cancelled) {
            throw cancelled;
        } catch (OrgAdminException failed) {
            // The token source retried by itself (once for every waiting call); its failure is final here.
            return Outcome.fail(failed, null);
        }
        if (token == null || token.isEmpty()) throw new IllegalStateException(tokenSource.getClass().getName() + " returned no token");
        if (token.equals(rejectedToken)) return Outcome.unauthorized(token, null);

        HttpRequest.Builder builder = HttpRequest.newBuilder(BaseUrl.resolve(baseUrl, path + request.query()))
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .header("User-Agent", userAgent);
        HttpRequest.BodyPublisher body = request.body() == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(request.body());
        if (request.contentType() != null) builder.header("Content-Type", request.contentType());
        builder.method(method, body);

        HttpResponse<String> response;
        try {
            response = Transport.send(httpClient, builder.build(), timeout, timer, method, path);
        } catch (RequestTimeoutException | NetworkException failed) {
            return Outcome.fail(failed, RetryPolicy.Failure.of(failed));
        }

        int status = response.statusCode();
        if (status >= 200 && status < 300) return Outcome.ok(new ApiResponse(status, response.headers(), response.body()));

        List<String> secrets = new ArrayList<>(request.secrets());
        secrets.add(token);
        ErrorBody read = ErrorBody.read(response.body()).redacted(secrets.toArray(new String[0]));
        Long retryAfter = RetryPolicy.parseRetryAfter(response.headers().firstValue("Retry-After").orElse(null), clock.millis());
        HttpErrorDetails details = new HttpErrorDetails(status, read.error(), read.description(), method, path, retryAfter, null);
        if (status == 401) return Outcome.unauthorized(token, details);
        return Outcome.fail(HttpStatusException.of(details), RetryPolicy.Failure.status(status, retryAfter));
    }
}
