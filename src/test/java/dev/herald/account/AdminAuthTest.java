package dev.herald.account;

import java.util.Map;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#authentication: bearer tokens from admin.tokens, 401 for a missing or wrong one, and no CORS on the
 * management API. Failed attempts are not throttled here (a high admin.auth-failures.limit):
 * {@link AdminAuthFailuresTest} is about that.
 */
@ServerTest
class AdminAuthTest extends HeraldServerTest {

    private static final String FIRST = "first-token-0123456789abcdefghijklmn";
    private static final String SECOND = "second-token-0123456789abcdefghijklm";

    private final Http1Client client;

    AdminAuthTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of(
                "admin.tokens.0", FIRST,
                "admin.tokens.1", SECOND,
                "admin.auth-failures.limit", "1000"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer " + FIRST, "Bearer " + SECOND, "bearer " + FIRST, "BEARER  " + SECOND + " "})
    void anyConfiguredTokenIsAccepted(String authorization) {
        try (Http1ClientResponse response = client.get("/api/v1/admin/projects")
                .header(HeaderNames.AUTHORIZATION, authorization).request()) {
            assertThat(response.status(), is(Status.OK_200));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Bearer", "Bearer ", "Bearer " + FIRST + "x", "Bearer first-token-0123456789abcdefghijklm",
            "Basic Zmlyc3QtdG9rZW4=", FIRST, "Bearer FIRST-TOKEN-0123456789ABCDEFGHIJKLMN"})
    void aMissingOrWrongTokenIs401(String authorization) {
        var request = client.get("/api/v1/admin/projects");
        if (!authorization.isEmpty()) {
            request.header(HeaderNames.AUTHORIZATION, authorization);
        }
        try (Http1ClientResponse response = request.request()) {
            assertThat(authorization, response.status(), is(Status.UNAUTHORIZED_401));
            assertThat(response.as(String.class), is("{\"error\":\"Unauthorized\",\"code\":\"UNAUTHORIZED\"}"));
            assertThat(response.headers().first(HeaderNames.WWW_AUTHENTICATE).orElseThrow(), is("Bearer"));
        }
    }

    @Test
    void unknownManagementRoutesAskForTheTokenFirst() {
        try (Http1ClientResponse response = client.get("/api/v1/admin/nothing").request()) {
            assertThat(response.status(), is(Status.UNAUTHORIZED_401));
        }
        try (Http1ClientResponse response = client.get("/api/v1/admin/nothing")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + FIRST).request()) {
            assertThat(response.status(), is(Status.NOT_FOUND_404));
            assertThat(response.as(String.class), is("{\"error\":\"Not found\",\"code\":\"NOT_FOUND\"}"));
        }
    }

    @Test
    void theManagementApiSendsNoCorsHeadersNorThePublicRateLimitsHeaders() {
        try (Http1ClientResponse response = client.get("/api/v1/admin/projects")
                .header(HeaderNames.ORIGIN, "https://app.example")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + FIRST).request()) {
            assertThat(response.headers().contains(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN), is(false));
            assertThat(response.headers().contains(HeaderNames.create("RateLimit-Limit")), is(false));
        }
    }
}
