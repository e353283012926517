package dev.orgadmin.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local HTTP stub (the JDK's {@code com.sun.net.httpserver}) on 127.0.0.1, port 0. Each test
 * gives it a {@link Handler} that answers by request; the stub records every request it saw.
 */
final class StubServer implements AutoCloseable {
    /** One recorded request. */
    record Seen(String method, String path, String query, Map<String, List<String>> headers, String body) {
        String header(String name) {
            for (Map.Entry<String, List<String>> entry : headers.entrySet()) {
                if (entry.getKey() != null && entry.getKey().equalsIgnoreCase(name)) return entry.getValue().get(0);
            }
            return null;
        }
    }

    /** What the stub answers. */
    record Answer(int status, String body, Map<String, String> headers, boolean drop) {
        static Answer json(int status, String body) {
            return new Answer(status, body, Map.of("Content-Type", "application/json"), false);
        }

        static Answer json(int status, String body, Map<String, String> headers) {
            Map<String, String> all = new java.util.LinkedHashMap<>(headers);
            all.put("Content-Type", "application/json");
            return new Answer(status, body, all, false);
        }

        static Answer empty(int status) {
            return new Answer(status, "", Map.of(), false);
        }

        /** Closes the connection without an answer. */
        static Answer dropConnection() {
            return new Answer(0, "", Map.of(), true);
        }
    }

    /** Answers one request; {@code n} counts the requests of the same path from 1. */
    @FunctionalInterface
    interface Handler {
        Answer handle(Seen request, int n) throws Exception;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());

    StubServer(Handler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            try {
                Seen request = record(exchange);
                int n;
                synchronized (seen) {
                    seen.add(request);
                    n = (int) seen.stream().filter(s -> s.path().equals(request.path())).count();
                }
                Answer answer = handler.handle(request, n);
                if (answer.drop()) {
                    // Closing the exchange before the status line leaves the client with a closed connection.
                    exchange.close();
                    return;
                }
                answer.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
                byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                }
                exchange.close();
            } catch (Exception e) {
                exchange.close();
            }
        });
        server.start();
    }

    private static Seen record(HttpExchange exchange) throws IOException {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        URI uri = exchange.getRequestURI();
        return new Seen(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(), Map.copyOf(exchange.getRequestHeaders()), body);
    }

    /** @return {@code http://127.0.0.1:PORT} */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** @return the requests seen so far, in order */
    List<Seen> requests() {
        synchronized (seen) {
            return List.copyOf(seen);
        }
    }

    /** @return how many requests of {@code path} were seen */
    long count(String path) {
        return requests().stream().filter(s -> s.path().equals(path)).count();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
