package dev.orgadmin.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP exchange with a limit on the whole of it (headers and body), and what the JDK's client
 * threw turned into the SDK's exceptions. Shared by the token source and the request pipeline.
 */
final class Transport {
    private Transport() {
    }

    /** A new HTTP/1.1 client (the service speaks HTTP/1.1; no h2c upgrade headers on plain http). */
    static HttpClient newHttpClient(Duration connectTimeout) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /**
     * Sends {@code request} and reads the whole answer as UTF-8 text, within the limit that
     * {@code timer} keeps. The request carries no {@link HttpRequest#timeout} of its own: the JDK's
     * clock would race the timer's and decide some timeouts by itself.
     *
     * @throws RequestTimeoutException when the answer is not complete within {@code timeout}
     * @throws NetworkException when the connection fails
     * @throws CancelledException when the calling thread is interrupted
     */
    static HttpResponse<String> send(HttpClient client, HttpRequest request, Duration timeout, RequestTimer timer,
                                     String method, String path) {
        CompletableFuture<HttpResponse<String>> exchange = client.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        // The timer completes a copy, not the JDK's own future: completing that one would leave the
        // exchange running, while cancel(true) on it closes the connection.
        CompletableFuture<HttpResponse<String>> answer = exchange.copy();
        timer.limit(answer, timeout);
        try {
            return answer.get();
        } catch (InterruptedException interrupted) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancelledException(method + " " + path, interrupted);
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof TimeoutException) {
                exchange.cancel(true);
                throw new RequestTimeoutException(method, path, timeout, failed.getCause());
            }
            throw classify(failed.getCause(), method, path);
        }
    }

    /**
     * The SDK exception for what the JDK's client threw; programming errors are returned unchanged.
     * Timeouts are not among them: the timer alone decides those (a connect timeout is a network failure).
     */
    static RuntimeException classify(Throwable error, String method, String path) {
        if (has(error, HttpConnectTimeoutException.class)) {
            return new NetworkException(method, path, NetworkException.CONNECT_TIMEOUT, "connect timed out", error);
        }
        if (has(error, UnresolvedAddressException.class) || has(error, UnknownHostException.class)) {
            return new NetworkException(method, path, NetworkException.UNKNOWN_HOST, "unknown host", error);
        }
        if (has(error, ConnectException.class)) {
            return new NetworkException(method, path, NetworkException.REFUSED, "connection refused", error);
        }
        if (error instanceof IOException || has(error, IOException.class)) {
            String reason = error.getMessage() != null ? error.getMessage() : error.getClass().getSimpleName();
            return new NetworkException(method, path, NetworkException.CONNECTION_CLOSED, reason, error);
        }
        if (error instanceof RuntimeException) return (RuntimeException) error;
        return new NetworkException(method, path, NetworkException.CONNECTION_CLOSED, String.valueOf(error), error);
    }

    /** True when {@code error} or one of its causes is a {@code type}. */
    private static boolean has(Throwable error, Class<? extends Throwable> type) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) return true;
        }
        return false;
    }
}
