package dev.herald.wire;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.herald.notification.Notification;
import dev.herald.observe.ObserveSettings;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * HTTP/1.0 requests, as nginx's default {@code proxy_pass}, HAProxy's default health check and ApacheBench send
 * them, are served as RFC 9112 asks of an HTTP/1.1 server ({@link HttpVersions}). Each request is followed on its
 * connection by a pipelined second one, answered only where the connection may persist.
 */
@ServerTest
class HttpVersionsTest extends HeraldServerTest {

    private static final String ALICE_TOKEN = "alice-token-of-at-least-thirty-two-characters";
    private static final String NEXT = "GET /observe/nothing HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
    private static final String BODY = "{\"type\":\"click\"}";
    private static final Duration QUIET = Duration.ofSeconds(3);

    private final URI uri;
    private final URI observe;
    private String key;
    private Notification notification;

    HttpVersionsTest(URI uri, @Socket(ObserveSettings.SOCKET) URI observe) {
        this.uri = uri;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.accounts.0.name", "alice",
                                                      "admin.accounts.0.role", "editor",
                                                      "admin.accounts.0.token-sha256", Tokens.sha256(ALICE_TOKEN)));
    }

    @BeforeEach
    void aFeed() {
        key = herald.key(herald.project()).key();
        notification = herald.notification(herald.project()).save();
    }

    @Test
    void aRequestWithoutKeepAliveIsAnsweredAsHttp11WithALengthAndTheConnectionClosed() throws Exception {
        RawHttp.Conversation conversation = converse("GET /api/v1/public/" + key + "/notifications HTTP/1.0\r\n\r\n"
                + NEXT);
        assertThat(conversation.text(), startsWith("HTTP/1.1 200 OK\r\n"));
        assertThat(conversation.first().headers().get("connection"), is("close"));
        assertThat(conversation.first().headers().get("content-length"), is(not(nullValue())));
        assertThat(conversation.first().headers().get("transfer-encoding"), is(nullValue()));
        assertThat("the pipelined request is not read", statusLines(conversation), is(1));
        assertThat(conversation.closedByServer(), is(true));
    }

    /**
     * A 1.0 client cannot read a chunked answer (RFC 9112 §6.1), and nothing de-chunks one: Helidon chunks only an
     * answer streamed without a length, which no route of Herald's makes. Each kind of answer is checked here.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/api/v1/public/KEY/notifications", "/console/", "/console/console.js",
                            "/sdk/v1/herald.js", "/api/v1/admin/projects", "/nothing", "observe:/observe/health/ready",
                            "observe:/observe/metrics", "observe:/openapi"})
    void noAnswerIsChunked(String path) throws Exception {
        URI server = path.startsWith("observe:") ? observe : uri;
        String target = path.replace("observe:", "").replace("KEY", key);
        RawHttp.Conversation conversation = RawHttp.converse(server, ("GET " + target + " HTTP/1.0\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1), QUIET);
        // The text is ISO-8859-1, a character a byte: the content is exactly as long as its head says.
        String text = conversation.text();
        int headEnd = text.indexOf("\r\n\r\n");
        String head = text.substring(0, headEnd + 2).toLowerCase(Locale.ROOT);
        assertThat(target, head, startsWith("http/1.1 "));
        assertThat(target, head, not(containsString("\r\ntransfer-encoding:")));
        assertThat(target, head, containsString("\r\ncontent-length: "));
        String length = head.replaceFirst("(?s).*\r\ncontent-length: *(\\d+)\r\n.*", "$1");
        assertThat(target, text.length() - headEnd - 4, is(Integer.parseInt(length)));
        assertThat(target, conversation.closedByServer(), is(true));
    }

    @Test
    void aRequestWithKeepAliveKeepsTheConnectionAndSaysSo() throws Exception {
        RawHttp.Conversation conversation = converse("GET /api/v1/public/" + key + "/notifications HTTP/1.0\r\n"
                + "Connection: Keep-Alive\r\n\r\n" + NEXT);
        assertThat(conversation.first().status(), is(200));
        assertThat(conversation.first().headers().get("connection"), is("keep-alive"));
        assertThat(conversation.first().headers().get("content-length"), is(not(nullValue())));
        assertThat("the pipelined request is answered too", statusLines(conversation), is(2));
        assertThat(conversation.closedByServer(), is(false));
    }

    @Test
    void aHeadRequestIsAnsweredWithoutContent() throws Exception {
        RawHttp.Conversation conversation = converse("HEAD /api/v1/public/" + key + "/notifications HTTP/1.0\r\n\r\n");
        assertThat(conversation.text(), startsWith("HTTP/1.1 200 OK\r\n"));
        assertThat(conversation.text(), conversation.text().endsWith("\r\n\r\n"), is(true));
        assertThat(conversation.closedByServer(), is(true));
    }

    /** RFC 9110 §9.3.2: not even a refusal made before routing (a 1.0 request's Transfer-Encoding) has content. */
    @Test
    void aHeadRequestRefusedBeforeRoutingIsAnsweredWithoutContent() throws Exception {
        RawHttp.Conversation conversation = converse("HEAD /api/v1/public/" + key + "/notifications HTTP/1.0\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
        assertThat(conversation.text(), startsWith("HTTP/1.1 400 Bad Request\r\n"));
        assertThat(conversation.text(), conversation.text().endsWith("\r\n\r\n"), is(true));
        RawHttp.Conversation malformed = converse("HEAD /x HTTP/1.00\r\n\r\n");
        assertThat(malformed.text(), startsWith("HTTP/1.1 400 Bad Request\r\n"));
        assertThat(malformed.text(), malformed.text().endsWith("\r\n\r\n"), is(true));
    }

    @Test
    void aPostWithALengthIsStored() throws Exception {
        RawHttp.Conversation conversation = converse("POST /api/v1/public/track/" + notification.id() + " HTTP/1.0\r\n"
                + "Content-Type: application/json\r\nContent-Length: 16\r\n\r\n" + BODY + NEXT);
        assertThat(conversation.first().status(), is(204));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @Test
    void theConsoleSignsIn() throws Exception {
        String body = "{\"name\":\"alice\",\"token\":\"" + ALICE_TOKEN + "\"}";
        RawHttp.Conversation conversation = converse("POST /api/v1/admin/session HTTP/1.0\r\nHost: herald.example\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body);
        assertThat(conversation.first().body(), conversation.first().status(), is(201));
        assertThat(conversation.first().headers().get("set-cookie"), containsString("__Host-herald-session="));
    }

    /** RFC 9112 §6.1: a 1.0 message with a Transfer-Encoding has faulty framing; a 1.1 one would be taken. */
    @Test
    void aTransferEncodingIsRefusedAndTheConnectionClosed() throws Exception {
        RawHttp.Conversation conversation = converse("POST /api/v1/public/track/" + notification.id() + " HTTP/1.0\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n" + BODY + "\r\n0\r\n\r\n"
                + NEXT);
        assertThat(conversation.first().status(), is(400));
        assertThat(JsonBodies.object(conversation.first().body()).getString("code"), is("INVALID_BODY"));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
        assertThat(herald.interactions(notification.id()), hasSize(0));
    }

    /** RFC 9110 §10.1.1: a 1.0 client may not know what a 100 is; the body follows without one. */
    @Test
    void anExpectationOfContinueIsIgnored() throws Exception {
        RawHttp.Conversation conversation = converse("POST /api/v1/public/track/" + notification.id() + " HTTP/1.0\r\n"
                + "Content-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 16\r\n\r\n" + BODY);
        assertThat(conversation.text(), startsWith("HTTP/1.1 204 "));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    /**
     * A field name is a token of at least one character (RFC 9110, 5.1): Helidon took a line {@code ": value"} as a
     * header of no name, which a proxy in front may read otherwise. Refused before routing, saying why, on 1.1 and 1.0.
     */
    @Test
    void aHeaderLineWithoutANameIsRefused() throws Exception {
        for (String version : List.of("HTTP/1.1", "HTTP/1.0")) {
            RawHttp.Response answer = converse("GET /api/v1/public/" + key + "/notifications " + version
                    + "\r\nHost: x\r\n: Bearer x\r\n\r\n").first();
            assertThat(version, answer.status(), is(400));
            assertThat(version, answer.body(), is("{\"error\":\"Bad Request: a header line has no name before its"
                    + " colon\",\"code\":\"BAD_REQUEST\"}"));
            assertThat(answer.headers().get("connection"), is("close"));
        }
        assertThat(converse("POST /api/v1/public/notifications/" + notification.id() + "/track HTTP/1.1\r\nHost: x"
                + "\r\n:\r\nContent-Type: application/json\r\nContent-Length: " + BODY.length() + "\r\n\r\n" + BODY)
                .first().status(), is(400));
    }

    /** The Host check Helidon made is Herald's now (RFC 9112 §3.2): still asked of every 1.1 request. */
    @Test
    void anHttp11RequestStillNeedsOneValidHost() throws Exception {
        String path = "GET /api/v1/public/" + key + "/notifications HTTP/1.1\r\n";
        assertThat(converse(path + "\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: x\r\nHost: y\r\n\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: \r\n\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: a b\r\n\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: [::1\r\n\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: x:port\r\n\r\n").first().status(), is(400));
        assertThat(converse(path + "Host: [::1]:8080\r\nConnection: close\r\n\r\n").first().status(), is(200));
        assertThat(converse(path + "Host: x:65535\r\nConnection: close\r\n\r\n").first().status(), is(200));
        // RFC 3986 §3.2.3: a port is digits; a sign, or a number past 65535 however written, is no port.
        for (String port : List.of("-1", "+1", "-0", "65536", "2147483647", "000000080", " 80", "8a")) {
            assertThat(port, converse(path + "Host: x:" + port + "\r\n\r\n").first().status(), is(400));
            assertThat(port, converse(path + "Host: [::1]:" + port + "\r\n\r\n").first().status(), is(400));
        }
        assertThat(converse("GET /api/v1/public/" + key + "/notifications HTTP/1.0\r\nHost: a b\r\n\r\n")
                           .first().status(), is(400));
    }

    /**
     * A connection remembers the Host that last passed and skips the check for it alone: another value on the same
     * connection, after one that passed, is checked as the first one was.
     */
    @Test
    void aHostThatPassedOnAConnectionDoesNotLetAnotherThrough() throws Exception {
        String feed = "GET /api/v1/public/" + key + "/notifications HTTP/1.1\r\n";
        String answers = converse(feed + "Host: x\r\n\r\n" + feed + "Host: x\r\n\r\n"
                                  + feed + "Host: a b\r\n\r\n").text();
        assertThat(answers(answers, 200), is(2));
        assertThat(answers(answers, 400), is(1));
        assertThat(answers.lastIndexOf("HTTP/1.1 400 "), greaterThan(answers.lastIndexOf("HTTP/1.1 200 ")));
        assertThat(answers(converse(feed + "Host: x\r\n\r\n" + feed + "Host: \r\n\r\n").text(), 400), is(1));
        assertThat(answers(converse(feed + "Host: x\r\n\r\n" + feed + "Host: x\r\nHost: x\r\n\r\n").text(), 400),
                   is(1));
    }

    private static int answers(String conversation, int status) {
        return conversation.split("HTTP/1\\.1 " + status + " ", -1).length - 1;
    }

    /** A Connection header's value is read as Helidon reads it, not taken for a request line. */
    @Test
    void anHttp11RequestWhoseConnectionValueEndsLikeA10RequestLineStaysHttp11() throws Exception {
        RawHttp.Conversation conversation = converse("GET /api/v1/public/" + key + "/notifications HTTP/1.1\r\n"
                + "Host: x\r\nConnection: x HTTP/1.0\r\n\r\n" + NEXT);
        assertThat(conversation.first().status(), is(200));
        assertThat(conversation.first().headers().get("connection").toLowerCase(Locale.ROOT), is("keep-alive"));
        assertThat(statusLines(conversation), is(2));
    }

    /** A feed's answer ends without a line break: its successor's status line is counted wherever it starts. */
    private static int statusLines(RawHttp.Conversation conversation) {
        return conversation.text().split("HTTP/1\\.1 \\d{3} ", -1).length - 1;
    }

    private RawHttp.Conversation converse(String request) throws Exception {
        return RawHttp.converse(uri, request.getBytes(StandardCharsets.ISO_8859_1), QUIET);
    }
}
