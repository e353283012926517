package dev.orgadmin.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The client-credentials token source against a local stub of the token endpoint. */
class ClientCredentialsTokenSourceTest {
    private static final String TOKEN_PATH = "/realms/acme/protocol/openid-connect/token";
    private static final String SECRET = "s3cr+t/with=chars";

    /** A token endpoint that issues token-1, token-2, ... valid for {@code lifetime} seconds. */
    private static StubServer.Handler issuing(long lifetime) {
        return (request, n) -> StubServer.Answer.json(200,
                "{\"access_token\":\"token-" + n + "\",\"token_type\":\"Bearer\",\"expires_in\":" + lifetime + "}");
    }

    private static ClientCredentialsTokenSource.Builder source(StubServer stub) {
        return ClientCredentialsTokenSource.builder(stub.baseUrl(), "key-1", SECRET);
    }

    @Test
    void sendsTheFormGrantAndCachesTheToken() throws Exception {
        try (StubServer stub = new StubServer(issuing(300))) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            assertEquals("token-1", tokens.getToken("acme"));
            assertEquals("token-1", tokens.getToken("acme"));
            assertEquals(1, tokens.getTokenRequestCount());

            StubServer.Seen seen = stub.requests().get(0);
            assertEquals("POST", seen.method());
            assertEquals(TOKEN_PATH, seen.path());
            assertEquals("application/x-www-form-urlencoded", seen.header("Content-Type"));
            assertEquals("grant_type=client_credentials&client_id=key-1&client_secret=s3cr%2Bt%2Fwith%3Dchars", seen.body());
            assertNull(seen.header("Authorization"));
        }
    }

    @Test
    void presentsTheKeyWithHttpBasicWhenAsked() throws Exception {
        try (StubServer stub = new StubServer(issuing(300))) {
            ClientCredentialsTokenSource tokens = source(stub).clientAuthentication(ClientAuthentication.BASIC).build();
            assertEquals("token-1", tokens.getToken("acme"));
            StubServer.Seen seen = stub.requests().get(0);
            assertEquals("grant_type=client_credentials", seen.body());
            String expected = Base64.getEncoder().encodeToString("key-1:s3cr%2Bt%2Fwith%3Dchars".getBytes(StandardCharsets.UTF_8));
            assertEquals("Basic " + expected, seen.header("Authorization"));
        }
    }

    @Test
    void cachesPerRealm() throws Exception {
        try (StubServer stub = new StubServer(issuing(300))) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            assertEquals("token-1", tokens.getToken("acme"));
            assertEquals("token-1", tokens.getToken("globex"));
            assertEquals(2, tokens.getTokenRequestCount());
            assertEquals(1, stub.count("/realms/globex/protocol/openid-connect/token"));
        }
    }

    @Test
    void refreshesShortlyBeforeExpiry() throws Exception {
        MutableClock clock = new MutableClock(1_000_000);
        try (StubServer stub = new StubServer(issuing(300))) {
            ClientCredentialsTokenSource tokens = source(stub).clock(clock).refreshSkew(Duration.ofSeconds(30)).build();
            assertEquals("token-1", tokens.getToken("acme"));
            clock.advance(Duration.ofSeconds(269));
            assertEquals("token-1", tokens.getToken("acme"), "still 31 s before expiry: cached");
            clock.advance(Duration.ofSeconds(1));
            assertEquals("token-2", tokens.getToken("acme"), "30 s before expiry: refreshed");
            assertEquals(2, tokens.getTokenRequestCount());
        }
    }

    @Test
    void capsTheSkewToHalfOfAShortLifetime() throws Exception {
        MutableClock clock = new MutableClock(0);
        try (StubServer stub = new StubServer(issuing(10))) {
            ClientCredentialsTokenSource tokens = source(stub).clock(clock).build();
            assertEquals("token-1", tokens.getToken("acme"));
            clock.advance(Duration.ofMillis(4_999));
            assertEquals("token-1", tokens.getToken("acme"));
            clock.advance(Duration.ofMillis(1));
            assertEquals("token-2", tokens.getToken("acme"));
        }
    }

    @Test
    void letsOneRequestFlyWhenManyThreadsWait() throws Exception {
        int threads = 32;
        CountDownLatch requestArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        StubServer.Handler slow = (request, n) -> {
            requestArrived.countDown();
            assertTrue(release.await(10, TimeUnit.SECONDS));
            return issuing(300).handle(request, n);
        };
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (StubServer stub = new StubServer(slow)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            Set<Thread> workers = ConcurrentHashMap.newKeySet();
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                results.add(pool.submit(() -> {
                    workers.add(Thread.currentThread());
                    return tokens.getToken("acme");
                }));
            }
            assertTrue(requestArrived.await(10, TimeUnit.SECONDS));
            // Hold the answer until every thread is parked on the shared request: then the count
            // below proves single flight rather than lucky timing.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (workers.size() < threads || workers.stream().filter(t -> t.getState() == Thread.State.WAITING).count() < threads) {
                assertTrue(System.nanoTime() < deadline, "threads did not all wait for the token");
                Thread.onSpinWait();
            }
            release.countDown();
            for (Future<String> result : results) assertEquals("token-1", result.get(10, TimeUnit.SECONDS));
            assertEquals(1, tokens.getTokenRequestCount());
            assertEquals(1, stub.count(TOKEN_PATH));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anInterruptedCallerGivesUpAloneWhileTheOthersGetTheToken() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        StubServer.Handler held = (request, n) -> {
            assertTrue(release.await(10, TimeUnit.SECONDS));
            return issuing(300).handle(request, n);
        };
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (StubServer stub = new StubServer(held)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            Thread[] first = new Thread[1];
            Future<Object> interrupted = pool.submit(() -> {
                first[0] = Thread.currentThread();
                try {
                    return tokens.getToken("acme");
                } catch (CancelledException cancelled) {
                    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt flag is set again");
                    return cancelled;
                }
            });
            Future<String> patient = pool.submit(() -> tokens.getToken("acme"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (first[0] == null || first[0].getState() != Thread.State.WAITING || stub.count(TOKEN_PATH) < 1) {
                assertTrue(System.nanoTime() < deadline, "the first caller never waited");
                Thread.onSpinWait();
            }
            first[0].interrupt();
            CancelledException cancelled = (CancelledException) interrupted.get(10, TimeUnit.SECONDS);
            assertEquals(ErrorCode.CANCELLED, cancelled.getCode());
            release.countDown();
            assertEquals("token-1", patient.get(10, TimeUnit.SECONDS));
            assertEquals(1, tokens.getTokenRequestCount());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void retriesADroppedTokenAnswerOnceForEveryWaitingThread() throws Exception {
        int threads = 8;
        CountDownLatch release = new CountDownLatch(1);
        List<Duration> waits = new CopyOnWriteArrayList<>();
        StubServer.Handler dropsFirst = (request, n) -> {
            if (n == 1) {
                assertTrue(release.await(10, TimeUnit.SECONDS));
                return StubServer.Answer.dropConnection();
            }
            return issuing(300).handle(request, n);
        };
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try (StubServer stub = new StubServer(dropsFirst)) {
            ClientCredentialsTokenSource tokens = source(stub).sleeper(waits::add).random(() -> 0.5).build();
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < threads; i++) results.add(pool.submit(() -> tokens.getToken("acme")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stub.count(TOKEN_PATH) < 1) {
                assertTrue(System.nanoTime() < deadline, "no token request arrived");
                Thread.onSpinWait();
            }
            release.countDown();
            for (Future<String> result : results) assertEquals("token-2", result.get(10, TimeUnit.SECONDS));
            assertEquals(2, tokens.getTokenRequestCount(), "one retry shared by every waiting thread");
            assertEquals(List.of(Duration.ofMillis(125)), waits);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void retriesATokenRequestOn503WithRetryAfterAndReportsEveryAttempt() throws Exception {
        List<Duration> waits = new CopyOnWriteArrayList<>();
        try (StubServer stub = new StubServer((request, n) ->
                StubServer.Answer.json(503, "{\"error\":\"internal_error\",\"error_description\":\"Busy.\"}", java.util.Map.of("Retry-After", "2")))) {
            ClientCredentialsTokenSource tokens = source(stub).sleeper(waits::add).maxRetries(2).build();
            TokenException error = assertThrows(TokenException.class, () -> tokens.getToken("acme"));
            assertEquals(3, tokens.getTokenRequestCount());
            assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(2)), waits);
            assertEquals(2, error.getRetryAfterSeconds().getAsLong());
            assertEquals("Token request for realm \"acme\" failed: 503 internal_error: Busy. (3 attempts: HTTP 503 (Retry-After 2 s); "
                    + "HTTP 503 (Retry-After 2 s); HTTP 503 (Retry-After 2 s); gave up after 3 attempts (max_retries = 2))", error.getMessage());
        }
    }

    @Test
    void everyWaiterSeesTheSharedFailureAndTheNextCallTriesAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        StubServer.Handler handler = (request, n) -> calls.incrementAndGet() == 1
                ? StubServer.Answer.json(401, "{\"error\":\"unauthorized_client\",\"error_description\":\"Invalid client secret.\"}")
                : issuing(300).handle(request, n);
        try (StubServer stub = new StubServer(handler)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            TokenException error = assertThrows(TokenException.class, () -> tokens.getToken("acme"));
            assertEquals(ErrorCode.TOKEN, error.getCode());
            assertEquals(401, error.getStatus());
            assertEquals("unauthorized_client", error.getError());
            assertEquals("Token request for realm \"acme\" failed: 401 unauthorized_client: Invalid client secret.", error.getMessage());
            assertEquals("token-2", tokens.getToken("acme"), "a failure is not cached");
        }
    }

    @Test
    void neverShowsTheSecretEvenWhenTheServerEchoesIt() throws Exception {
        StubServer.Handler echoing = (request, n) -> StubServer.Answer.json(400,
                "{\"error\":\"invalid_request\",\"error_description\":\"bad " + SECRET + " / " + ApiPaths.formEncode(SECRET) + "\"}");
        try (StubServer stub = new StubServer(echoing)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            TokenException error = assertThrows(TokenException.class, () -> tokens.getToken("acme"));
            assertFalse(error.getMessage().contains(SECRET));
            assertFalse(error.getMessage().contains(ApiPaths.formEncode(SECRET)));
            assertTrue(error.getMessage().contains("[redacted]"));
            assertFalse(error.toString().contains(SECRET));
            assertFalse(tokens.toString().contains(SECRET));
            assertTrue(tokens.toString().contains("key-1"));
        }
    }

    @Test
    void refusesAnAnswerThatIsNotAToken() throws Exception {
        try (StubServer stub = new StubServer((request, n) -> n == 1
                ? StubServer.Answer.json(200, "<html>proxy</html>")
                : StubServer.Answer.json(200, "{\"access_token\":\"t\",\"expires_in\":0}"))) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            TokenException notJson = assertThrows(TokenException.class, () -> tokens.getToken("acme"));
            assertEquals("Token endpoint of realm \"acme\" answered 200 with a body that is not JSON", notJson.getMessage());
            TokenException noLifetime = assertThrows(TokenException.class, () -> tokens.getToken("acme"));
            assertTrue(noLifetime.getMessage().endsWith("without a positive expires_in"));
        }
    }

    @Test
    void invalidateDropsOnlyTheRejectedToken() throws Exception {
        try (StubServer stub = new StubServer(issuing(300))) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            assertEquals("token-1", tokens.getToken("acme"));
            tokens.invalidate("acme", "some-older-token");
            assertEquals("token-1", tokens.getToken("acme"));
            tokens.invalidate("acme", "token-1");
            assertEquals("token-2", tokens.getToken("acme"));
            assertEquals(2, tokens.getTokenRequestCount());
        }
    }

    @Test
    void dropsTheTokenAndRetriesOnceAfterA401() throws Exception {
        StubServer.Handler service = (request, n) -> {
            if (request.path().equals(TOKEN_PATH)) return issuing(300).handle(request, n);
            // The first token was revoked; the second one is good.
            return "Bearer token-1".equals(request.header("Authorization"))
                    ? StubServer.Answer.json(401, "{\"error\":\"invalid_token\",\"error_description\":\"Token revoked.\"}")
                    : StubServer.Answer.json(200, "7");
        };
        try (StubServer stub = new StubServer(service)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            OrgAdminClient client = new OrgAdminClient(stub.baseUrl(), "acme", tokens);
            assertEquals(7, client.countOrganizations());
            assertEquals(2, tokens.getTokenRequestCount());
            assertEquals(2, stub.count("/realms/acme/orgs/count"));
        }
    }

    @Test
    void aSecond401IsFinalAndNamesNoToken() throws Exception {
        StubServer.Handler service = (request, n) -> request.path().equals(TOKEN_PATH)
                ? issuing(300).handle(request, n)
                : StubServer.Answer.json(401, "{\"error\":\"invalid_token\",\"error_description\":\"No good: " + request.header("Authorization") + "\"}");
        try (StubServer stub = new StubServer(service)) {
            ClientCredentialsTokenSource tokens = source(stub).build();
            OrgAdminClient client = new OrgAdminClient(stub.baseUrl(), "acme", tokens);
            UnauthorizedException error = assertThrows(UnauthorizedException.class, client::countOrganizations);
            assertEquals(ErrorCode.UNAUTHORIZED, error.getCode());
            assertEquals(401, error.getStatus());
            assertEquals("invalid_token", error.getError());
            assertTrue(error.getMessage().contains("even with a fresh token"), error.getMessage());
            assertFalse(error.getMessage().contains("token-2"), error.getMessage());
            assertTrue(error.getMessage().contains("Bearer [redacted]"), error.getMessage());
            assertEquals(2, stub.count("/realms/acme/orgs/count"));
        }
    }

    @Test
    void aStaticTokenIsSentOnceWhenRefused() throws Exception {
        try (StubServer stub = new StubServer((request, n) ->
                StubServer.Answer.json(401, "{\"error\":\"invalid_token\",\"error_description\":\"Expired.\"}"))) {
            StaticTokenSource tokens = new StaticTokenSource("user-token");
            assertFalse(tokens.toString().contains("user-token"));
            OrgAdminClient client = new OrgAdminClient(stub.baseUrl(), "acme", tokens);
            UnauthorizedException error = assertThrows(UnauthorizedException.class, client::getMemberInfo);
            assertFalse(error.getMessage().contains("even with a fresh token"));
            assertEquals(1, stub.requests().size());
        }
    }

    @Test
    void limitsEachTokenRequestByItsOwnTimeoutAndRetriesOneThatTimedOut() throws Exception {
        ManualTimer timer = new ManualTimer();
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Duration> waits = new CopyOnWriteArrayList<>();
        StubServer.Handler holdsFirst = (request, n) -> {
            if (n == 1) {
                firstArrived.countDown();
                assertTrue(release.await(10, TimeUnit.SECONDS));
            }
            return issuing(300).handle(request, n);
        };
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (StubServer stub = new StubServer(holdsFirst)) {
            ClientCredentialsTokenSource tokens = source(stub).timeout(Duration.ofSeconds(2)).timer(timer)
                    .sleeper(waits::add).random(() -> 0.5).build();
            Future<String> token = pool.submit(() -> tokens.getToken("acme"));
            assertTrue(firstArrived.await(10, TimeUnit.SECONDS));
            assertEquals(Duration.ofSeconds(2), timer.expireNext(), "the token source's own limit");
            assertEquals("token-2", token.get(10, TimeUnit.SECONDS), "a timed-out token request is retried");
            release.countDown();
            assertEquals(2, tokens.getTokenRequestCount());
            assertEquals(List.of(Duration.ofMillis(125)), waits);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void rejectsMissingCredentialsUpFront() {
        URI base = URI.create("http://127.0.0.1:1");
        assertThrows(IllegalArgumentException.class, () -> new ClientCredentialsTokenSource(base, "", "x"));
        assertThrows(IllegalArgumentException.class, () -> new ClientCredentialsTokenSource(base, "id", ""));
        assertThrows(IllegalArgumentException.class, () -> new ClientCredentialsTokenSource(URI.create("ftp://x.example.com"), "id", "s"));
        assertThrows(IllegalArgumentException.class, () -> new StaticTokenSource(""));
        assertThrows(NullPointerException.class, () -> ClientCredentialsTokenSource.builder(base, "id", "s").timer(null));
        assertNotNull(new ClientCredentialsTokenSource(base, "id", "s"));
    }
}
