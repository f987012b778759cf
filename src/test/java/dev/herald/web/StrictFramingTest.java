package dev.herald.web;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.herald.notification.Notification;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * RFC 9112 §6: a body that could be delimited two ways is refused with 400 and the connection closed, so that
 * nothing after the headers is ever parsed as another request. Every request here is followed on its connection
 * by a pipelined second one, which must never be answered.
 */
@ServerTest
class StrictFramingTest extends HeraldServerTest {

    private static final String BODY = "{\"type\":\"click\"}";
    private static final String SMUGGLED = "GET /api/v1/public/smuggled/notifications HTTP/1.1\r\nHost: x\r\n\r\n";
    private static final Duration QUIET = Duration.ofSeconds(3);

    private final URI uri;
    private Notification notification;

    StrictFramingTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @BeforeEach
    void aNotification() {
        notification = herald.notification(herald.project()).save();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "Content-Length: 16\r\nContent-Length: 17",                 // two lengths (Helidon takes the first)
            "Content-Length: 16\r\nContent-Length: 16",                 // two, even when equal
            "Content-Length: +16",                                       // a sign
            "Content-Length: 016",                                       // a leading zero
            "Content-Length: 16 ",                                       // Helidon strips it; so do we, but see below
            "Content-Length: 0x10",
            "Content-Length: 99999999999999999999",                      // past a long
            "Content-Length: 16\r\nTransfer-Encoding: chunked",          // both (§6.1: close)
            "Transfer-Encoding: chunked\r\nContent-Length: 16",
            "Transfer-Encoding: Chunked",                                 // Helidon: no body at all
            "Transfer-Encoding: gzip, chunked",
            "Transfer-Encoding: chunked, chunked",
            "Transfer-Encoding: identity",
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked"})
    void ambiguousFramingIsRefusedAndTheConnectionClosed(String framing) throws Exception {
        String body = framing.contains("Transfer-Encoding") ? "10\r\n" + BODY + "\r\n0\r\n\r\n" : BODY;
        RawHttp.Conversation conversation = post(framing, body);
        if (framing.equals("Content-Length: 16 ")) {
            // Trailing white space is not part of a field value (RFC 9110 §5.5): this one is unambiguous.
            assertThat(conversation.first().status(), is(204));
            return;
        }
        assertRefusedAndClosed(framing, conversation);
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x10", "10;a=b", " 10", "10 ", "ffffffffff", "-10", "zz", "\u001b[31mred"})
    void aMalformedChunkSizeIsRefusedAndTheConnectionClosed(String size) throws Exception {
        assertRefusedAndClosed(size, post("Transfer-Encoding: chunked", size + "\r\n" + BODY + "\r\n0\r\n\r\n"));
    }

    @Test
    void aChunkLineEndingInABareLineFeedIsRefused() throws Exception {
        assertRefusedAndClosed("LF", post("Transfer-Encoding: chunked", "10\n" + BODY + "\n0\n\n"));
    }

    @Test
    void aChunkedBodyOfPlainFormIsTakenAndTheConnectionKept() throws Exception {
        RawHttp.Conversation conversation = post("Transfer-Encoding: chunked", "10\r\n" + BODY + "\r\n0\r\n\r\n");
        assertThat(conversation.first().status(), is(204));
        assertThat("the pipelined request is answered too", conversation.answers(), is(2));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @Test
    void pipelinedRequestsWithPlainLengthsAreEachAnswered() throws Exception {
        RawHttp.Conversation conversation = post("Content-Length: 16", BODY);
        assertThat(conversation.first().status(), is(204));
        assertThat(conversation.answers(), is(2));
        assertThat(conversation.closedByServer(), is(false));
    }

    @Test
    void theAdminApiIsHeldToTheSameRule() throws Exception {
        String request = "POST /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: Chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" + SMUGGLED;
        RawHttp.Conversation conversation = RawHttp.converse(uri, request.getBytes(StandardCharsets.ISO_8859_1), QUIET);
        assertThat(conversation.first().status(), is(400));
        assertThat(JsonBodies.object(conversation.first().body()).getString("code"), is("INVALID_BODY"));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
    }

    private RawHttp.Conversation post(String framing, String body) throws Exception {
        String request = "POST /api/v1/public/track/" + notification.id() + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\n" + framing + "\r\n\r\n" + body + SMUGGLED;
        return RawHttp.converse(uri, request.getBytes(StandardCharsets.ISO_8859_1), QUIET);
    }

    private void assertRefusedAndClosed(String what, RawHttp.Conversation conversation) throws Exception {
        RawHttp.Response answer = conversation.first();
        assertThat(what, answer.status(), is(400));
        assertThat(what, answer.headers().get("content-type"), is("application/json"));
        JsonObject body = JsonBodies.object(answer.body());
        // Herald's check answers INVALID_BODY; a length Helidon cannot read at all it refuses itself, before routing.
        assertThat(what, body.getString("code"), anyOf(is("INVALID_BODY"), is("BAD_REQUEST")));
        assertThat(what, body.containsKey("message"), is(true));
        assertThat(what + ": the bytes after the headers were parsed as a request", conversation.answers(), is(1));
        assertThat(what, conversation.closedByServer(), is(true));
        assertThat(what, herald.interactions(notification.id()), is(empty()));
    }
}
