package dev.orgadmin.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
     * Sends {@code request} and reads the whole answer as UTF-8 text.
     *
     * @throws RequestTimeoutException when the answer is not complete within {@code timeout}
     * @throws NetworkException when the connection fails
     * @throws CancelledException when the calling thread is interrupted
     */
    static HttpResponse<String> send(HttpClient client, HttpRequest request, Duration timeout, String method, String path) {
        CompletableFuture<HttpResponse<String>> future = client.sendAsync(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException slow) {
            future.cancel(true);
            throw new RequestTimeoutException(method, path, timeout, slow);
        } catch (InterruptedException interrupted) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new CancelledException(method + " " + path, interrupted);
        } catch (ExecutionException failed) {
            throw classify(failed.getCause(), method, path, timeout);
        }
    }

    /** The SDK exception for what the JDK's client threw; programming errors are returned unchanged. */
    static RuntimeException classify(Throwable error, String method, String path, Duration timeout) {
        if (has(error, HttpConnectTimeoutException.class)) {
            return new NetworkException(method, path, NetworkException.CONNECT_TIMEOUT, "connect timed out", error);
        }
        if (has(error, HttpTimeoutException.class)) return new RequestTimeoutException(method, path, timeout, error);
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
