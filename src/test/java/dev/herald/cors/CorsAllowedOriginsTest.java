package dev.herald.cors;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static dev.herald.cors.CorsTest.header;
import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * CORS with {@code cors.allowed-origins} listing origins: only those are allowed, and answers vary by Origin.
 */
@ServerTest
class CorsAllowedOriginsTest extends HeraldServerTest {

    private final Http1Client client;

    CorsAllowedOriginsTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of(
                "cors.allowed-origins.0", "https://app.example",
                "cors.allowed-origins.1", "https://admin.example",
                "admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void aListedOriginIsEchoed() {
        try (Http1ClientResponse response = client.get("/api/v1/public/nothing")
                .header(HeaderNames.ORIGIN, "https://admin.example").request()) {
            assertThat(header(response, "Access-Control-Allow-Origin"), is("https://admin.example"));
            assertThat(header(response, "Vary"), is("Origin"));
        }
    }

    @Test
    void anyOtherOriginIsNotAllowed() {
        for (Method method : new Method[] {Method.GET, Method.OPTIONS}) {
            try (Http1ClientResponse response = client.method(method).path("/api/v1/public/track/x")
                    .header(HeaderNames.ORIGIN, "https://evil.example")
                    .header(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD, "POST")
                    .request()) {
                assertThat(response.headers().contains(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN), is(false));
                assertThat(header(response, "Vary"), is("Origin"));
            }
        }
        try (Http1ClientResponse response = client.method(Method.OPTIONS).path("/api/v1/public/track/x")
                .header(HeaderNames.ORIGIN, "https://app.example")
                .header(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD, "POST")
                .request()) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
            assertThat(header(response, "Access-Control-Allow-Origin"), is("https://app.example"));
        }
    }

    /** The feed varies by language too (docs/api.md#languages): its Vary names both, so no cache drops either. */
    @Test
    void theFeedVariesByOriginAndLanguage() {
        String key = herald.key(herald.project()).key();
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.ORIGIN, "https://app.example").request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().all(HeaderNames.VARY, java.util.List::of).stream()
                               .flatMap(value -> java.util.Arrays.stream(value.split(",")).map(String::strip)).toList(),
                       is(java.util.List.of("Origin", "Accept-Language")));
        }
    }

    /**
     * The state of a user's feed varies by Origin too, on 200, 304 and HEAD: its route set Vary: Authorization in
     * place of the CORS filter's Vary: Origin, so a browser's cache could hand one allowed origin's answer to another.
     */
    @Test
    void aUsersStateVariesByOriginTokenAndLanguage() {
        herald.clock().set(START);
        dev.herald.project.Project project = herald.project();
        String key = herald.key(project).key();
        String token = UserTokenMint.create(new AdminClient(client), project.id()).token("alice", START);
        String tag = null;
        for (Method method : new Method[] {Method.GET, Method.GET, Method.HEAD}) {
            var request = client.method(method).path("/api/v1/public/" + key + "/users/me/state")
                    .header(HeaderNames.ORIGIN, "https://app.example")
                    .header(HeaderNames.AUTHORIZATION, "Bearer " + token);
            if (tag != null) {
                request.header(HeaderNames.IF_NONE_MATCH, tag);
            }
            try (Http1ClientResponse response = request.request()) {
                assertThat(response.status(), is(tag == null ? Status.OK_200 : Status.NOT_MODIFIED_304));
                assertThat(method + " " + response.status(), response.headers().all(HeaderNames.VARY, List::of).stream()
                                   .flatMap(value -> Arrays.stream(value.split(",")).map(String::strip)).toList(),
                           is(List.of("Origin", "Authorization", "Accept-Language")));
                tag = response.headers().first(HeaderNames.ETAG).orElseThrow();
            }
        }
    }
}
