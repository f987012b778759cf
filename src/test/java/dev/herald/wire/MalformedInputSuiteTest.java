package dev.herald.wire;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * A hostile client's corpus, generated: broken and deeply nested JSON, huge numbers and strings, invalid UTF-8,
 * wrong types for every field, long paths and headers, encoded traversal, lying and malformed chunked bodies,
 * aborted bodies, unknown methods. Over raw sockets, so nothing is tidied on the way. Whatever comes: no 5xx,
 * every 4xx a JSON body with a code, at most one short log line per request with no stack trace and no raw
 * control character, and the server serving afterwards.
 */
@ServerTest
class MalformedInputSuiteTest extends HeraldServerTest {

    private static final int MAX_LOG_LINE = 300;
    /**
     * The two 5xx answers that say the request, not the server, is at fault (RFC 9110 §15.6.2, §15.6.6), each with
     * its own code: a transfer coding other than chunked, and an HTTP version other than 1.1.
     */
    private static final Map<Integer, String> REFUSALS_OF_THE_REQUEST = Map.of(501, "NOT_IMPLEMENTED",
                                                                               505, "HTTP_VERSION_NOT_SUPPORTED");

    private final URI uri;
    private final CapturedLog log = new CapturedLog();
    private final List<String> failures = new ArrayList<>();
    private final Set<Integer> statuses = new TreeSet<>();
    private int sent;
    private Notification notification;
    private Project project;

    MalformedInputSuiteTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                      "rate-limit.requests", "1000000"));
    }

    @BeforeEach
    void capture() {
        project = herald.project();
        notification = herald.notification(project).save();
        Logger.getLogger("").addHandler(log);
    }

    @AfterEach
    void release() {
        Logger.getLogger("").removeHandler(log);
    }

    @Test
    void noInputGetsA5xxALogFloodOrTheServerDown() throws Exception {
        jsonBodies();
        wrongTypes();
        mediaTypes();
        pathsAndHeaders();
        chunkedAndLyingBodies();
        methods();
        abortedBodies();

        assertThat("requests sent", sent, greaterThanOrEqualTo(500));
        assertThat(failures, is(empty()));
        // The refusals Helidon makes before routing were among the answers, so the checks above saw each of them.
        assertThat(statuses, hasItems(400, 413, 414, 501));
        assertThat("log records: at most one per request", log.lines().size(), lessThanOrEqualTo(sent));
        for (String line : log.lines()) {
            assertThat(line, line.length(), lessThan(MAX_LOG_LINE));
            assertThat("a raw control character in the log: " + line.replaceAll("\\p{Cntrl}", "?"),
                       line.chars().anyMatch(c -> c < 0x20 || c == 0x7f), is(false));
        }
        RawHttp.Response feed = RawHttp.exchange(uri, "GET /api/v1/public/" + herald.key(project).key()
                + "/notifications HTTP/1.1\r\nHost: x");
        assertThat("serving afterwards", feed.status(), is(200));
    }

    /**
     * docs/api.md#errors, to the byte: what Helidon refuses before any route runs is answered with Herald's JSON
     * body, a code that says the same as the status, and the headers every refusal carries; then the connection
     * closes. Only the date varies.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedBeforeRouting")
    void requestsRefusedBeforeRoutingGetHeraldsAnswerToTheByte(String what, String request, String expected)
            throws IOException {
        RawHttp.Conversation conversation = RawHttp.converse(uri, request.getBytes(StandardCharsets.ISO_8859_1),
                                                             Duration.ofSeconds(5));
        assertThat(what, conversation.text().replaceFirst("\r\nDate: [^\r]+\r\n", "\r\nDate: -\r\n"), is(expected));
        assertThat(what, conversation.closedByServer(), is(true));
    }

    static Stream<Arguments> refusedBeforeRouting() {
        String track = "POST /api/v1/public/track/n1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n";
        String chunked = "10\r\n{\"type\":\"click\"}\r\n0\r\n\r\n";
        String badRequest = answer("400 Bad Request", "{\"error\":\"Bad Request\",\"code\":\"BAD_REQUEST\"}");
        String invalidBody = answer("400 Bad Request", "{\"message\":\"Invalid request body\",\"code\":\"INVALID_BODY\"}");
        return Stream.of(
                Arguments.of("no Host", "GET /api/v1/public/x HTTP/1.1\r\n\r\n", badRequest),
                Arguments.of("two Hosts", "GET /api/v1/public/x HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", badRequest),
                Arguments.of("a malformed query", "GET /api/v1/public/x?a=%zz HTTP/1.1\r\nHost: x\r\n\r\n", badRequest),
                Arguments.of("a method that is no token", "G\u0001T /api/v1/public/x HTTP/1.1\r\nHost: x\r\n\r\n", badRequest),
                Arguments.of("HTTP/2.0 in a request line", "GET /api/v1/public/x HTTP/2.0\r\nHost: x\r\n\r\n", badRequest),
                Arguments.of("headers over 16 KiB", "GET /api/v1/public/x HTTP/1.1\r\nHost: x\r\nX-Long: "
                        + "h".repeat(20_000) + "\r\n\r\n", badRequest),
                Arguments.of("HTTP/1.0 with a transfer coding", track.replace("HTTP/1.1", "HTTP/1.0")
                        + "Transfer-Encoding: chunked\r\n\r\n" + chunked, invalidBody),
                Arguments.of("a path over the request line's 2,048 bytes", "GET /api/v1/public/" + "a".repeat(5000)
                        + " HTTP/1.1\r\nHost: x\r\n\r\n",
                             answer("414 Request-URI Too Long", "{\"error\":\"Request target too long\",\"code\":"
                                     + "\"URI_TOO_LONG\"}")),
                Arguments.of("a transfer coding before chunked", track + "Transfer-Encoding: gzip, chunked\r\n\r\n" + chunked,
                             answer("501 Not Implemented", "{\"message\":\"Transfer coding not supported: send the body "
                                     + "chunked or with a Content-Length\",\"code\":\"NOT_IMPLEMENTED\"}")),
                Arguments.of("a length that is no number", track + "Content-Length: many\r\n\r\n", invalidBody),
                Arguments.of("a length beside chunked", track + "Content-Length: 16\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + chunked, invalidBody),
                Arguments.of("chunked twice", track + "Transfer-Encoding: chunked, chunked\r\n\r\n" + chunked, invalidBody),
                Arguments.of("identity", track + "Transfer-Encoding: identity\r\n\r\n" + chunked, invalidBody));
    }

    /** Helidon writes a refusal's headers in this order; the body is Herald's. */
    private static String answer(String status, String body) {
        return "HTTP/1.1 " + status + "\r\nDate: -\r\nCache-Control: no-store\r\nConnection: close\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nContent-Type: application/json\r\n"
                + "X-Content-Type-Options: nosniff\r\n\r\n" + body;
    }

    private void jsonBodies() throws IOException {
        String valid = "{\"type\":\"click\",\"timestamp\":\"2026-11-22T10:00:00Z\",\"metadata\":{\"a\":1}}";
        for (int cut = 1; cut < valid.length(); cut += 3) {
            trackEnhanced(valid.substring(0, cut));
        }
        for (int depth : new int[] {10, 100, 999, 1000, 1001, 5000, 20000}) {
            trackEnhanced("{\"type\":\"click\",\"metadata\":{\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}}");
            trackEnhanced("{\"type\":\"click\",\"x\":" + "{\"a\":".repeat(depth) + "1" + "}".repeat(depth) + "}");
            trackEnhanced("[".repeat(depth));
            admin("POST", "/projects", "{\"name\":" + "[".repeat(depth) + "]".repeat(depth) + "}");
        }
        for (String duplicate : List.of("{\"type\":\"click\",\"type\":\"click\"}",
                                        "{\"type\":\"click\",\"metadata\":{\"a\":1,\"a\":2}}")) {
            trackSimple(duplicate);
            trackEnhanced(duplicate);
        }
        for (int digits : new int[] {20, 400, 1100, 1101, 5000, 60000}) {
            String number = "9".repeat(digits);
            trackSimple("{\"type\":\"click\",\"ignored\":" + number + "}");
            trackSimple("{\"type\":\"click\",\"ignored\":0." + number + "e" + number + "}");
            trackSimple("{\"type\":\"click\",\"ignored\":-" + number + "E-" + number + "}");
            trackEnhanced("{\"type\":\"click\",\"metadata\":{\"n\":" + number + "}}");
            admin("POST", "/projects", "{\"name\":\"p\",\"n\":" + number + "}");
        }
        for (int length : new int[] {1000, 16 * 1024, 60 * 1024, 70 * 1024}) {
            String text = "x".repeat(length);
            trackEnhanced("{\"type\":\"click\",\"metadata\":{\"s\":\"" + text + "\"}}");
            trackSimple("{\"type\":\"" + text + "\"}");
            admin("POST", "/projects", "{\"name\":\"" + text + "\"}");
        }
        byte[][] invalidUtf8 = {{(byte) 0xff}, {(byte) 0xc0, (byte) 0xaf}, {(byte) 0xe0, (byte) 0x80, (byte) 0xaf},
                {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                {(byte) 0xc3}, {(byte) 0x80}, {(byte) 0xfe, (byte) 0xfe}};
        for (byte[] bad : invalidUtf8) {
            byte[] start = "{\"type\":\"cl".getBytes(StandardCharsets.US_ASCII);
            byte[] end = "ick\"}".getBytes(StandardCharsets.US_ASCII);
            byte[] body = new byte[start.length + bad.length + end.length];
            System.arraycopy(start, 0, body, 0, start.length);
            System.arraycopy(bad, 0, body, start.length, bad.length);
            System.arraycopy(end, 0, body, start.length + bad.length, end.length);
            send("POST " + track("") + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                         + body.length, body);
            send("POST /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + AdminClient.TOKEN
                         + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length, body);
        }
        for (String junk : List.of("", " ", "null", "true", "1", "\"s\"", "[]", "{}{}", "{\"type\":\"click\"} x",
                                   "{'type':'click'}", "{type:click}", "\u0000", "{\"type\":\"click\",}",
                                   "{\"type\":\"click\"\"}", "\ufeff{\"type\":\"click\"}", "{\"type\":\"click\\u0\"}")) {
            trackSimple(junk);
            trackEnhanced(junk);
            admin("POST", "/projects", junk);
            admin("POST", "/projects/" + project.id() + "/notifications", junk);
        }
    }

    private void wrongTypes() throws IOException {
        List<String> values = List.of("null", "5", "-1", "1.5e308", "true", "[]", "{}", "\"\"", "\"x\"", "[1,2]",
                                      "{\"a\":{}}", "\"" + "y".repeat(3000) + "\"");
        for (String value : values) {
            trackSimple("{\"type\":" + value + "}");
            trackEnhanced("{\"type\":" + value + "}");
            trackEnhanced("{\"type\":\"click\",\"timestamp\":" + value + "}");
            trackEnhanced("{\"type\":\"conversion\",\"metadata\":" + value + "}");
            for (String field : List.of("name")) {
                admin("POST", "/projects", "{\"" + field + "\":" + value + "}");
            }
            for (String field : List.of("message", "status", "image", "action", "preset", "startDate", "endDate")) {
                admin("POST", "/projects/" + project.id() + "/notifications",
                      "{\"message\":\"m\",\"" + field + "\":" + value + "}");
                admin("PATCH", "/notifications/" + notification.id(), "{\"" + field + "\":" + value + "}");
            }
            admin("POST", "/projects/" + project.id() + "/keys", "{\"showPast\":" + value + "}");
            admin("POST", "/projects/" + project.id() + "/notifications",
                  "{\"message\":\"m\",\"action\":{\"type\":" + value + ",\"data\":" + value + "}}");
        }
    }

    /** Content types with nothing where the type belongs, on every route that reads a body, signed in or not. */
    private void mediaTypes() throws IOException {
        String click = "{\"type\":\"click\"}";
        for (String type : List.of(";", ";;", " ; ", ";charset=utf-8", "", " ", "application/json;;",
                                   "application/json; charset", "application/json; =utf-8", "application/json; charset=",
                                   "application/json; charset=\"", "*/*", "application/json, text/plain", "/", "a;b;c")) {
            String contentType = "Content-Type: " + type + "\r\n";
            sendWithHead(track(""), contentType, click);
            sendWithHead(track("/enhanced"), contentType, click);
            sendWithHead("/api/v1/admin/session", contentType, "{\"name\":\"a\",\"token\":\"b\"}");
            sendWithHead("/api/v1/admin/projects", "Authorization: Bearer " + AdminClient.TOKEN + "\r\n" + contentType,
                         "{\"name\":\"p\"}");
        }
    }

    private void sendWithHead(String path, String headers, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        send("POST " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "Content-Length: " + bytes.length, bytes);
    }

    private void pathsAndHeaders() throws IOException {
        for (int length : new int[] {1000, 4000, 8000, 16000, 64000}) {
            get("/api/v1/public/" + "a".repeat(length) + "/notifications", "");
            get("/api/v1/public/k/notifications", "X-Long: " + "h".repeat(length) + "\r\n");
            get("/api/v1/public/k/notifications?" + "q=1&".repeat(length / 4), "");
        }
        get("/api/v1/public/k/notifications", "X-Many: 1\r\n".repeat(500));
        for (String path : List.of("/api/v1/public/..%2f..%2fobserve/metrics", "/api/v1/public/%2e%2e/%2e%2e/openapi",
                                   "/api/v1/public/%252e%252e%252fobserve", "/api/v1/public/..\\..\\observe",
                                   "/api/v1/public/%c0%ae%c0%ae/observe", "/api/v1/public/%00/notifications",
                                   "/api/v1/public/%1b%5b31m/notifications", "/api/v1/public/%ff%fe/notifications",
                                   "/api/v1/admin/..%2fprojects", "/api/v1/admin/%2e%2e/projects",
                                   "//api/v1/admin/projects", "/api/v1/public/track/%0d%0aX-Injected:%20yes",
                                   "/api/v1/public/track/" + "%41".repeat(3000), "/%", "/%%", "/a?%zz", "/*",
                                   "http://evil/api/v1/public/k/notifications", "*")) {
            get(path, "");
            send("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 16",
                 "{\"type\":\"click\"}".getBytes(StandardCharsets.US_ASCII));
        }
        for (String header : List.of("Host: \u001b[31m", "Content-Type: application/json; charset=\u0001",
                                     "X-Forwarded-For: \u001b]0;pwned\u0007", "Authorization: Bearer \u0000",
                                     "Origin: https://x\u0085y", "Content-Type: " + "a/".repeat(4000),
                                     "If-None-Match: " + "\"x\",".repeat(3000), "Bad Header: x", ": empty",
                                     "X-No-Colon", "X-Obs-Fold: a\r\n folded")) {
            get("/api/v1/public/k/notifications", header + "\r\n");
        }
    }

    private void chunkedAndLyingBodies() throws IOException {
        String body = "{\"type\":\"click\"}";
        for (String size : List.of("0x10", "+10", "10;a=b", " 10", "10 ", "-10", "ffffffffffffffff", "1" + "0".repeat(400),
                                   "\u001b[31m", "zz", "", "10\r\n\r\n", "8", "000000010", "\uff11\uff10")) {
            sendChunked(track(""), size + "\r\n" + body + "\r\n0\r\n\r\n");
            sendChunked("/api/v1/admin/projects", size + "\r\n" + body + "\r\n0\r\n\r\n");
        }
        for (String coding : List.of("gzip, chunked", "chunked, chunked", "identity", "chunked\r\nTransfer-Encoding: chunked",
                                     "deflate", "")) {
            send("POST " + track("") + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: "
                         + coding, ("10\r\n" + body + "\r\n0\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        sendChunked(track(""), "10\n" + body + "\n0\n\n");
        sendChunked(track(""), "10\r\n" + body + "XX0\r\n\r\n");
        sendChunked(track(""), "10\r\n" + body + "\r\r0\r\n\r\n");
        sendChunked(track(""), "7fffffff\r\n" + body.repeat(5_000));
        sendChunked(track(""), "10\r\n" + body + "\r\n0\r\nTrailer: x\r\n\r\n");
        sendChunked(track(""), "10\r\n" + body + "\r\n");                     // never terminated
        for (String length : List.of("0", "1", "15", "17", "100", "65536", "65537", "9223372036854775807", "-1",
                                     "1e3", "16, 16", "16,17")) {
            send("POST " + track("") + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                         + length, body.getBytes(StandardCharsets.US_ASCII));
        }
    }

    private void methods() throws IOException {
        for (String method : List.of("BREW", "PROPFIND", "TRACE", "CONNECT", "get", "G\u0001T", "DELETE", "PUT",
                                     "PATCH", "OPTIONS", "HEAD", "M".repeat(5000), "POST\u0000")) {
            for (String path : List.of("/api/v1/public/k/notifications", track(""), "/api/v1/admin/projects", "/")) {
                send(method + " " + path + " HTTP/1.1\r\nHost: x", new byte[0]);
            }
        }
        for (String version : List.of("HTTP/1.0", "HTTP/2.0", "HTTP/9.9", "HTTP/1.1x", "FOO", "")) {
            send("GET /api/v1/public/k/notifications " + version + "\r\nHost: x", new byte[0]);
        }
    }

    /** Bodies that stop short, then the client resets: nothing to answer, and nothing to log either. */
    private void abortedBodies() throws IOException {
        for (int i = 0; i < 20; i++) {
            String head = "POST " + track("") + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + (i % 2 == 0 ? "Content-Length: 100\r\n\r\n{\"type\":" : "Transfer-Encoding: chunked\r\n\r\n10\r\n{\"ty");
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), uri.getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.flush();
                socket.setSoLinger(true, 0);
            }
            sent++;
        }
        // The server handles a reset on its own time: give the last ones a moment to leave their trace, if any.
        RawHttp.exchange(uri, "GET /api/v1/public/k/notifications HTTP/1.1\r\nHost: x");
    }

    private String track(String suffix) {
        return "/api/v1/public/track/" + notification.id() + suffix;
    }

    private void trackSimple(String body) throws IOException {
        postJson(track(""), body, "");
    }

    private void trackEnhanced(String body) throws IOException {
        postJson(track("/enhanced"), body, "");
    }

    private void admin(String method, String path, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        send(method + " /api/v1/admin" + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + AdminClient.TOKEN
                     + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length, bytes);
    }

    private void postJson(String path, String body, String headers) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        send("POST " + path + " HTTP/1.1\r\nHost: x\r\n" + headers + "Content-Type: application/json\r\nContent-Length: "
                     + bytes.length, bytes);
    }

    private void get(String path, String headers) throws IOException {
        send("GET " + path + " HTTP/1.1\r\nHost: x\r\n" + headers.stripTrailing(), new byte[0]);
    }

    private void sendChunked(String path, String chunks) throws IOException {
        send("POST " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + AdminClient.TOKEN
                     + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked",
             chunks.getBytes(StandardCharsets.ISO_8859_1));
    }

    private void send(String head, byte[] body) throws IOException {
        sent++;
        String what = head.lines().findFirst().orElse("").replaceAll("\\p{Cntrl}", "?");
        what = what.length() > 120 ? what.substring(0, 120) + "..." : what;
        RawHttp.Response answer;
        try {
            answer = RawHttp.exchangeAndHalfClose(uri, head, body);
        } catch (IOException e) {
            // Every probe here gets an answer: a close without one would hide the refusal from the client.
            failures.add(what + ": closed without an answer (" + e + ")");
            return;
        } catch (RuntimeException e) {
            failures.add(what + ": unreadable answer " + e);
            return;
        }
        statuses.add(answer.status());
        if (answer.status() >= 500 && !REFUSALS_OF_THE_REQUEST.containsKey(answer.status())) {
            failures.add(what + ": " + answer.status() + " " + answer.body());
        } else if (REFUSALS_OF_THE_REQUEST.containsKey(answer.status())
                && !JsonBodies.object(answer.body()).getString("code").equals(REFUSALS_OF_THE_REQUEST.get(answer.status()))) {
            failures.add(what + ": " + answer.status() + " with another code: " + answer.body());
        } else if (answer.status() >= 400) {
            if (!"application/json".equals(answer.headers().get("content-type"))) {
                failures.add(what + ": " + answer.status() + " without a JSON body");
            } else if (!head.startsWith("HEAD ") && !isErrorObject(answer.body())) {
                // A HEAD answer has no content (RFC 9110 §9.3.2), only the headers of the JSON it would carry.
                failures.add(what + ": " + answer.status() + " body " + answer.body());
            }
        }
    }

    private static boolean isErrorObject(String body) {
        try {
            JsonObject object = JsonBodies.object(body);
            return object.containsKey("code");
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Every record the server logs while the suite runs, formatted as the service's log would show it. */
    private static final class CapturedLog extends Handler {

        private final List<String> records = new ArrayList<>();
        private final SimpleFormatter formatter = new SimpleFormatter();

        synchronized List<String> lines() {
            return List.copyOf(records);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            // Without the line separator the formatter ends with: any other line break would be a forged line.
            String line = formatter.format(record).stripTrailing();
            records.add(record.getThrown() == null ? line : line + " [with a stack trace]" + "x".repeat(MAX_LOG_LINE));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
