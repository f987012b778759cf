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
        new ServerLimits(1000, 100, Duration.ofSeconds(20), 8L * 1024 * 1024).applyTo(server);
        // Helidon 4.5.0's default NIO channel writes a 39 KB feed answer in five 8 KiB system calls (run R).
        assertThat(server.useNio(), is(false));
        assertThat(server.connectionOptions().orElseThrow().tcpNoDelay(), is(true));
        assertThat(server.maxTcpConnections(), is(1000));
    }
}
