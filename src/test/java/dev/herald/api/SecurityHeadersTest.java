package dev.herald.api;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.observe.ObserveSettings;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * {@code X-Content-Type-Options: nosniff} on every answer, and {@code Cache-Control: no-store} on every answer of
 * the management API: whoever answers (a handler, a filter, the error mapping, a route fallback, Helidon before
 * routing) and whatever the status. Raw requests show the headers exactly as sent.
 */
@ServerTest
class SecurityHeadersTest extends HeraldServerTest {

    private static final HeaderName CONTENT_TYPE_OPTIONS = HeaderNames.create("X-Content-Type-Options");
    private static final int RATE_LIMIT = 30;
    private static final String TOKEN = "Authorization: Bearer " + AdminClient.TOKEN;

    private final Http1Client client;
    private final URI uri;
    private final URI observe;
    private Project project;
    private ApiKey key;
    private Notification notification;

    SecurityHeadersTest(Http1Client client, URI uri, @Socket(ObserveSettings.SOCKET) URI observe) {
        this.client = client;
        this.uri = uri;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                      "rate-limit.requests", String.valueOf(RATE_LIMIT)));
    }

    /** Every test starts with a fresh rate-limit window for every client. */
    @BeforeEach
    void freshWindowAndData() {
        herald.clock().advance(Duration.ofMinutes(2));
        project = herald.project();
        key = herald.key(project);
        notification = herald.notification(project).save();
    }

    static Stream<Arguments> publicAndOtherAnswers() {
        return Stream.of(
                Arguments.of("GET /api/v1/public/{key}/notifications", "", 200),
                Arguments.of("HEAD /api/v1/public/{key}/notifications", "", 200),
                Arguments.of("GET /api/v1/public/" + "k".repeat(40) + "/notifications", "", 401),
                Arguments.of("GET /api/v1/public/notifications", "", 401),
                Arguments.of("DELETE /api/v1/public/{key}/notifications", "", 405),
                Arguments.of("POST /api/v1/public/track/{id}\r\nContent-Type: application/json", "{\"type\":\"click\"}", 204),
                Arguments.of("POST /api/v1/public/track/{id}/enhanced\r\nContent-Type: text/plain", "{\"type\":\"click\"}", 204),
                Arguments.of("POST /api/v1/public/track/bad.id\r\nContent-Type: application/json", "{\"type\":\"click\"}", 400),
                Arguments.of("POST /api/v1/public/track/{id}/enhanced\r\nContent-Type: application/json",
                             "{\"type\":\"click\",\"timestamp\":\"2000-01-01T00:00:00Z\"}", 400),
                Arguments.of("POST /api/v1/public/track/{id}\r\nContent-Type: application/xml", "<click/>", 415),
                Arguments.of("POST /api/v1/public/track/{id}\r\nContent-Type: application/json",
                             "{\"type\":\"click\",\"pad\":\"" + "x".repeat(70_000) + "\"}", 413),
                Arguments.of("POST /api/v1/public/track/nope\r\nContent-Type: application/json", "{\"type\":\"click\"}", 404),
                Arguments.of("OPTIONS /api/v1/public/track/{id}\r\nOrigin: https://app.example\r\n"
                                     + "Access-Control-Request-Method: POST", "", 204),
                Arguments.of("GET /api/v1/public/unknown/path", "", 404),
                Arguments.of("GET /observe/health", "", 200),
                Arguments.of("GET /observe/health/live", "", 200),
                Arguments.of("GET /observe/metrics", "", 200),
                Arguments.of("POST /observe/metrics\r\nContent-Type: application/json", "{}", 405),
                Arguments.of("GET /openapi", "", 200),
                Arguments.of("GET /elsewhere", "", 404),
                Arguments.of("GET /", "", 303));
    }

    @ParameterizedTest
    @MethodSource("publicAndOtherAnswers")
    void everyAnswerSaysNosniff(String requestLineAndHeaders, String body, int status) throws IOException {
        RawHttp.Response response = raw(requestLineAndHeaders, body);
        assertThat(requestLineAndHeaders, response.status(), is(status));
        assertThat(requestLineAndHeaders, response.headers().get("x-content-type-options"), is("nosniff"));
        assertThat("only the management API says no-store", response.headers().get("cache-control"),
                   is(requestLineAndHeaders.contains("/notifications") && status == 200 ? "no-cache"
                           : requestLineAndHeaders.startsWith("GET /observe/") ? "no-store" : null));
    }

    static Stream<Arguments> managementAnswers() {
        return Stream.of(
                Arguments.of("GET /api/v1/admin/projects\r\n" + TOKEN, "", 200),
                Arguments.of("HEAD /api/v1/admin/projects\r\n" + TOKEN, "", 200),
                Arguments.of("HEAD /api/v1/admin/projects/{project}/export/interactions\r\n" + TOKEN, "", 405),
                Arguments.of("GET /api/v1/admin/projects/{project}/api-keys\r\n" + TOKEN, "", 200),
                Arguments.of("POST /api/v1/admin/projects\r\nContent-Type: application/json\r\n" + TOKEN,
                             "{\"name\":\"p\"}", 201),
                Arguments.of("DELETE /api/v1/admin/api-keys/{key}\r\n" + TOKEN, "", 204),
                Arguments.of("POST /api/v1/admin/projects/{project}/notifications\r\nContent-Type: application/json\r\n"
                                     + TOKEN, "{\"message\":\"m\",\"image\":\"javascript:alert(1)\"}", 400),
                Arguments.of("POST /api/v1/admin/projects\r\nContent-Type: text/plain\r\n" + TOKEN, "x", 415),
                Arguments.of("GET /api/v1/admin/notifications/nope\r\n" + TOKEN, "", 404),
                Arguments.of("GET /api/v1/admin/no/such/route\r\n" + TOKEN, "", 404),
                Arguments.of("PUT /api/v1/admin/projects\r\nContent-Type: application/json\r\n" + TOKEN, "{}", 405),
                Arguments.of("OPTIONS /api/v1/admin/projects\r\nOrigin: https://app.example\r\n" + TOKEN, "", 405),
                Arguments.of("GET /api/v1/admin/projects", "", 401),
                Arguments.of("GET /api/v1/admin/projects\r\nAuthorization: Bearer wrong", "", 401),
                Arguments.of("GET /api/v1/admin/projects/{project}/stats?from=yesterday\r\n" + TOKEN, "", 400),
                Arguments.of("GET /api/v1/admin/projects?a=%zz\r\n" + TOKEN, "", 400));
    }

    @ParameterizedTest
    @MethodSource("managementAnswers")
    void everyManagementAnswerSaysNoStoreAndNosniff(String requestLineAndHeaders, String body, int status)
            throws IOException {
        RawHttp.Response response = raw(requestLineAndHeaders, body);
        assertThat(requestLineAndHeaders, response.status(), is(status));
        assertThat(requestLineAndHeaders, response.headers().get("x-content-type-options"), is("nosniff"));
        assertThat(requestLineAndHeaders, response.headers().get("cache-control"), is("no-store"));
    }

    @Test
    void aNotModifiedFeedSaysNosniff() {
        String etag;
        try (Http1ClientResponse response = client.get(feed()).request()) {
            etag = response.headers().first(HeaderNames.ETAG).orElseThrow();
            assertThat(response.headers().first(CONTENT_TYPE_OPTIONS).orElseThrow(), is("nosniff"));
        }
        try (Http1ClientResponse response = client.get(feed()).header(HeaderNames.IF_NONE_MATCH, etag).request()) {
            assertThat(response.status().code(), is(304));
            assertThat(response.headers().first(CONTENT_TYPE_OPTIONS).orElseThrow(), is("nosniff"));
            assertThat(response.headers().first(HeaderNames.CACHE_CONTROL).orElseThrow(), is("no-cache"));
        }
    }

    @Test
    void theRateLimitsAnswerSaysNosniff() throws IOException {
        InetAddress client = InetAddress.getByName("127.0.0.41");
        RawHttp.Response response;
        int sent = 0;
        do {
            response = RawHttp.exchange(uri, client, "GET " + feed() + " HTTP/1.1\r\nHost: x", new byte[0]);
        } while (response.status() != 429 && ++sent <= RATE_LIMIT);
        assertThat(response.status(), is(429));
        assertThat(response.headers().get("x-content-type-options"), is("nosniff"));
        assertThat(response.headers().get("cache-control"), is(nullValue()));
    }

    @Test
    void requestsRefusedBeforeRoutingSayNosniffAndNoStore() throws IOException {
        for (String head : new String[] {"GET /api/v1/admin/projects HTTP/1.1",
                "POST /api/v1/public/track/a HTTP/1.1\r\nHost: x\r\nContent-Length: many"}) {
            RawHttp.Response response = RawHttp.exchange(uri, head);
            assertThat(head, response.status(), is(400));
            assertThat(head, response.headers().get("x-content-type-options"), is("nosniff"));
            assertThat(head, response.headers().get("cache-control"), is("no-store"));
        }
    }

    @Test
    void clientsSeeTheHeadersOnPublicAndManagementAnswers() {
        AdminClient admin = new AdminClient(client);
        for (Http1ClientRequest request : new Http1ClientRequest[] {
                client.get("/api/v1/admin/projects").header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN),
                client.get("/api/v1/admin/projects"),
                AdminClient.request(client, Method.GET, "/api/v1/admin/projects/" + project.id() + "/stats?to=x")
                        .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)}) {
            try (Http1ClientResponse response = request.request()) {
                assertThat(response.headers().first(CONTENT_TYPE_OPTIONS).orElseThrow(), is("nosniff"));
                assertThat(response.headers().first(HeaderNames.CACHE_CONTROL).orElseThrow(), is("no-store"));
            }
        }
        assertThat(admin.call(Method.GET, "/projects").status(), is(200));
        try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notification.id())
                .header(HeaderNames.CONTENT_TYPE, "application/json").submit("{\"type\":\"click\"}")) {
            assertThat(response.status().code(), is(204));
            assertThat(response.headers().first(CONTENT_TYPE_OPTIONS).orElseThrow(), is("nosniff"));
            assertThat(response.headers().contains(HeaderNames.CACHE_CONTROL), is(false));
        }
    }

    private RawHttp.Response raw(String requestLineAndHeaders, String body) throws IOException {
        String resolved = requestLineAndHeaders.replace("{key}", key.key()).replace("{id}", notification.id())
                .replace("{project}", project.id());
        int lineEnd = resolved.indexOf("\r\n");
        String requestLine = lineEnd < 0 ? resolved : resolved.substring(0, lineEnd);
        String headers = lineEnd < 0 ? "" : resolved.substring(lineEnd);
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        // Health, metrics and the OpenAPI document are served on the operations listener.
        String path = requestLine.substring(requestLine.indexOf(' ') + 1);
        URI server = path.startsWith("/observe/") || path.equals("/openapi") ? observe : uri;
        return RawHttp.exchange(server, requestLine + " HTTP/1.1\r\nHost: x" + headers
                + (content.length > 0 ? "\r\nContent-Length: " + content.length : ""), content);
    }

    private String feed() {
        return "/api/v1/public/" + key.key() + "/notifications";
    }
}
