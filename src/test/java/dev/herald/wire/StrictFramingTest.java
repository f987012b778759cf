package dev.herald.wire;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

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
import static org.hamcrest.Matchers.containsString;
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
            "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
            "Content-Length: 16\r\nTransfer_Encoding: chunked",           // a proxy mapping _ to - reads both
            "Content-Length: 16\r\nContent_Length: 17",
            "Transfer-Encoding: chunked\r\ncontent_length: 16"})
    void ambiguousFramingIsRefusedAndTheConnectionClosed(String framing) throws Exception {
        String body = framing.contains("Transfer-Encoding") ? "10\r\n" + BODY + "\r\n0\r\n\r\n" : BODY;
        RawHttp.Conversation conversation = post(framing, body);
        if (framing.equals("Content-Length: 16 ")) {
            // Trailing white space is not part of a field value (RFC 9110 §5.5): this one is unambiguous.
            assertThat(conversation.first().status(), is(204));
            return;
        }
        if (framing.equals("Transfer-Encoding: gzip, chunked")) {
            // A coding Herald does not decode: 501, as RFC 9112 §6.1 asks (Helidon 4.5.0 answers it before routing).
            assertRefusedAndClosed(framing, conversation, 501, "NOT_IMPLEMENTED");
            return;
        }
        // Whether Helidon refuses it before routing (4.5.0 does for most) or FramingFilter does: the same answer.
        assertRefusedAndClosed(framing, conversation, 400, "INVALID_BODY");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0x10", "10;a=b", " 10", "10 ", "ffffffffff", "-10", "+10", "+f", "zz", "\u001b[31mred",
            "\uff11\uff10", "", "000000010"})
    void aMalformedChunkSizeIsRefusedAndTheConnectionClosed(String size) throws Exception {
        assertRefusedAndClosed(size, post("Transfer-Encoding: chunked", size + "\r\n" + BODY + "\r\n0\r\n\r\n"));
    }

    /** Helidon skips the two bytes after a chunk's data unseen: a proxy would read them as the next chunk size. */
    @ParameterizedTest
    @ValueSource(strings = {"XX", "\r\r", "\n\n"})
    void aChunkNotEndedByCrlfIsRefused(String end) throws Exception {
        assertRefusedAndClosed(end, post("Transfer-Encoding: chunked", "10\r\n" + BODY + end + "0\r\n\r\n"));
    }

    @Test
    void aTrailerSectionIsRefused() throws Exception {
        assertRefusedAndClosed("trailer", post("Transfer-Encoding: chunked", "10\r\n" + BODY + "\r\n0\r\nX: y\r\n\r\n"));
    }

    /** Without a bound, one such request filled an 80 MB heap: Helidon read a chunk-size line until it ended. */
    @Test
    void aChunkSizeLineThatNeverEndsIsRefusedWithinItsBound() throws Exception {
        RawHttp.Conversation conversation = postAlone("Transfer-Encoding: chunked", "0".repeat(1 << 20));
        assertThat("answered before the line ends", conversation.answers(), is(1));
        assertThat(conversation.first().status(), is(400));
        assertThat(conversation.closedByServer(), is(true));
    }

    @Test
    void hexadecimalSizesOfEitherCaseAndLeadingZerosAreTaken() throws Exception {
        String body = "{\"type\":\"click\",\"pad\":\"" + "x".repeat(6) + "\"}";
        String chunks = "0000001f\r\n" + body + "\r\n0\r\n\r\n";
        assertThat(body.length(), is(0x1F));
        RawHttp.Conversation conversation = post("Transfer-Encoding: chunked", chunks);
        assertThat(conversation.first().status(), is(204));
        assertThat(conversation.answers(), is(2));
        assertThat(herald.interactions(notification.id()), hasSize(1));
        assertThat(post("Transfer-Encoding: chunked", "1F\r\n" + body + "\r\n0\r\n\r\n").first().status(), is(204));
    }

    /**
     * Helidon is handed a large chunk in pieces of {@link StrictChunkReader#PIECE} bytes, so that a route holds at
     * most one piece past what it reads: the body must arrive whole, with the bytes at the pieces' edges in place.
     */
    @Test
    void aChunkLargerThanAPieceArrivesWhole() throws Exception {
        // Unknown fields are ignored by tracking: a body of some 40 KB, two and a half pieces, ending in the type.
        String body = "{\"pad\":\"" + "0123456789".repeat(4_000) + "\",\"type\":\"click\"}";
        String chunks = Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
        RawHttp.Conversation conversation = post("Transfer-Encoding: chunked", chunks);
        assertThat(conversation.first().body(), conversation.first().status(), is(204));
        assertThat("the pipelined request is answered too", conversation.answers(), is(2));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    /** 4,464 bytes past the limit and then nothing: the answer must not wait for the rest of a 16 KiB piece. */
    @Test
    void aChunkOverTheLimitIsAnswered413OnceTheLimitIsPassedWithoutWaitingForMore() throws Exception {
        RawHttp.Conversation conversation = postAlone("Transfer-Encoding: chunked", "7fffffff\r\n" + "x".repeat(70_000));
        assertThat("answered while the client waits", conversation.answers(), is(1));
        assertThat(conversation.first().status(), is(413));
        assertThat(conversation.closedByServer(), is(true));
    }

    /** A whole chunked body one byte over: 413, and the connection closes as the answer says, rather than read on. */
    @Test
    void aWholeChunkedBodyOverTheLimitIsAnswered413AndTheConnectionClosed() throws Exception {
        RawHttp.Conversation conversation = post("Transfer-Encoding: chunked", "10001\r\n" + "x".repeat(0x10001)
                + "\r\n0\r\n\r\n");
        assertThat(conversation.first().status(), is(413));
        assertThat(conversation.text(), conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
        assertThat(conversation.first().headers().get("connection"), is("close"));
    }

    @Test
    void aChunkOverTheRoutesLimitIsRefusedBeforeItIsRead() throws Exception {
        RawHttp.Conversation conversation = post("Transfer-Encoding: chunked", "7fffffff\r\n" + "x".repeat(200_000));
        assertThat(conversation.first().status(), is(413));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
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
        RawHttp.Conversation conversation = converse(request);
        assertThat(conversation.first().status(), is(400));
        assertThat(JsonBodies.object(conversation.first().body()).getString("code"), is("INVALID_BODY"));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
    }

    /**
     * No route of these methods reads a body: the connection closes after the answer, so that the body is never
     * read as the next request, and the answer says so.
     */
    @ParameterizedTest
    @ValueSource(strings = {"GET", "HEAD", "OPTIONS", "DELETE"})
    void anAnswerToARequestWhoseBodyIsNeverReadSaysTheConnectionCloses(String method) throws Exception {
        String key = herald.key(herald.project()).key();
        String request = method + " /api/v1/public/" + key + "/notifications HTTP/1.1\r\nHost: x\r\n"
                + "Origin: https://app.example\r\nAccess-Control-Request-Method: GET\r\nContent-Length: 5\r\n\r\n"
                + "hello" + SMUGGLED;
        RawHttp.Conversation conversation = converse(request);
        // A HEAD answer announces a length it does not send: the head is read as text.
        String head = conversation.text().substring(0, conversation.text().indexOf("\r\n\r\n") + 2);
        assertThat(method, head.toLowerCase(Locale.ROOT), containsString("\r\nconnection: close\r\n"));
        assertThat(method, conversation.answers(), is(1));
        assertThat(method, conversation.closedByServer(), is(true));
    }

    @Test
    void anAnswerToAClientThatAskedToCloseSaysSo() throws Exception {
        String key = herald.key(herald.project()).key();
        String request = "GET /api/v1/public/" + key + "/notifications HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + SMUGGLED;
        RawHttp.Conversation conversation = converse(request);
        assertThat(conversation.first().status(), is(200));
        assertThat(conversation.first().headers().get("connection"), is("close"));
        assertThat(conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
    }

    private RawHttp.Conversation post(String framing, String body) throws Exception {
        return postAlone(framing, body + SMUGGLED);
    }

    /** The same tracking request with nothing pipelined after it: for bodies that never end. */
    private RawHttp.Conversation postAlone(String framing, String body) throws Exception {
        return converse("POST /api/v1/public/track/" + notification.id() + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\n" + framing + "\r\n\r\n" + body);
    }

    private RawHttp.Conversation converse(String request) throws Exception {
        return RawHttp.converse(uri, request.getBytes(StandardCharsets.ISO_8859_1), QUIET);
    }

    private void assertRefusedAndClosed(String what, RawHttp.Conversation conversation) throws Exception {
        assertRefusedAndClosed(what, conversation, 400, "INVALID_BODY");
    }

    private void assertRefusedAndClosed(String what, RawHttp.Conversation conversation, int status, String code)
            throws Exception {
        RawHttp.Response answer = conversation.first();
        assertThat(what, answer.status(), is(status));
        assertThat(what, answer.headers().get("content-type"), is("application/json"));
        JsonObject body = JsonBodies.object(answer.body());
        assertThat(what, body.getString("code"), is(code));
        assertThat(what, body.containsKey("message"), is(true));
        assertThat(what + ": the bytes after the headers were parsed as a request", conversation.answers(), is(1));
        assertThat(what, conversation.closedByServer(), is(true));
        assertThat(what, herald.interactions(notification.id()), is(empty()));
    }
}
