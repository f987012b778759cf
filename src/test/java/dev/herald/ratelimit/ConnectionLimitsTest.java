package dev.herald.ratelimit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.support.JsonBodies;
import dev.herald.support.KeepAliveConnection;
import dev.herald.support.LoopbackSockets;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;

/**
 * What one client may hold of the public listener: a few connections at once (limits.connections-per-client), none
 * of them silent for longer than limits.read-timeout, wherever in a request the silence falls; a trusted proxy's
 * connection waits for its next request up to limits.proxy-idle-timeout, so that the proxy closes it first. A
 * client's share is tried on a server whose read time-out outlasts the test: a pause of the build longer than a
 * second would otherwise see the held connections swept and the one over the share let in.
 */
class ConnectionLimitsTest {

    private static final int PER_CLIENT = 3;
    private static final String TRACK = "/api/v1/public/track/NoSuchNotification";
    private static final String CLICK = "{\"type\":\"click\"}";
    private static final String REQUEST = "GET /api/v1/public/k/notifications HTTP/1.1\r\nHost: x\r\n\r\n";

    private static MainBuiltServer server;
    private static MainBuiltServer patient;
    private static URI uri;
    private static URI patientUri;

    @BeforeAll
    static void start() {
        server = MainBuiltServer.start(TestDatabase.h2(), Map.of(
                "limits.connections-per-client", String.valueOf(PER_CLIENT),
                "limits.read-timeout", "PT1S",
                "limits.proxy-idle-timeout", "PT4S",
                "rate-limit.trusted-proxies.0", "127.0.0.9"));
        uri = server.uri();
        patient = MainBuiltServer.start(TestDatabase.h2(), Map.of(
                "limits.connections-per-client", String.valueOf(PER_CLIENT),
                "limits.read-timeout", "PT60S"));
        patientUri = patient.uri();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        patient.close();
    }

    @Test
    void oneClientGetsItsShareAndTheNextConnectionIs429() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < PER_CLIENT; i++) {
                held.add(answeredOnce(connect("127.0.0.2", patientUri)));
            }
            Socket over = connect("127.0.0.2", patientUri);
            over.setSoTimeout(10_000);
            String refusal = LoopbackSockets.readAll(over);
            assertThat(refusal, startsWith("HTTP/1.1 429 "));
            String body = refusal.substring(refusal.indexOf("\r\n\r\n") + 4);
            assertThat(JsonBodies.object(body).getString("code"), is("TOO_MANY_CONNECTIONS"));
            assertThat("another client is not affected", answered(connect("127.0.0.3", patientUri)), is(true));

            held.removeFirst().close();
            assertThat("a closed connection frees its place", eventuallyAnswered("127.0.0.2"), is(true));
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aTrustedProxyIsNotLimited() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < PER_CLIENT * 3; i++) {
                held.add(answeredOnce(connect("127.0.0.9")));
            }
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aSilentConnectionIsClosedWhereverTheSilenceFalls() throws Exception {
        for (String sent : List.of("", "GET /api/v1/pub", "GET /api/v1/public/k/notifications HTTP/1.1\r\nHost: x\r\nX-A: b",
                                   "POST /api/v1/public/track/abc HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
                                           + "\r\nContent-Length: 100\r\n\r\n{\"type\":")) {
            try (Socket socket = connect("127.0.0.4")) {
                socket.getOutputStream().write(sent.getBytes(StandardCharsets.US_ASCII));
                long started = System.nanoTime();
                socket.setSoTimeout(10_000);
                InputStream in = socket.getInputStream();
                try {
                    while (in.read() >= 0) {
                        // whatever it answers (a 400 for a body cut short), it must then close
                    }
                } catch (SocketTimeoutException e) {
                    throw new AssertionError("still open after 10 s of silence, having sent: " + sent, e);
                } catch (IOException e) {
                    // closed with a reset
                }
                assertThat(sent, (System.nanoTime() - started) / 1_000_000, lessThan(5_000L));
            }
        }
        // Between two requests too: a kept-alive connection falls silent after its answer.
        try (Socket socket = answeredOnce(connect("127.0.0.4"))) {
            socket.setSoTimeout(10_000);
            assertThat(LoopbackSockets.drain(socket.getInputStream()), is(true));
        }
    }

    /**
     * nginx keeps idle upstream connections 60 s by default; one Herald closed as nginx sent a POST on it was answered
     * 502 and not retried (cluster/check.sh, 1 of 1,000). Between two requests, a proxy's connection waits longer.
     */
    @Test
    void aTrustedProxysConnectionOutlivesTheReadTimeoutBetweenTwoRequests() throws Exception {
        try (KeepAliveConnection proxy = new KeepAliveConnection(uri, InetAddress.getByName("127.0.0.9"))) {
            assertThat(proxy.postJson(TRACK, CLICK).status(), is(404));
            Thread.sleep(2_500);
            assertThat("the same connection, idle for longer than the read time-out",
                       proxy.postJson(TRACK, CLICK).status(), is(404));
        }
    }

    @Test
    void aTrustedProxysIdleConnectionIsClosedAfterItsIdleTimeout() throws Exception {
        try (Socket socket = answeredOnce(connect("127.0.0.9"))) {
            long started = System.nanoTime();
            socket.setSoTimeout(10_000);
            assertThat(LoopbackSockets.drain(socket.getInputStream()), is(true));
            assertThat((System.nanoTime() - started) / 1_000_000, greaterThanOrEqualTo(3_000L));
        }
    }

    @Test
    void aTrustedProxysRequestFallenSilentIsCutAtTheReadTimeout() throws Exception {
        try (Socket socket = connect("127.0.0.9")) {
            socket.getOutputStream().write("GET /api/v1/public/k/notifications HTTP/1.1\r\nHost: x\r\nX-A: b"
                                                   .getBytes(StandardCharsets.US_ASCII));
            long started = System.nanoTime();
            socket.setSoTimeout(10_000);
            assertThat(LoopbackSockets.drain(socket.getInputStream()), is(true));
            assertThat((System.nanoTime() - started) / 1_000_000, lessThan(3_000L));
        }
    }

    private static Socket connect(String from) throws IOException {
        return connect(from, uri);
    }

    private static Socket connect(String from, URI to) throws IOException {
        return LoopbackSockets.connect(from, to.getPort());
    }

    /** Sends one request on the connection and reads its answer's status line; the connection stays open. */
    private static Socket answeredOnce(Socket socket) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(REQUEST.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        byte[] start = socket.getInputStream().readNBytes(12);
        assertThat(new String(start, StandardCharsets.US_ASCII), startsWith("HTTP/1.1 401"));
        return socket;
    }

    private static boolean answered(Socket socket) throws IOException {
        try (socket) {
            socket.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII).startsWith("HTTP/1.1 401");
        }
    }

    /** The server counts a connection out once its handler sees the close: give it a moment. */
    private static boolean eventuallyAnswered(String from) throws Exception {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (System.nanoTime() < deadline) {
            Socket socket = connect(from, patientUri);
            socket.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
            String start = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            socket.close();
            if (start.startsWith("HTTP/1.1 401")) {
                return true;
            }
            Thread.sleep(50);
        }
        return false;
    }
}
