package dev.herald.account;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#authentication: with no admin token configured, every management route answers 403, whatever is
 * presented. No token is compared, so nothing counts as a failed authentication: twelve requests from one address, more
 * than admin.auth-failures.limit (10), are all 403.
 */
@ServerTest
class AdminWithoutTokensTest extends HeraldServerTest {

    private final Http1Client client;

    AdminWithoutTokensTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/projects", "/projects/x/api-keys", "/api-keys/x", "/nothing"})
    void everyRouteIsForbidden(String path) {
        for (String authorization : new String[] {null, "Bearer ", "Bearer anything"}) {
            var request = client.get("/api/v1/admin" + path);
            if (authorization != null) {
                request.header(HeaderNames.AUTHORIZATION, authorization);
            }
            try (Http1ClientResponse response = request.request()) {
                assertThat(response.status(), is(Status.FORBIDDEN_403));
                assertThat(response.as(String.class),
                           is("{\"error\":\"Access denied for this resource\",\"code\":\"FORBIDDEN\"}"));
            }
        }
    }
}
