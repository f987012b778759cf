package dev.herald.admin;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Rules every management route follows, each served by one check (no database rule), so H2 alone.
 *
 * <p>The media type of a body, on every route that reads one: {@code application/json}, with no charset or
 * {@code charset=utf-8}. A 415 says what to send.
 *
 * <p>Every route that answers GET answers HEAD (RFC 9110 §9.1: a server supports GET and HEAD; a client may check a
 * resource with {@code curl -I}): the same status and headers, no content, so that the next answer on the connection
 * is read whole; {@code Allow} lists it. The exports stream a body computed as it is read and answer GET only
 * (docs/api.md).
 */
@ServerTest
class AdminRouteRulesTest extends HeraldServerTest {

    /** An owner's token: every read, the team's included. */
    private static final String OWNER = "olive-owner-token-0123456789abcdef0123456789";

    private static final String UNSUPPORTED = "{\"error\":\"Content-Type must be application/json; a charset, if given,"
            + " must be utf-8\",\"code\":\"UNSUPPORTED_MEDIA_TYPE\",\"details\":{\"field\":\"Content-Type\","
            + "\"allowed\":[\"application/json\"]}}";

    private final Http1Client http;
    private final URI uri;
    private final AdminClient admin;
    private List<String> bodyRoutes;
    private List<String> readPaths;
    private String project;

    AdminRouteRulesTest(Http1Client http, URI uri) {
        this.http = http;
        this.uri = uri;
        this.admin = new AdminClient(http);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                      "admin.accounts.0.name", "olive",
                                                      "admin.accounts.0.role", "owner",
                                                      "admin.accounts.0.token-sha256", Tokens.sha256(OWNER)));
    }

    /** Method and path of every route that reads a body; the path of every route that reads, with ids that exist. */
    @BeforeEach
    void routes() {
        project = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        String notification = admin.created("/projects/" + project + "/notifications", "{\"message\":\"m\"}")
                .getString("id");
        assertThat(admin.call(Method.PUT, "/notifications/" + notification + "/draft", "{\"message\":\"d\"}").status(),
                   is(200));
        String webhook = admin.created("/projects/" + project + "/webhooks",
                                       "{\"url\":\"https://example.com/hook\",\"eventTypes\":[\"notification.created\"]}")
                .getString("id");
        readPaths = List.of("/projects", "/projects/" + project, "/projects/" + project + "/api-keys",
                            "/projects/" + project + "/notifications", "/notifications/" + notification,
                            "/notifications/" + notification + "/draft", "/notifications/" + notification + "/versions",
                            "/notifications/" + notification + "/versions/1",
                            "/notifications/" + notification + "/translations",
                            "/notifications/" + notification + "/stats", "/projects/" + project + "/stats",
                            "/projects/" + project + "/token-keys", "/projects/" + project + "/webhooks",
                            "/webhooks/" + webhook, "/webhooks/" + webhook + "/deliveries", "/audit", "/session",
                            "/sessions", "/accounts", "/accounts/olive");
        bodyRoutes = List.of("POST /projects", "POST /projects/" + project + "/api-keys", "PATCH /api-keys/" + key,
                             "POST /projects/" + project + "/notifications", "PATCH /notifications/" + notification);
    }

    @ParameterizedTest
    @ValueSource(strings = {"text/plain", "application/x-www-form-urlencoded", "application/jsonp",
            "application/json; charset=iso-8859-1"})
    void anotherMediaTypeIsToldWhatToSendOnEveryRoute(String contentType) {
        for (String route : bodyRoutes) {
            String[] methodAndPath = route.split(" ");
            try (Http1ClientResponse response = http.method(Method.create(methodAndPath[0]))
                    .path("/api/v1/admin" + methodAndPath[1])
                    .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)
                    .header(HeaderNames.CONTENT_TYPE, contentType)
                    .submit("{}")) {
                assertThat(route, response.status().code(), is(415));
                assertThat(route, response.as(String.class), is(UNSUPPORTED));
            }
        }
    }

    @Test
    void aBodyWithoutAContentTypeIsToldWhatToSend() throws IOException {
        byte[] body = "{\"name\":\"p\"}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.exchange(uri, "POST /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + AdminClient.TOKEN + "\r\nContent-Length: " + body.length, body);
        assertThat(response.status(), is(415));
        assertThat(response.body(), is(UNSUPPORTED));
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "Application/JSON", "application/json; charset=UTF-8",
            "application/json;charset=\"utf-8\"", "application/json; profile=x"})
    void jsonIsAcceptedInAnyCaseWithUtf8OrNoCharset(String contentType) {
        try (Http1ClientResponse response = http.post("/api/v1/admin/projects")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)
                .header(HeaderNames.CONTENT_TYPE, contentType)
                .submit("{\"name\":\"p\"}")) {
            assertThat(contentType, response.status().code(), is(201));
        }
    }

    @Test
    void everyReadAnswersHeadLikeGetWithoutTheContent() throws IOException {
        for (String path : readPaths) {
            String length;
            String type;
            try (Http1ClientResponse response = authorized(Method.GET, path)
                    .header(HeaderNames.AUTHORIZATION, "Bearer " + OWNER).request()) {
                assertThat(path, response.status().code(), is(200));
                length = String.valueOf(response.as(byte[].class).length);
                type = response.headers().get(HeaderNames.CONTENT_TYPE).get();
            }
            // Pipelined on one connection: the HEAD answer must end with its headers, or the GET after it is misread.
            RawHttp.Response answers = RawHttp.exchange(uri, "HEAD /api/v1/admin" + path + " HTTP/1.1\r\nHost: x\r\n"
                    + "Authorization: Bearer " + OWNER + "\r\n\r\n"
                    + "GET /api/v1/public/notifications HTTP/1.1\r\nHost: x");
            assertThat(path, answers.status(), is(200));
            assertThat(path, answers.headers().get("content-length"), is(length));
            assertThat(path, answers.headers().get("content-type"), is(type));
            assertThat(path, answers.body(), startsWith("HTTP/1.1 401 "));
        }
    }

    @Test
    void headOfWhatDoesNotExistIs404WithoutTheContent() throws IOException {
        RawHttp.Response answers = RawHttp.exchange(uri, "HEAD /api/v1/admin/projects/nope HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + AdminClient.TOKEN + "\r\n\r\n"
                + "GET /api/v1/public/notifications HTTP/1.1\r\nHost: x");
        assertThat(answers.status(), is(404));
        assertThat(answers.body(), startsWith("HTTP/1.1 401 "));
    }

    @Test
    void allowListsHeadWhereGetIsServedAndNotOnTheExports() {
        assertThat(allowOf("/projects"), is("GET, HEAD, POST"));
        assertThat(allowOf("/projects/" + project), is("GET, HEAD, PATCH"));
        assertThat(allowOf("/audit"), is("GET, HEAD"));
        assertThat(allowOf("/projects/" + project + "/export/interactions"), is("GET"));
    }

    private String allowOf(String path) {
        try (Http1ClientResponse response = authorized(Method.PUT, path).submit("{}")) {
            assertThat(path, response.status().code(), is(405));
            return response.headers().first(HeaderNames.ALLOW).orElse("none");
        }
    }

    private Http1ClientRequest authorized(Method method, String path) {
        return AdminClient.request(http, method, "/api/v1/admin" + path)
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)
                .header(HeaderNames.CONTENT_TYPE, "application/json");
    }
}
