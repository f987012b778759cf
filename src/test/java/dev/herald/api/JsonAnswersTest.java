package dev.herald.api;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

import dev.herald.observe.ObserveSettings;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The management API's and health's JSON answers, which Helidon's JSON-P media support writes ({@link JsonAnswers}),
 * to the byte: status, every header but {@code Date}, and the content. Whatever the request's {@code Accept} says, however
 * long the answer, and with {@code TE: trailers}: a change of Helidon's writer or of its framing fails here.
 */
@ServerTest
class JsonAnswersTest extends HeraldServerTest {

    private static final String TOKEN = "Authorization: Bearer " + AdminClient.TOKEN;
    /** A name escaped as JSON must be (quote, backslash, tab), the rest sent as UTF-8 as it is, {@code </script>} too. */
    private static final String NAME_JSON = "Caf\u00e9 \u20ac \ud83d\ude00 </script> \u2028 \\\"q\\\" \\\\ a\\tb";

    private final URI uri;
    private final URI observe;

    JsonAnswersTest(URI uri, @Socket(ObserveSettings.SOCKET) URI observe) {
        this.uri = uri;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void aCreatedProjectIsAnsweredInExactlyTheseBytes() throws IOException {
        byte[] request = ("{\"name\":\"" + NAME_JSON + "\"}").getBytes(StandardCharsets.UTF_8);
        RawHttp.Response created = RawHttp.exchange(uri, "POST /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n" + TOKEN
                + "\r\nContent-Type: application/json\r\nContent-Length: " + request.length, request);
        String id = created.body().substring("{\"id\":\"".length(), "{\"id\":\"".length() + 22);
        String body = "{\"id\":\"" + id + "\",\"name\":\"" + NAME_JSON + "\",\"defaultLocale\":\"en\",\"requiredLocales\":[],\"createdAt\":\"2026-11-22T10:00:00.000Z\"}";
        assertExactly(created, 201, body, Map.of("cache-control", "no-store",
                                                 "location", "/api/v1/admin/projects/" + id));
        assertExactly(get("/api/v1/admin/projects/" + id, ""), 200, body, Map.of("cache-control", "no-store"));
    }

    /** Herald has one representation: Accept changes nothing (Helidon's media negotiation would answer 415). */
    @ParameterizedTest
    @ValueSource(strings = {"Accept: text/html", "Accept: application/xml",
            "Accept: application/json; charset=iso-8859-1", "Accept-Charset: iso-8859-1", "Accept: */*"})
    void whatTheClientAcceptsChangesNothing(String accept) throws IOException {
        Project project = herald.project();
        String body = "{\"id\":\"" + project.id() + "\",\"name\":\"" + project.name()
                + "\",\"defaultLocale\":\"en\",\"requiredLocales\":[],\"createdAt\":\"2026-11-22T10:00:00.000Z\"}";
        assertExactly(get("/api/v1/admin/projects/" + project.id(), "\r\n" + accept), 200, body,
                      Map.of("cache-control", "no-store"));
    }

    /** Over Helidon's 16 KiB first buffer, a streamed answer would have gone chunked. */
    @Test
    void aLongListIsSentWithItsLength() throws IOException {
        Project project = herald.project();
        for (int i = 0; i < 10; i++) {
            herald.notification(project).message("\u00e9".repeat(5_000) + i).save();
        }
        RawHttp.Response list = get("/api/v1/admin/projects/" + project.id() + "/notifications", "");
        assertThat(list.status(), is(200));
        assertThat(list.headers().get("transfer-encoding"), is((String) null));
        assertThat(list.headers().get("content-length"),
                   is(String.valueOf(list.body().getBytes(StandardCharsets.UTF_8).length)));
        assertThat(list.body().getBytes(StandardCharsets.UTF_8).length > 100_000, is(true));
    }

    /** On a kept connection the next answer starts right after the content: no trailer section in between. */
    @Test
    void withTeTrailersNothingFollowsTheContent() throws IOException {
        Project project = herald.project();
        String get = "GET /api/v1/admin/projects/" + project.id() + " HTTP/1.1\r\nHost: x\r\n" + TOKEN
                + "\r\nTE: trailers\r\n";
        RawHttp.Conversation both = RawHttp.converse(
                uri, (get + "\r\n" + get + "Connection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1),
                Duration.ofSeconds(5));
        String body = "{\"id\":\"" + project.id() + "\",\"name\":\"" + project.name()
                + "\",\"defaultLocale\":\"en\",\"requiredLocales\":[],\"createdAt\":\"2026-11-22T10:00:00.000Z\"}";
        String text = new String(both.text().getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8);
        int second = text.indexOf(body + "HTTP/1.1 200 OK\r\n");
        assertThat(text, second > 0 && text.startsWith("HTTP/1.1 200 OK\r\n"), is(true));
        assertThat(text, text.endsWith(body), is(true));
    }

    @Test
    void healthIsAnsweredInExactlyTheseBytes() throws IOException {
        assertExactly(RawHttp.exchange(observe, "GET /observe/health/live HTTP/1.1\r\nHost: x\r\nAccept: text/html"),
                      200, "{\"status\":\"UP\"}", Map.of("cache-control", "no-store"));
        assertExactly(RawHttp.exchange(observe, "GET /observe/health/ready HTTP/1.1\r\nHost: x"), 200,
                      "{\"status\":\"UP\",\"checks\":[{\"name\":\"database\",\"status\":\"UP\"}]}",
                      Map.of("cache-control", "no-store"));
    }

    private RawHttp.Response get(String path, String moreHeaders) throws IOException {
        return RawHttp.exchange(uri, "GET " + path + " HTTP/1.1\r\nHost: x\r\n" + TOKEN + moreHeaders);
    }

    /** Status, content, and every header but Date: these, plus what every JSON answer on a closing connection has. */
    private static void assertExactly(RawHttp.Response response, int status, String body, Map<String, String> headers) {
        Map<String, String> expected = new TreeMap<>(headers);
        expected.put("connection", "close");
        expected.put("content-length", String.valueOf(body.getBytes(StandardCharsets.UTF_8).length));
        expected.put("content-type", "application/json");
        expected.put("x-content-type-options", "nosniff");
        Map<String, String> actual = new TreeMap<>(response.headers());
        actual.remove("date");
        assertThat(response.status(), is(status));
        assertThat(actual, is(expected));
        assertThat(response.body(), is(body));
    }
}
