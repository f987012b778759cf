package dev.herald.wire;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Request targets in authority form ({@code GET host:80}, meant for CONNECT) were a 500 with a stack trace in the log,
 * for anyone, on both listeners (an outside test): the filters read a path Helidon leaves null for them.
 */
@ServerTest
class RequestTargetFormsTest extends HeraldServerTest {

    private final URI uri;

    RequestTargetFormsTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of());
    }

    @Test
    void aTargetInAuthorityFormIsTheClientsErrorNeverOurs() throws IOException {
        for (String line : List.of("GET evil.example:80", "OPTIONS evil.example:80", "POST evil.example:80",
                                   "CONNECT evil.example:80", "GET evil.example:80/x")) {
            RawHttp.Response answer = RawHttp.exchange(uri, line + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
                                                            + "Connection: close", new byte[0]);
            assertThat(line, answer.status(), lessThan(500));
            assertThat(line, JsonBodies.object(answer.body()).containsKey("code"), is(true));
        }
    }
}
