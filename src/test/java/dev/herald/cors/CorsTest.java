package dev.herald.cors;

import java.util.Map;

import dev.herald.support.HeraldServerTest;
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
import static org.hamcrest.Matchers.is;

/**
 * CORS with the default configuration: any origin (decisions §1, browsers and caches).
 */
@ServerTest
class CorsTest extends HeraldServerTest {

    private final Http1Client client;

    CorsTest(Http1Client client) {
        this.client = client;
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
                .header(HeaderNames.ACCESS_CONTROL_REQUEST_HEADERS, "content-type, authorization")
                .request()) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
            assertThat(header(response, "Access-Control-Allow-Origin"), is("*"));
            assertThat(header(response, "Access-Control-Allow-Methods"), is("GET, HEAD, POST, OPTIONS"));
            assertThat(header(response, "Access-Control-Allow-Headers"), is("Content-Type, Authorization"));
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

    static String header(Http1ClientResponse response, String name) {
        return response.headers().first(HeaderNames.create(name)).orElseThrow(() -> new AssertionError("no " + name));
    }
}
