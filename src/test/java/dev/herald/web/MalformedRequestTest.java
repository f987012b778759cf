package dev.herald.web;

import java.net.URI;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#errors: every error body is application/json, including requests Helidon refuses before any route runs.
 */
@ServerTest
class MalformedRequestTest extends HeraldServerTest {

    private final URI uri;

    MalformedRequestTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "GET /api/v1/public/x HTTP/1.1",                                     // no Host
            "GET /api/v1/public/x HTTP/1.1\r\nHost: x\r\nHost: y",               // two Hosts
            "POST /api/v1/public/track/a HTTP/1.1\r\nHost: x\r\nContent-Length: many",
            "GET /api/v1/public/x?a=%zz HTTP/1.1\r\nHost: x"})
    void requestsRefusedBeforeRoutingGetAJsonBody(String head) throws Exception {
        RawHttp.Response response = RawHttp.exchange(uri, head);
        assertThat(head, response.status(), is(400));
        assertThat(head, response.headers().get("content-type"), is("application/json"));
        JsonObject body = JsonBodies.object(response.body());
        assertThat(body.getString("code"), is("BAD_REQUEST"));
        // docs/api.md#errors: the tracking endpoints' errors say "message", all others "error".
        String field = head.contains("/track/") ? "message" : "error";
        assertThat(body.getString(field), is("Bad Request"));
    }
}
