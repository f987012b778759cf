package dev.herald.observe;

import java.net.URI;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.is;

/**
 * Health, metrics and the OpenAPI document live on a listener of their own: no spelling of their paths reaches
 * them through the public port, and the API is not served on theirs.
 */
@ServerTest
class OperationsListenerTest extends HeraldServerTest {

    private final URI publicPort;
    private final URI operationsPort;

    OperationsListenerTest(URI publicPort, @Socket(ObserveSettings.SOCKET) URI operationsPort) {
        this.publicPort = publicPort;
        this.operationsPort = operationsPort;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/observe/health/live", "/observe/health/ready", "/observe/health", "/observe/metrics",
            "/openapi", "/;x/observe/metrics", "/observe;x=1/metrics", "/%6fbserve/metrics", "//observe/metrics",
            "/openapi;x", "/OBSERVE/metrics", "/observe/metrics/", "/./observe/metrics", "/a/../observe/metrics",
            "/observe%2fmetrics", "/api/v1/public/../../observe/metrics"})
    void noSpellingOfAnOperationsPathIsServedOnThePublicPort(String path) throws Exception {
        RawHttp.Response answer = RawHttp.exchange(publicPort, "GET " + path + " HTTP/1.1\r\nHost: x");
        assertThat(path, answer.status(), anyOf(is(404), is(400)));
        assertThat(path, JsonBodies.object(answer.body()).containsKey("code"), is(true));
    }

    @Test
    void theOperationsPortServesHealthMetricsAndTheDocument() throws Exception {
        for (String path : new String[] {"/observe/health/live", "/observe/health/ready", "/observe/metrics", "/openapi"}) {
            RawHttp.Response answer = RawHttp.exchange(operationsPort, "GET " + path + " HTTP/1.1\r\nHost: x");
            assertThat(path, answer.status(), is(200));
        }
    }

    @Test
    void theApiIsNotServedOnTheOperationsPort() throws Exception {
        String key = herald.key(herald.project()).key();
        RawHttp.Response answer = RawHttp.exchange(operationsPort, "GET /api/v1/public/" + key
                + "/notifications HTTP/1.1\r\nHost: x");
        assertThat(answer.status(), is(404));
        RawHttp.Response onPublic = RawHttp.exchange(publicPort, "GET /api/v1/public/" + key
                + "/notifications HTTP/1.1\r\nHost: x");
        assertThat(onPublic.status(), is(200));
    }
}
