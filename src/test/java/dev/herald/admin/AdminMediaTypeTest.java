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

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
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

/**
 * The media type of a management API body, on every route that reads one: {@code application/json}, with no charset
 * or {@code charset=utf-8}. A 415 says what to send. One check serves every route (no database rule), so H2 alone.
 */
@ServerTest
class AdminMediaTypeTest extends HeraldServerTest {

    private static final String UNSUPPORTED = "{\"error\":\"Content-Type must be application/json; a charset, if given,"
            + " must be utf-8\",\"code\":\"UNSUPPORTED_MEDIA_TYPE\",\"details\":{\"field\":\"Content-Type\","
            + "\"allowed\":[\"application/json\"]}}";

    private final Http1Client http;
    private final URI uri;
    private final AdminClient admin;
    private List<String> bodyRoutes;

    AdminMediaTypeTest(Http1Client http, URI uri) {
        this.http = http;
        this.uri = uri;
        this.admin = new AdminClient(http);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    /** Method and path of every route that reads a body. */
    @BeforeEach
    void routes() {
        String project = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        String notification = admin.created("/projects/" + project + "/notifications", "{\"message\":\"m\"}")
                .getString("id");
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
}
