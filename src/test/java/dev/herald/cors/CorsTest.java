package dev.herald.cors;

import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Map;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * CORS with the default configuration: any origin (docs/api.md#cors).
 */
@ServerTest
class CorsTest extends HeraldServerTest {

    private final Http1Client client;
    private final URI uri;

    CorsTest(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of());
    }

    @Test
    void aPreflightIsAnswered204WithWhatBrowsersNeed() {
        try (Http1ClientResponse response = client.method(Method.OPTIONS).path("/api/v1/public/track/abc/enhanced")
                .header(HeaderNames.ORIGIN, "https://app.example")
                .header(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD, "POST")
                .header(HeaderNames.ACCESS_CONTROL_REQUEST_HEADERS, "content-type, authorization, if-none-match")
                .request()) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
            assertThat(header(response, "Access-Control-Allow-Origin"), is("*"));
            assertThat(header(response, "Access-Control-Allow-Methods"), is("GET, HEAD, POST, OPTIONS"));
            assertThat(header(response, "Access-Control-Allow-Headers"), is("Content-Type, Authorization, If-None-Match"));
            assertThat(header(response, "Access-Control-Max-Age"), is("7200"));
        }
    }

    @Test
    void publicAnswersAllowAnyOriginErrorsIncluded() {
        String key = TestHerald.randomKey();
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.ORIGIN, "https://app.example").request()) {
            assertThat(response.status(), is(Status.UNAUTHORIZED_401));
            assertThat(header(response, "Access-Control-Allow-Origin"), is("*"));
            assertThat(header(response, "Access-Control-Expose-Headers"),
                       is("ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset"));
        }
        try (Http1ClientResponse response = client.post("/api/v1/public/track/none")
                .header(HeaderNames.ORIGIN, "https://app.example")
                .header(HeaderNames.CONTENT_TYPE, "text/plain;charset=UTF-8")
                .submit("{\"type\":\"click\"}")) {
            assertThat(response.status(), is(Status.NOT_FOUND_404));
            assertThat(header(response, "Access-Control-Allow-Origin"), is("*"));
        }
    }

    @Test
    void theManagementApiSendsNoCorsHeaders() {
        for (Method method : new Method[] {Method.GET, Method.OPTIONS}) {
            try (Http1ClientResponse response = client.method(method).path("/api/v1/admin/projects")
                    .header(HeaderNames.ORIGIN, "https://app.example")
                    .header(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD, "GET")
                    .request()) {
                assertThat(response.headers().contains(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN), is(false));
            }
        }
    }

    /**
     * Headers for error answers are remembered per thread, and a connection's requests share its thread: the
     * second answer on a connection, an error outside the public API, must not carry the first one's headers.
     */
    @Test
    void aPublicAnswersHeadersStayWithIt() throws IOException {
        RawHttp.Response first = RawHttp.exchange(uri, "GET /api/v1/public/short/notifications HTTP/1.1\r\nHost: x\r\n"
                + "Origin: https://app.example\r\n\r\n"
                + "GET /elsewhere HTTP/1.1\r\nHost: x");
        assertThat(first.status(), is(401));
        assertThat(first.headers().get("access-control-allow-origin"), is("*"));
        String second = first.body().substring(first.body().indexOf("HTTP/1.1 "));
        assertThat(second, startsWith("HTTP/1.1 404 "));
        String secondHead = second.substring(0, second.indexOf("\r\n\r\n")).toLowerCase(Locale.ROOT);
        assertThat(secondHead, not(containsString("access-control-")));
        assertThat(secondHead, not(containsString("ratelimit-")));
    }

    static String header(Http1ClientResponse response, String name) {
        return response.headers().first(HeaderNames.create(name)).orElseThrow(() -> new AssertionError("no " + name));
    }
}
