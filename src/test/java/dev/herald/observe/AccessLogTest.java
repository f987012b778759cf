package dev.herald.observe;

import java.net.URI;
import java.util.Map;

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
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * With {@code access-log.enabled}, one line per request with the status the client got, whoever answered, and
 * never the query string. Off by default: {@code HealthTest}.
 */
@ServerTest
class AccessLogTest extends HeraldServerTest {

    private final Http1Client client;
    private final Http1Client observe;
    private final URI uri;

    AccessLogTest(Http1Client client, @Socket(ObserveSettings.SOCKET) Http1Client observe, URI uri) {
        this.client = client;
        this.observe = observe;
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("access-log.enabled", "true",
                                                      "rate-limit.trusted-proxies.0", "127.0.0.1"));
    }

    // Behind a proxy every line named the proxy, though the rate limit saw the client; HTTP/1.0 was logged as 1.1.
    @Test
    void theClientBehindATrustedProxyAndTheRequestsOwnVersionAreLogged() throws Exception {
        try (AccessLog log = new AccessLog();
             Http1ClientResponse response = client.get("/api/v1/public/k/notifications")
                     .header(HeaderNames.X_FORWARDED_FOR, "198.51.100.7").request()) {
            assertThat(response.status(), is(Status.UNAUTHORIZED_401));
            assertOneLine(log, "198\\.51\\.100\\.7 \"GET /api/v1/public/k/notifications HTTP/1\\.1\" 401 \\d+ms");
        }
        try (AccessLog log = new AccessLog()) {
            RawHttp.Response answer = RawHttp.exchange(uri, "GET /observe/health/live HTTP/1.0\r\nHost: x", new byte[0]);
            assertThat(answer.status(), is(404));
            assertOneLine(log, "127\\.0\\.0\\.1 \"GET /observe/health/live HTTP/1\\.0\" 404 \\d+ms");
        }
    }

    @Test
    void aHandlersAnswerIsLogged() throws Exception {
        try (AccessLog log = new AccessLog();
             Http1ClientResponse response = observe.get("/observe/health/live").request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertOneLine(log, "127\\.0\\.0\\.1 \"GET /observe/health/live HTTP/1\\.1\" 200 \\d+ms");
        }
    }

    @Test
    void anErrorMappedAfterTheHandlerIsLoggedWithItsStatusAndWithoutTheQuery() throws Exception {
        try (AccessLog log = new AccessLog();
             Http1ClientResponse response = client.post("/api/v1/public/track/abc")
                     .queryParam("token", "secret")
                     .header(HeaderNames.CONTENT_TYPE, "application/json")
                     .submit("{\"type\":\"nope\"}")) {
            assertThat(response.status(), is(Status.BAD_REQUEST_400));
            assertOneLine(log, "127\\.0\\.0\\.1 \"POST /api/v1/public/track/abc HTTP/1\\.1\" 400 \\d+ms");
        }
    }

    @Test
    void anAnswerOfAFilterIsLogged() throws Exception {
        try (AccessLog log = new AccessLog();
             Http1ClientResponse response = client.get("/api/v1/admin/projects").request()) {
            assertThat(response.status(), is(Status.FORBIDDEN_403));
            assertOneLine(log, "127\\.0\\.0\\.1 \"GET /api/v1/admin/projects HTTP/1\\.1\" 403 \\d+ms");
        }
    }

    private static void assertOneLine(AccessLog log, String pattern) throws InterruptedException {
        assertThat(log.lines(), hasSize(1));
        String line = log.lines().get(0);
        assertThat(line, line.matches(pattern), is(true));
    }
}
