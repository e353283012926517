package dev.orgadmin.client;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A server on 127.0.0.1, port 0, that takes one request and never answers it, and notices when the
 * client closes the connection: what a client that gives up on an exchange must do. A plain
 * socket rather than {@link StubServer}, whose exchanges do not report the client going away.
 */
final class SilentServer implements AutoCloseable {
    private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final CountDownLatch requestRead = new CountDownLatch(1);
    private final CountDownLatch closedByClient = new CountDownLatch(1);
    private final Thread reader = new Thread(this::serveOne, "silent-server");

    SilentServer() throws IOException {
        reader.setDaemon(true);
        reader.start();
    }

    private void serveOne() {
        try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
            // The request head ends with an empty line; requests here have no body.
            int matched = 0;
            byte[] end = {'\r', '\n', '\r', '\n'};
            for (int b; matched < end.length && (b = in.read()) != -1; ) matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
            requestRead.countDown();
            while (in.read() != -1) {
                // Nothing is expected after the head; read until the client closes.
            }
            closedByClient.countDown();
        } catch (IOException closed) {
            // A reset is the client going away too.
            closedByClient.countDown();
        }
    }

    /** @return {@code http://127.0.0.1:PORT} */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** @return true once a whole request head was read, within 10 s */
    boolean awaitRequest() throws InterruptedException {
        return requestRead.await(10, TimeUnit.SECONDS);
    }

    /** @return true once the client closed the connection, within 10 s */
    boolean awaitClosedByClient() throws InterruptedException {
        return closedByClient.await(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws IOException {
        server.close();
        reader.interrupt();
    }
}
