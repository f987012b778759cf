package dev.herald.observe;

import java.net.URI;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * Liveness and readiness on a working database. Readiness while the database is away:
 * {@code DatabaseOutageMariaDbTest}.
 */
@ServerTest
class HealthTest extends HeraldServerTest {

    private final Http1Client client;
    private final URI observe;

    HealthTest(@Socket(ObserveSettings.SOCKET) Http1Client client, @Socket(ObserveSettings.SOCKET) URI observe) {
        this.client = client;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @Test
    void liveSaysUp() {
        try (Http1ClientResponse response = client.get("/observe/health/live").request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().get(HeaderNames.CONTENT_TYPE).get(), is("application/json"));
            assertThat(response.headers().get(HeaderNames.CACHE_CONTROL).get(), is("no-store"));
            assertThat(response.as(String.class), is("{\"status\":\"UP\"}"));
        }
    }

    @Test
    void readyChecksTheDatabase() {
        for (String path : new String[] {"/observe/health/ready", "/observe/health"}) {
            try (Http1ClientResponse response = client.get(path).request()) {
                assertThat(path, response.status(), is(Status.OK_200));
                assertThat(response.as(String.class),
                           is("{\"status\":\"UP\",\"checks\":[{\"name\":\"database\",\"status\":\"UP\"}]}"));
            }
        }
    }

    @Test
    void otherMethodsAreNotAllowed() {
        try (Http1ClientResponse response = client.post("/observe/health/ready").request()) {
            assertThat(response.status(), is(Status.METHOD_NOT_ALLOWED_405));
            assertThat(response.headers().get(HeaderNames.ALLOW).get(), is("GET, HEAD"));
        }
    }

    /**
     * A load balancer's health check may be a HEAD (RFC 9110: a server supports GET and HEAD): the same status and
     * headers, and no content, so the next answer on the connection is read whole.
     */
    @Test
    void headAnswersLikeGetWithoutTheContent() throws Exception {
        for (String path : new String[] {"/observe/health/live", "/observe/health/ready", "/observe/health",
                "/observe/metrics", "/openapi"}) {
            String length;
            try (Http1ClientResponse response = client.get(path).request()) {
                assertThat(path, response.status(), is(Status.OK_200));
                length = String.valueOf(response.as(byte[].class).length);
            }
            RawHttp.Response answers = RawHttp.exchange(observe, "HEAD " + path + " HTTP/1.1\r\nHost: x\r\n\r\n"
                    + "GET /observe/health/live HTTP/1.1\r\nHost: x");
            assertThat(path, answers.status(), is(200));
            if (!path.equals("/observe/metrics")) { // its figures change from one answer to the next
                assertThat(path, answers.headers().get("content-length"), is(length));
            }
            assertThat(path, answers.body(), startsWith("HTTP/1.1 200 "));
        }
    }

    @Test
    void theAccessLogIsOffByDefault() throws Exception {
        try (AccessLog log = new AccessLog();
             Http1ClientResponse response = client.get("/observe/health/live").request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(log.lines().isEmpty(), is(true));
        }
    }

    @Test
    void healthIsNeitherRateLimitedNorAuthenticated() {
        try (Http1ClientResponse response = client.get("/observe/health/live").request()) {
            assertThat(response.headers().contains(HeaderNames.create("RateLimit-Limit")), is(false));
            assertThat(response.headers().contains(HeaderNames.WWW_AUTHENTICATE), is(false));
        }
    }
}
