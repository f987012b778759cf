package dev.herald.webhook;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.support.LoggerLines;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.webhook.ScriptedReceiver.answering;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * One attempt against real receivers on loopback (allowed by configuration, as an operator allows a range), each
 * answering well, badly or not at all: what the worker is told, within what time, and what Herald sent.
 */
class HttpWebhookTransportTest {

    private static final Duration TIMEOUT = Duration.ofMillis(1500);
    /** The attempt's bound with room for a loaded machine; the receivers below would hold it for ever. */
    private static final Duration BOUND = TIMEOUT.plusSeconds(2);

    @Test
    void aStandardWebhooksPostIsSentAndA2xxIsDelivered() {
        String secret = Deliveries.newSecret();
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering("HTTP/1.1 204 No Content\r\n\r\n"))) {
            Delivery delivery = Deliveries.to(receiver.url("/hooks/herald?team=1"), secret);
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(delivery);

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(attempt.status(), is(204));
            ScriptedReceiver.Request request = receiver.requests().getFirst();
            assertThat(request.line(), is("POST /hooks/herald?team=1 HTTP/1.1"));
            assertThat(request.header("host"), is("127.0.0.1:" + receiver.port()));
            assertThat(request.header("content-type"), is("application/json"));
            assertThat(request.header("user-agent"), startsWith("Herald"));
            assertThat(request.header("webhook-id"), is(delivery.messageId()));
            assertThat(request.header("webhook-timestamp"),
                       is(Long.toString(delivery.timestamp().getEpochSecond())));
            assertThat(request.header("webhook-signature"),
                       is(Signatures.header(delivery.messageId(), delivery.timestamp(), delivery.body(),
                                            delivery.secrets())));
            assertThat(request.bodyText(), is(Deliveries.BODY));
        }
    }

    @Test
    void a500IsFailedWithTheFirstLineOfItsBody() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 32\r\n\r\ndatabase down\nstack trace here"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(500));
            assertThat(attempt.detail(), is("HTTP 500: database down"));
            assertThat(attempt.retryAfter(), is(Optional.empty()));
        }
    }

    @Test
    void a410IsGone() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 410 Gone\r\nContent-Length: 0\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.GONE));
            assertThat(attempt.status(), is(410));
        }
    }

    @Test
    void a429sRetryAfterInSecondsIsPassedOn() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 120\r\nContent-Length: 0\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(429));
            assertThat(attempt.retryAfter(), is(Optional.of(Duration.ofSeconds(120))));
            assertThat(attempt.detail(), is("HTTP 429, Retry-After 120 s"));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {429, 503})
    void retryAfterAsAnHttpDateIsTheWaitUntilThatDate(int status) {
        Instant now = Instant.parse("2026-11-28T20:00:00Z");
        String inFiveMinutes = DateTimeFormatter.RFC_1123_DATE_TIME.format(
                now.plusSeconds(300).atOffset(ZoneOffset.UTC)).replace("+0000", "GMT");
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 " + status + " Wait\r\nRetry-After: " + inFiveMinutes + "\r\nContent-Length: 0\r\n\r\n"))) {
            HttpWebhookTransport transport = Deliveries.transport(
                    new TransportSettings(Deliveries.LOOPBACK, Duration.ofSeconds(2), TIMEOUT), HostResolver.system(),
                    Clock.fixed(now, ZoneOffset.UTC));
            Attempt attempt = transport.deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(status));
            assertThat(attempt.retryAfter(), is(Optional.of(Duration.ofMinutes(5))));
        }
    }

    @Test
    void retryAfterCountsOnlyOnA429OrA503() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 500 Oops\r\nRetry-After: 120\r\nContent-Length: 0\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.status(), is(500));
            assertThat(attempt.retryAfter(), is(Optional.empty()));
        }
    }

    @Test
    void aReceiverThatNeverAnswersCostsTheTimeoutAndNoMore() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> Thread.sleep(60_000))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(0));
            assertThat(attempt.detail(), is("no answer within " + TIMEOUT));
            assertThat(attempt.latency(), lessThan(BOUND));
            assertThat(receiver.requests().size(), is(1));
        }
    }

    @Test
    void aReceiverThatReadsNothingCannotHoldTheWriteBeyondTheTimeout() throws IOException {
        // Accepted by the kernel, never read: once the socket buffers are full, Herald's write blocks.
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            byte[] large = new byte[32 * 1024 * 1024];
            Arrays.fill(large, (byte) ' ');
            Delivery delivery = new Delivery(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/"), "msg_1",
                                             Instant.now(), large, List.of(Deliveries.newSecret()));
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(delivery);

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), is("no answer within " + TIMEOUT));
            assertThat(attempt.latency(), lessThan(BOUND));
        }
    }

    @Test
    void aHugeBodyIsReadOnlyToItsBound() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 500 Error\r\nContent-Length: 1000000000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 1000000000 / chunk.length; i++) {
                out.write(chunk);
            }
        })) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(500));
            // "HTTP 500: " and a line, cut with "..." to 200 characters in all (docs/webhooks.md)
            assertThat(attempt.detail().length(), lessThanOrEqualTo(200));
            assertThat(attempt.detail(), startsWith("HTTP 500: xxxx"));
            assertThat("read to its bound, not to its end nor to the time-out", attempt.latency(), lessThan(TIMEOUT));
        }
    }

    @Test
    void aHeadWithoutEndIsCutAtItsBound() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.US_ASCII));
            for (int i = 0; i < 100_000; i++) {
                out.write(("X-Padding-" + i + ": yes\r\n").getBytes(StandardCharsets.US_ASCII));
            }
        })) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), is("the receiver's answer has a head of more than 16 KiB"));
            assertThat(attempt.latency(), lessThan(TIMEOUT));
        }
    }

    @Test
    void aSlowBodyAfterA2xxDoesNotDelayTheDelivery() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            for (int i = 0; i < 1000; i++) {
                Thread.sleep(100);
                out.write('.');
                out.flush();
            }
        })) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(attempt.latency(), lessThan(TIMEOUT));
        }
    }

    @Test
    void aSlowBodyAfterAnErrorIsReadNoLongerThanTheTimeout() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> {
            OutputStream out = socket.getOutputStream();
            out.write("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 1000\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            for (int i = 0; i < 1000; i++) {
                Thread.sleep(100);
                out.write('.');
                out.flush();
            }
        })) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(502));
            assertThat(attempt.latency(), lessThan(BOUND));
        }
    }

    @Test
    void aSlowHeadIsBoundedByTheTimeoutNotByEachRead() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start((socket, request) -> {
            OutputStream out = socket.getOutputStream();
            for (byte b : "HTTP/1.1 200 OK\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII)) {
                out.write(b);
                out.flush();
                Thread.sleep(50);
            }
            for (int i = 0; i < 1000; i++) {
                out.write('z');
                out.flush();
                Thread.sleep(50);
            }
        })) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), is("no answer within " + TIMEOUT));
            assertThat(attempt.latency(), lessThan(BOUND));
        }
    }

    @Test
    void aRefusedConnectionIsFailed() throws IOException {
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        Attempt attempt = Deliveries.transport(TIMEOUT).deliver(
                Deliveries.to(URI.create("http://127.0.0.1:" + closedPort + "/")));

        assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
        assertThat(attempt.detail(), is("connection refused by 127.0.0.1 port " + closedPort));
    }

    @Test
    void aConnectionResetOrClosedWithoutAnAnswerIsFailed() {
        try (ScriptedReceiver reset = ScriptedReceiver.start((socket, request) -> socket.setSoLinger(true, 0));
             ScriptedReceiver closed = ScriptedReceiver.start((socket, request) -> socket.shutdownOutput())) {
            Attempt afterReset = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(reset.url("/")));
            Attempt afterClose = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(closed.url("/")));

            assertThat(afterReset.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(afterReset.detail(), containsString("connection"));
            assertThat(afterClose.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(afterClose.detail(), is("the receiver closed the connection without an answer"));
        }
    }

    @Test
    void anAnswerThatIsNotHttpIsFailed() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering("SSH-2.0-OpenSSH_9.6\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.detail(), is("the receiver did not answer in HTTP/1.1"));
        }
    }

    @Test
    void interimAnswersAreSkippedForTheFinalOne() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 202 Accepted\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(attempt.status(), is(202));
        }
    }

    @Test
    void aRedirectIsNeverFollowedEvenFromAnAllowedReceiverToLoopback() {
        try (ScriptedReceiver target = ScriptedReceiver.start(answering("HTTP/1.1 204 No Content\r\n\r\n"));
             ScriptedReceiver redirecting = ScriptedReceiver.start(answering(
                     "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:" + target.port()
                     + "/admin\r\nContent-Length: 0\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(redirecting.url("/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(attempt.status(), is(307));
            assertThat(attempt.detail(), is("HTTP 307: a redirect to http://127.0.0.1:" + target.port()
                                            + "/admin, not followed (Herald never follows redirects)"));
            assertThat(target.connections(), is(0));
        }
    }

    @Test
    void aChunkedErrorBodyGivesItsFirstLine() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(
                "HTTP/1.1 400 Bad Request\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "13\r\nsignature mismatch\n\r\n0\r\n\r\n"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(receiver.url("/")));

            assertThat(attempt.detail(), is("HTTP 400: signature mismatch"));
        }
    }

    @Test
    void theNextCheckedAddressIsTriedWhenOneRefusesTheConnection() throws Exception {
        // 127.0.0.3 has nothing on the receiver's port; the name's second address has the receiver.
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering("HTTP/1.1 204 No Content\r\n\r\n"))) {
            HostResolver dns = host -> List.of(InetAddress.getByName("127.0.0.3"),
                                                         InetAddress.getByName("127.0.0.1"));
            HttpWebhookTransport transport = Deliveries.transport(
                    new TransportSettings(Deliveries.LOOPBACK, Duration.ofSeconds(1), TIMEOUT), dns,
                    Clock.systemUTC());
            Attempt attempt = transport.deliver(
                    Deliveries.to(URI.create("http://two-addresses.example:" + receiver.port() + "/")));

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.DELIVERED));
        }
    }

    @Test
    void aConnectionThatIsNeverAcceptedCostsTheConnectTimeout() throws IOException {
        // A listener whose queue is full and never accepted: Linux drops further SYNs, and connect waits.
        Duration connectTimeout = Duration.ofMillis(500);
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> queued = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    Socket socket = new Socket();
                    try {
                        socket.connect(full.getLocalSocketAddress(), 200);
                        queued.add(socket);
                    } catch (SocketTimeoutException queueFull) {
                        socket.close();
                        break;
                    }
                }
                HttpWebhookTransport transport = Deliveries.transport(
                        new TransportSettings(Deliveries.LOOPBACK, connectTimeout, TIMEOUT), HostResolver.system(),
                        Clock.systemUTC());
                Attempt attempt = transport.deliver(
                        Deliveries.to(URI.create("http://127.0.0.1:" + full.getLocalPort() + "/")));

                assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
                assertThat(attempt.detail(), is("no connection to 127.0.0.1 port " + full.getLocalPort()
                                                + " within " + connectTimeout));
                assertThat(attempt.latency(), lessThan(TIMEOUT));
            } finally {
                for (Socket socket : queued) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void noSecretReachesTheLogWhateverTheReceiverDoes() {
        String secret = Deliveries.newSecret();
        try (LoggerLines log = new LoggerLines("");
             ScriptedReceiver failing = ScriptedReceiver.start(answering(
                     "HTTP/1.1 401 Unauthorized\r\nContent-Length: 10\r\n\r\nbad secret"))) {
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(Deliveries.to(failing.url("/"), secret));

            assertThat(attempt.detail(), is("HTTP 401: bad secret"));
            assertThat(log.lines().stream().filter(line -> line.contains(secret.substring(6, 20))).toList(),
                       is(List.of()));
            assertThat(attempt.toString().contains(secret.substring(6, 20)), is(false));
        }
    }

    @Test
    void oneTransportServesManyAttemptsAtOnce() throws Exception {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering("HTTP/1.1 204 No Content\r\n\r\n"));
             var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            HttpWebhookTransport transport = Deliveries.transport(TIMEOUT);
            List<Future<Attempt>> attempts = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                attempts.add(threads.submit(() -> transport.deliver(Deliveries.to(receiver.url("/")))));
            }
            for (Future<Attempt> attempt : attempts) {
                assertThat(attempt.get().detail(), attempt.get().outcome(), is(Attempt.Outcome.DELIVERED));
            }
            assertThat(receiver.requests().stream().map(request -> request.header("webhook-id")).distinct().count(),
                       is(32L));
        }
    }
}
