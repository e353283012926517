package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's retry policy (see {@link RetryPolicy}) against a local stub: which failures are
 * retried for which method, how long it waits (recorded, never slept), and the exceptions at the end.
 * Time limits are kept by a {@link ManualTimer}: a request times out when the test says so.
 */
class RetryTest {
    private static final String TOKEN_PATH = "/realms/acme/protocol/openid-connect/token";
    private static final String ORGS = "/realms/acme/orgs";
    private static final String COUNT = "/realms/acme/orgs/count";
    private static final String CREATED = "{}";

    private final List<Duration> waits = new CopyOnWriteArrayList<>();
    private final CountDownLatch releaseHeld = new CountDownLatch(1);
    private final ManualTimer timer = new ManualTimer();
    /** Runs a call the test expires the time limit of, while it waits. */
    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void releaseHeldAnswers() {
        releaseHeld.countDown();
        caller.shutdownNow();
    }

    /** Starts {@code call} on the caller thread. */
    private <T> Future<T> inBackground(Callable<T> call) {
        return caller.submit(call);
    }

    /** What {@code call} threw, within 10 s. */
    private static Throwable failureOf(Future<?> call) {
        return assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS)).getCause();
    }

    /** A service stub: the token endpoint always answers; API paths answer by {@code api}. */
    private static StubServer service(StubServer.Handler api) throws IOException {
        return new StubServer((request, n) -> request.path().equals(TOKEN_PATH)
                ? StubServer.Answer.json(200, "{\"access_token\":\"tok\",\"expires_in\":300}")
                : api.handle(request, n));
    }

    /** A client with 3 retries, base 100 ms, cap 1 s, jitter fixed at 0.5, waits recorded, a 1 s limit kept by {@link #timer}. */
    private OrgAdminClient client(URI base) {
        return OrgAdminClient.builder(base, new StaticTokenSource("tok")).realm("acme").maxRetries(3)
                .retryBaseDelay(Duration.ofMillis(100)).retryMaxDelay(Duration.ofSeconds(1))
                .timeout(Duration.ofMillis(1000)).timer(timer).random(() -> 0.5).sleeper(waits::add).build();
    }

    private static StubServer.Answer created(String id) {
        return new StubServer.Answer(201, "", Map.of("Location", "http://x.example.com" + ORGS + "/" + id), false);
    }

    private static StubServer.Answer status(int status) {
        return StubServer.Answer.json(status, "{\"error\":\"internal_error\",\"error_description\":\"Try later.\"}");
    }

    @Test
    void retriesAnIdempotentRequestOn5xxWithBackoffAndJitter() throws Exception {
        try (StubServer stub = service((request, n) -> n <= 2 ? status(n == 1 ? 503 : 502) : StubServer.Answer.json(200, "5"))) {
            assertEquals(5, client(stub.baseUrl()).countOrganizations());
            assertEquals(3, stub.count(COUNT));
            // Full jitter at 0.5: half of 100 ms, then half of 200 ms.
            assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100)), waits);
        }
    }

    @Test
    void givesUpAfterMaxRetries() throws Exception {
        try (StubServer stub = service((request, n) -> status(504))) {
            ServerException error = assertThrows(ServerException.class, () -> client(stub.baseUrl()).countOrganizations());
            assertEquals(ErrorCode.SERVER, error.getCode());
            assertEquals(504, error.getStatus());
            assertEquals("GET " + COUNT + " failed: 504 internal_error: Try later. (4 attempts: HTTP 504; HTTP 504; HTTP 504; HTTP 504; "
                    + "gave up after 4 attempts (max_retries = 3))", error.getMessage());
            assertEquals(List.of("HTTP 504", "HTTP 504", "HTTP 504", "HTTP 504"), error.getAttempts().getOutcomes());
            assertEquals(4, stub.count(COUNT));
            assertEquals(List.of(Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(200)), waits);
        }
    }

    @Test
    void neverRetriesACreateWithoutIdOn5xx() throws Exception {
        try (StubServer stub = service((request, n) -> status(502))) {
            ServerException error = assertThrows(ServerException.class,
                    () -> client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertTrue(error.getMessage().endsWith("(not retried: the request may have been carried out, and sending it again could do it twice)"),
                    error.getMessage());
            assertEquals(List.of("HTTP 502"), error.getAttempts().getOutcomes());
            assertEquals(1, stub.count(ORGS));
            assertTrue(waits.isEmpty());
        }
    }

    @Test
    void retriesEveryMethodOn429WithRetryAfterCappedByTheMaximum() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1
                ? StubServer.Answer.json(429, "{\"error\":\"rate_limited\",\"error_description\":\"Slow down.\"}", Map.of("Retry-After", "7"))
                : created("org-1"))) {
            assertEquals("org-1", client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertEquals(2, stub.count(ORGS));
            assertEquals(List.of(Duration.ofSeconds(1)), waits, "Retry-After 7 s capped by retryMaxDelay 1 s");
        }
    }

    @Test
    void retriesACreateOn429EvenWithoutRetryAfter() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1
                ? StubServer.Answer.json(429, "{\"error\":\"rate_limited\",\"error_description\":\"Slow down.\"}")
                : created("org-4"))) {
            assertEquals("org-4", client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertEquals(List.of(Duration.ofMillis(50)), waits, "backoff when the 429 named no wait");
        }
    }

    @Test
    void retriesACreateWithAClientChosenIdOn502() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1 ? status(502) : created("my-id"))) {
            assertEquals("my-id", client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex").withId("my-id")));
            assertEquals(2, stub.count(ORGS));
        }
    }

    @Test
    void retriesACreateOn503WithRetryAfter() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1
                ? StubServer.Answer.json(503, "{\"error\":\"internal_error\",\"error_description\":\"Busy.\"}", Map.of("Retry-After", "0"))
                : created("org-2"))) {
            assertEquals("org-2", client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertEquals(List.of(Duration.ZERO), waits);
        }
    }

    @Test
    void reportsRateLimitingWithRetryAfterWhenRetriesRunOut() throws Exception {
        try (StubServer stub = service((request, n) ->
                StubServer.Answer.json(429, "{\"error\":\"rate_limited\",\"error_description\":\"Slow down.\"}", Map.of("Retry-After", "1")))) {
            RateLimitedException error = assertThrows(RateLimitedException.class, () -> client(stub.baseUrl()).getOrganization("o"));
            assertEquals(ErrorCode.RATE_LIMITED, error.getCode());
            assertEquals(1, error.getRetryAfterSeconds().getAsLong());
            assertEquals(4, stub.count(ORGS + "/o"));
        }
    }

    @Test
    void retriesADroppedConnectionForAnIdempotentRequest() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1 ? StubServer.Answer.dropConnection() : StubServer.Answer.empty(204))) {
            client(stub.baseUrl()).addMember("o", "u");
            assertEquals(2, stub.count(ORGS + "/o/members/u"));
            assertEquals(1, waits.size());
        }
    }

    @Test
    void neverRetriesACreateWithoutIdAfterADroppedConnection() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1 ? StubServer.Answer.dropConnection() : created("org-3"))) {
            NetworkException error = assertThrows(NetworkException.class,
                    () -> client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertEquals(ErrorCode.NETWORK, error.getCode());
            assertEquals(NetworkException.CONNECTION_CLOSED, error.getCauseCode());
            assertEquals(1, stub.count(ORGS));
        }
    }

    @Test
    void retriesACreateWithAClientChosenIdAfterADroppedConnection() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1 ? StubServer.Answer.dropConnection() : created("my-id"))) {
            assertEquals("my-id", client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex").withId("my-id")));
            assertEquals(2, stub.count(ORGS));
            assertEquals("{\"id\":\"my-id\",\"name\":\"globex\"}", stub.requests().get(1).body());
        }
    }

    @Test
    void retriesATimedOutRead() throws Exception {
        CountDownLatch firstArrived = new CountDownLatch(1);
        try (StubServer stub = service((request, n) -> {
            if (n == 1) {
                // Held past the client's 1 s limit, which the test expires meanwhile.
                firstArrived.countDown();
                releaseHeld.await(10, TimeUnit.SECONDS);
            }
            return StubServer.Answer.json(200, "2");
        })) {
            Future<Long> count = inBackground(() -> client(stub.baseUrl()).countOrganizations());
            assertTrue(firstArrived.await(10, TimeUnit.SECONDS));
            assertEquals(Duration.ofMillis(1000), timer.expireNext(), "the first attempt's limit");
            assertEquals(2, count.get(10, TimeUnit.SECONDS));
            releaseHeld.countDown();
            assertEquals(2, stub.count(COUNT));
            assertEquals(List.of(Duration.ofMillis(1000), Duration.ofMillis(1000)), timer.asked(), "each attempt has its own limit");
            assertEquals(List.of(Duration.ofMillis(50)), waits);
        }
    }

    @Test
    void neverRetriesATimedOutCreateWithoutId() throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        try (StubServer stub = service((request, n) -> {
            arrived.countDown();
            releaseHeld.await(10, TimeUnit.SECONDS);
            return created("late");
        })) {
            Future<String> create = inBackground(() -> client(stub.baseUrl()).createOrganization(OrganizationInput.named("globex")));
            assertTrue(arrived.await(10, TimeUnit.SECONDS));
            assertEquals(Duration.ofMillis(1000), timer.expireNext(), "the client's limit");
            RequestTimeoutException error = assertInstanceOf(RequestTimeoutException.class, failureOf(create));
            releaseHeld.countDown();
            assertEquals(ErrorCode.TIMEOUT, error.getCode());
            assertEquals(Duration.ofMillis(1000), error.getTimeout());
            assertEquals("POST " + ORGS + " timed out after 1000 ms (not retried: the request may have been carried out, "
                    + "and sending it again could do it twice)", error.getMessage());
            assertEquals(1, stub.count(ORGS));
            assertTrue(waits.isEmpty());
        }
    }

    @Test
    void retriesARefusedConnectionForEveryMethod() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        OrgAdminClient client = client(URI.create("http://127.0.0.1:" + port));
        NetworkException error = assertThrows(NetworkException.class, () -> client.createOrganization(OrganizationInput.named("x")));
        assertEquals(NetworkException.REFUSED, error.getCauseCode());
        assertEquals(3, waits.size(), "nothing was sent, so even a POST is retried");
        assertEquals(4, error.getAttempts().getOutcomes().size());
        assertEquals("connection refused (ECONNREFUSED)", error.getAttempts().getOutcomes().get(0));
        assertTrue(error.getMessage().startsWith("POST " + ORGS + " failed: network error: "), error.getMessage());
    }

    @Test
    void retriesTheWholeAttemptWhenTheTokenEndpointSaysTryLater() throws Exception {
        try (StubServer stub = new StubServer((request, n) -> {
            if (request.path().equals(TOKEN_PATH)) {
                return n == 1
                        ? StubServer.Answer.json(429, "{\"error\":\"rate_limited\",\"error_description\":\"Slow down.\"}", Map.of("Retry-After", "0"))
                        : StubServer.Answer.json(200, "{\"access_token\":\"tok\",\"expires_in\":300}");
            }
            return StubServer.Answer.json(200, "1");
        })) {
            ClientCredentialsTokenSource tokens = ClientCredentialsTokenSource.builder(stub.baseUrl(), "id", "secret")
                    .sleeper(waits::add).build();
            OrgAdminClient client = OrgAdminClient.builder(stub.baseUrl(), tokens).realm("acme").sleeper(d -> {
                throw new AssertionError("the pipeline must not retry a token failure again");
            }).build();
            assertEquals(1, client.countOrganizations());
            assertEquals(2, tokens.getTokenRequestCount());
            assertEquals(List.of(Duration.ZERO), waits);
        }
    }

    @Test
    void neverRetriesARefusedToken() throws Exception {
        try (StubServer stub = new StubServer((request, n) ->
                StubServer.Answer.json(401, "{\"error\":\"unauthorized_client\",\"error_description\":\"Invalid client secret.\"}"))) {
            ClientCredentialsTokenSource tokens = ClientCredentialsTokenSource.builder(stub.baseUrl(), "id", "secret")
                    .sleeper(waits::add).build();
            OrgAdminClient client = OrgAdminClient.builder(stub.baseUrl(), tokens).realm("acme").sleeper(waits::add).build();
            TokenException error = assertThrows(TokenException.class, client::countOrganizations);
            assertEquals(List.of("HTTP 401"), error.getAttempts().getOutcomes());
            assertEquals("unauthorized_client", error.getError());
            assertEquals(1, tokens.getTokenRequestCount());
            assertTrue(waits.isEmpty());
        }
    }

    @Test
    void keepsAnExcerptOfANonJsonErrorBody() throws Exception {
        String page = "<html>\n<body>Bad   gateway " + "x".repeat(300) + "</body></html>";
        try (StubServer stub = service((request, n) -> new StubServer.Answer(418, page, Map.of("Content-Type", "text/html"), false))) {
            HttpStatusException error = assertThrows(HttpStatusException.class, () -> client(stub.baseUrl()).countOrganizations());
            assertEquals(ErrorCode.HTTP, error.getCode());
            assertEquals(418, error.getStatus());
            assertEquals(null, error.getError());
            assertTrue(error.getErrorDescription().startsWith("<html> <body>Bad gateway xxx"), error.getErrorDescription());
            assertEquals(201, error.getErrorDescription().length());
            assertTrue(waits.isEmpty());
        }
    }

    @Test
    void reportsASuccessWithAnUnusableBody() throws Exception {
        try (StubServer stub = service((request, n) -> n == 1 ? StubServer.Answer.json(200, "{\"oops\":1}") : StubServer.Answer.empty(201))) {
            OrgAdminClient client = client(stub.baseUrl());
            UnexpectedResponseException shape = assertThrows(UnexpectedResponseException.class, () -> client.getOrganization("o"));
            assertEquals(ErrorCode.UNEXPECTED_RESPONSE, shape.getCode());
            assertEquals("GET " + ORGS + "/o returned 200 with an unusable answer: expected \"id\" to be a string", shape.getMessage());
            UnexpectedResponseException noLocation = assertThrows(UnexpectedResponseException.class,
                    () -> client.createOrganization(OrganizationInput.named("x")));
            assertTrue(noLocation.getMessage().endsWith("no Location header"));
        }
    }

    @Test
    void encodesPathSegmentsAndQueriesLikeTheTypeScriptSdk() throws Exception {
        try (StubServer stub = service((request, n) -> StubServer.Answer.json(200, "[]"))) {
            OrgAdminClient client = client(stub.baseUrl());
            client.listOrganizationsPage(OrganizationQuery.all().withSearch("a b").withAttribute("tier", "gold plus").withMax(5));
            client.listMembersPage("id/with slash", MemberQuery.all().withExcludeAdminAccounts(true));
            List<StubServer.Seen> seen = stub.requests();
            assertEquals("search=a%20b&q=tier%3A%22gold%20plus%22&max=5", seen.get(0).query());
            assertEquals(ORGS + "/id%2Fwith%20slash/members", seen.get(1).path());
            assertEquals("excludeAdminAccounts=true", seen.get(1).query());
            assertFalse(seen.get(0).header("User-Agent").isEmpty());
        }
    }
}
