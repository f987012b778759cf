package dev.herald.wire;

import java.time.Duration;

import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The public listener's socket settings that the hot paths' figures depend on (docs/performance.md): a wrong one
 * costs nothing a functional test sees, only throughput, so each is pinned here.
 */
class ServerLimitsTest {

    @Test
    void thePublicListenerWritesThroughTheBlockingSocketWithoutNagle() {
        WebServerConfig.Builder server = WebServer.builder();
        new ServerLimits(1000, 100, Duration.ofSeconds(20), Duration.ofMinutes(5), 8L * 1024 * 1024, 4, 32 * 1024).applyTo(server);
        // Helidon 4.5.0's default NIO channel writes a 39 KB feed answer in five 8 KiB system calls (run R).
        assertThat(server.useNio(), is(false));
        assertThat(server.connectionOptions().orElseThrow().tcpNoDelay(), is(true));
        assertThat(server.maxTcpConnections(), is(1000));
        // A client that never reads holds the kernel's send buffer: autotuned, 1.35 MB a connection.
        assertThat(server.connectionOptions().orElseThrow().socketSendBufferSize().orElseThrow(), is(32 * 1024));
    }

    /** What the kernel gives an accepted connection: the size asked, doubled by Linux, not its autotuned megabytes. */
    @Test
    void anAcceptedConnectionHasTheSendBufferAsked() throws Exception {
        WebServerConfig.Builder builder = WebServer.builder().host("127.0.0.1").port(0)
                .routing(routing -> routing.get("/", (request, response) -> response.send("ok")));
        new ServerLimits(10, 10, Duration.ofSeconds(20), Duration.ofMinutes(5), 8L * 1024 * 1024, 4, 16 * 1024).applyTo(builder);
        WebServer server = builder.build().start();
        try (java.net.Socket client = new java.net.Socket("127.0.0.1", server.port())) {
            client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
            client.getInputStream().readNBytes(12);
            String sockets = new String(new ProcessBuilder("ss", "-tmnH", "state", "established",
                                                           "( sport = :" + server.port() + " )")
                                                .start().getInputStream().readAllBytes());
            assertThat(sockets, sockets.contains(",tb32768,"), is(true));
        } finally {
            server.stop();
        }
    }
}
