package dev.herald.ratelimit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.helidon.config.Config;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http1.Http1Config;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * The warning about connections refused over limits.connections-per-client: the first of a flood at once, the
 * count of the rest one interval later, whether or not another refusal comes to trigger it. The interval is a
 * minute in Herald; here it is a second.
 */
class ConnectionRefusalLogTest {

    private static final Duration LOG_INTERVAL = Duration.ofSeconds(1);
    private static final String REQUEST = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

    /** Held here: java.util.logging keeps loggers weakly, and a collected one would lose the handler. */
    private static final Logger LOGGER = Logger.getLogger(ConnectionsPerClient.class.getName());

    private final List<String> warnings = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel() == Level.WARNING) {
                warnings.add(record.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private WebServer server;

    @BeforeEach
    void start() {
        LOGGER.addHandler(handler);
        ConnectionsPerClient oneEach = new ConnectionsPerClient(
                UnaryOperator.identity(), Http1Config.create(),
                new ClientAddresses(RateLimitSettings.from(Config.empty())), 1, "limits.connections-per-client",
                Duration.ofSeconds(30), Duration.ofSeconds(30), true, LOG_INTERVAL);
        server = WebServer.builder()
                .host("127.0.0.1")
                .port(0)
                .protocolsDiscoverServices(false)
                .protocols(List.of())
                .connectionSelectors(List.of(oneEach))
                .routing(routing -> routing.get("/", (request, response) -> response.send("ok")))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.stop();
        LOGGER.removeHandler(handler);
    }

    @Test
    void theFirstRefusalIsLoggedAtOnceAndTheRestAnIntervalLaterWithoutAnotherRefusal() throws Exception {
        try (Socket held = connect()) {
            held.getOutputStream().write(REQUEST.getBytes(StandardCharsets.US_ASCII));
            assertThat(status(held), startsWith("HTTP/1.1 200"));
            for (int i = 0; i < 3; i++) {
                try (Socket over = connect()) {
                    assertThat(status(over), startsWith("HTTP/1.1 429"));
                }
            }
            assertThat("the first refusal, at once", warnings.getFirst(), startsWith("1 connection(s) refused"));

            // Normally one more line with the other two; two lines of one on a machine so slow that the three
            // connections took longer than the interval.
            long deadline = System.nanoTime() + LOG_INTERVAL.multipliedBy(5).toNanos();
            while (refusedInWarnings() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat("all three counted, though no refusal followed the last", refusedInWarnings(), is(3));
            assertThat(warnings.getLast(), containsString(" connection(s) refused in the last minute, over "
                    + "limits.connections-per-client (1); the last from 127.0.0.5"));

            int lines = warnings.size();
            Thread.sleep(LOG_INTERVAL.multipliedBy(2).toMillis());
            assertThat("nothing more to say, so nothing said", warnings, hasSize(lines));
        }
    }

    /** The sum of the counts the warnings so far give. */
    private int refusedInWarnings() {
        return warnings.stream().mapToInt(line -> Integer.parseInt(line.substring(0, line.indexOf(' ')))).sum();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.5"), 0));
        socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()), 5_000);
        socket.setSoTimeout(5_000);
        return socket;
    }

    private static String status(Socket socket) throws IOException {
        return new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
    }
}
