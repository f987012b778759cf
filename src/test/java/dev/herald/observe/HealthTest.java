package dev.herald.observe;

import dev.herald.support.HeraldServerTest;
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

/**
 * Liveness and readiness on a working database. Readiness while the database is away:
 * {@code DatabaseOutageMariaDbTest}.
 */
@ServerTest
class HealthTest extends HeraldServerTest {

    private final Http1Client client;

    HealthTest(@Socket(ObserveSettings.SOCKET) Http1Client client) {
        this.client = client;
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
            assertThat(response.headers().get(HeaderNames.ALLOW).get(), is("GET"));
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
