package dev.herald.observe;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.support.JsonBodies;
import dev.herald.support.LoopbackSockets;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;

/**
 * The operations listener has limits of its own, fit for probes and scrapers: without them 3,000 connections holding
 * partial headers ended the process (OutOfMemoryError) and a silent one stayed open 30 s. Here: observe.connections
 * in all, observe.connections-per-client from one address, observe.read-timeout for a silent one, and no body past
 * a kilobyte. The limits are tried on a server whose read time-out is longer than any test: with one of a second, a
 * loaded build (CI, 2026-11-29) paused past it, the held connections were swept, and the probe that should have
 * been refused was let in.
 */
class OperationsListenerLimitsTest {

    private static final int CONNECTIONS = 4;
    private static final int PER_CLIENT = 2;
    private static final String HEALTH = "GET /observe/health/live HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final String PARTIAL = "GET /observe/health/live HTTP/1.1\r\nHost: x\r\nX-Held: " + "a".repeat(8_000);

    private static MainBuiltServer limited;
    private static MainBuiltServer quick;
    private static URI observe;

    @BeforeAll
    static void start() {
        limited = MainBuiltServer.start(TestDatabase.h2(), Map.of(
                "observe.connections", String.valueOf(CONNECTIONS),
                "observe.connections-per-client", String.valueOf(PER_CLIENT),
                "observe.read-timeout", "PT60S",
                "rate-limit.trusted-proxies.0", "127.0.1.9/32"));
        quick = MainBuiltServer.start(TestDatabase.h2(), Map.of("observe.read-timeout", "PT1S"));
        observe = limited.observeUri();
    }

    @AfterAll
    static void stop() throws Exception {
        limited.close();
        quick.close();
    }

    @Test
    void oneClientGetsItsShareAndTheNextConnectionIs429() throws Exception {
        oneAddressGetsItsShare("127.0.1.2");
    }

    /**
     * A trusted proxy carries many clients on the public listener; probes and scrapers are each their own client
     * here, a trusted address too (an operator's trial: 40 connections from one, all served, where 16 is the bound).
     */
    @Test
    void aTrustedProxysAddressGetsOneShareToo() throws Exception {
        oneAddressGetsItsShare("127.0.1.9");
    }

    private void oneAddressGetsItsShare(String address) throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < PER_CLIENT; i++) {
                // Answered once, so counted: the listener counts a connection on its own thread, after the accept.
                held.add(answeredOnce(connect(address)));
            }
            Socket probe = connect(address);
            probe.setSoTimeout(10_000);
            String refusal = LoopbackSockets.readAll(probe);
            assertThat(refusal, startsWith("HTTP/1.1 429 "));
            assertThat(JsonBodies.object(refusal.substring(refusal.indexOf("\r\n\r\n") + 4)).getString("code"),
                       is("TOO_MANY_CONNECTIONS"));
            assertThat("another address is not affected", status(connect("127.0.1.3")), is("200"));
        } finally {
            closeAll(held);
        }
    }

    @Test
    void connectionsPastTheListenersLimitWaitUntilOneEnds() throws Exception {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < CONNECTIONS; i++) {
                held.add(holding(connect("127.0.2." + (i + 1))));
            }
            Socket waiting = connect("127.0.2.100");
            waiting.getOutputStream().write(HEALTH.getBytes(StandardCharsets.US_ASCII));
            waiting.setSoTimeout(300);
            assertThat("not accepted while the listener is full", readsNothing(waiting), is(true));
            closeAll(held);
            waiting.setSoTimeout(5_000);
            assertThat(new String(waiting.getInputStream().readNBytes(12), StandardCharsets.US_ASCII),
                       is("HTTP/1.1 200"));
            waiting.close();
        } finally {
            closeAll(held);
        }
    }

    @Test
    void aSilentConnectionIsClosedAfterTheReadTimeout() throws Exception {
        try (Socket socket = holding(LoopbackSockets.connect("127.0.3.1", quick.observeUri().getPort()))) {
            long started = System.nanoTime();
            socket.setSoTimeout(10_000);
            assertThat("closed", LoopbackSockets.drain(socket.getInputStream()), is(true));
            assertThat((System.nanoTime() - started) / 1_000_000, lessThan(4_000L));
        }
    }

    @Test
    void aBodyOverAKilobyteIsRefusedUnread() throws Exception {
        try (Socket socket = connect("127.0.4.1")) {
            socket.getOutputStream().write(("POST /observe/health/live HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n"
                    + "Content-Type: application/json\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(answer, is("HTTP/1.1 413"));
        }
    }

    private static Socket connect(String from) throws IOException {
        return LoopbackSockets.connect(from, observe.getPort());
    }

    /** A connection holding 8 KB of headers it never finishes. */
    private static Socket holding(Socket socket) throws IOException {
        socket.getOutputStream().write(PARTIAL.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        return socket;
    }

    /** A keep-alive connection that had an answer begin, so the listener has counted it. */
    private static Socket answeredOnce(Socket socket) throws IOException {
        socket.getOutputStream().write(HEALTH.getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII), is("HTTP/1.1 200"));
        return socket;
    }

    private static String status(Socket socket) throws IOException {
        try (socket) {
            socket.getOutputStream().write(HEALTH.getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII).substring(9);
        }
    }

    private static boolean readsNothing(Socket socket) throws IOException {
        try {
            socket.getInputStream().read();
            return false;
        } catch (SocketTimeoutException e) {
            return true;
        }
    }


    private static void closeAll(List<Socket> sockets) throws IOException {
        for (Socket socket : sockets) {
            socket.close();
        }
        sockets.clear();
    }
}
