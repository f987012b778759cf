package dev.herald.api;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A request that repeats a header which decides who it is from or how its body is read is refused before any of them
 * is read ({@link SingleHeadersFilter}): an outside review found the first of two {@code Authorization} headers taken,
 * where a proxy in front may read the last.
 */
@ServerTest
class SingleHeadersTest extends HeraldServerTest {

    private static final String ALICE = "alice-token-of-at-least-thirty-two-characters";
    private static final String MALLORY = "mallory-token-of-at-least-thirty-two-chars";

    private final URI uri;

    SingleHeadersTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.accounts.0.name", "alice",
                                                      "admin.accounts.0.role", "editor",
                                                      "admin.accounts.0.token-sha256", Tokens.sha256(ALICE)));
    }

    @Test
    void twoAuthorizationsAreRefusedWhicheverComesFirst() throws IOException {
        for (String[] order : new String[][] {{ALICE, MALLORY}, {MALLORY, ALICE}}) {
            RawHttp.Response answer = RawHttp.exchange(uri, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer " + order[0] + "\r\nAuthorization: Bearer " + order[1]
                   );
            assertThat(answer.body(), answer.status(), is(400));
            JsonObject error = JsonBodies.object(answer.body());
            assertThat(error.getString("code"), is("BAD_REQUEST"));
            assertThat(error.getString("error"), is("The request repeats its Authorization header: send it once"));
        }
        RawHttp.Response once = RawHttp.exchange(uri, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + ALICE);
        assertThat("one is read as before", once.status(), is(200));
    }

    /**
     * As Helidon's own refusals of a header section: the answer closes the connection, so a request pipelined after
     * it is never served (the second outside attack found it served).
     */
    @Test
    void theRefusalClosesTheConnection() throws IOException {
        String feed = "GET /api/v1/public/" + herald.key(herald.project()).key() + "/notifications HTTP/1.1\r\n"
                + "Host: x\r\n";
        RawHttp.Conversation conversation = RawHttp.converse(uri, (feed + "Authorization: Bearer a\r\n"
                + "Authorization: Bearer b\r\n\r\n" + feed + "\r\n").getBytes(StandardCharsets.ISO_8859_1),
                Duration.ofSeconds(3));
        assertThat(conversation.text(), conversation.answers(), is(1));
        assertThat(conversation.closedByServer(), is(true));
        assertThat(conversation.first().status(), is(400));
        assertThat(conversation.first().headers().get("connection"), is("close"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Sec-Fetch-Site: same-origin\r\nSec-Fetch-Site: cross-site",
            "X-CSRF-Token: a\r\nX-CSRF-Token: b", "Origin: https://a.example\r\nOrigin: https://b.example"})
    void aRepeatedHeaderOfTheConsoleOrOfCorsIsRefused(String headers) throws IOException {
        RawHttp.Response answer = RawHttp.exchange(uri, "GET /api/v1/admin/session HTTP/1.1\r\nHost: x\r\n" + headers
               );
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(JsonBodies.object(answer.body()).getString("code"), is("BAD_REQUEST"));
    }

    /** On a tracking path the refusal has the tracking errors' shape: {@code message}, not {@code error}. */
    @Test
    void twoContentTypesOnTrackingAreRefusedInItsShapeAndNothingIsStored() throws IOException, SQLException {
        Notification notification = herald.notification(herald.project()).save();
        byte[] body = "{\"type\":\"click\"}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response answer = RawHttp.exchange(uri, "POST /api/v1/public/track/" + notification.id()
                + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\n"
                + "Content-Length: " + body.length, body);
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(JsonBodies.object(answer.body()).getString("message"),
                   is("The request repeats its Content-Type header: send it once"));
        assertThat(herald.interactions(notification.id()).size(), is(0));
    }
    /**
     * If-None-Match is a list, not a single header: its lines are one list, so the draft's tag on a second line keeps
     * a write from replacing it, where the first line alone was read before.
     */
    @Test
    void aPreconditionOnTwoLinesIsReadAsOneList() throws IOException {
        Notification live = herald.notification(herald.project()).status(NotificationStatus.PUBLISHED).save();
        String draft = "PUT /api/v1/admin/notifications/" + live.id() + "/draft HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + ALICE + "\r\nContent-Type: application/json\r\n";
        byte[] body = "{\"message\":\"Kept\"}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response kept = RawHttp.exchange(uri, draft + "Content-Length: " + body.length, body);
        assertThat(kept.body(), kept.status(), is(200));
        RawHttp.Response over = RawHttp.exchange(uri, draft + "If-None-Match: \"other\"\r\nIf-None-Match: "
                + kept.headers().get("etag") + "\r\nContent-Length: " + body.length, body);
        assertThat(over.body(), over.status(), is(412));
        RawHttp.Response mixed = RawHttp.exchange(uri, draft + "If-None-Match: \"other\"\r\nIf-None-Match: *\r\n"
                + "Content-Length: " + body.length, body);
        assertThat("* stands alone (RFC 9110, 13.1.2): with a tag it is no list", mixed.status(), is(400));
    }
}
