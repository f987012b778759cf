package dev.herald.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#errors: a failure of ours is a 500 with the surface's body and nothing else: no SQL,
 * no class name, no stack trace. Provoked on H2 by taking the tables away from under the service.
 */
@ServerTest
class InternalErrorTest extends HeraldServerTest {

    private static final HeaderName NOSNIFF = HeaderNames.create("X-Content-Type-Options");

    private final Http1Client client;

    InternalErrorTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void failuresOfOursAnswer500WithoutInternals() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Notification notification = herald.notification(project).save();
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE interactions RENAME TO interactions_gone");
            statement.execute("ALTER TABLE notifications RENAME TO notifications_gone");
        }

        try (Http1ClientResponse response = client.get("/api/v1/public/" + key.key() + "/notifications").request()) {
            assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
            assertThat(response.headers().contentType().orElseThrow().mediaType().text(), is("application/json"));
            assertThat(response.as(String.class), is("{\"error\":\"Internal server error\",\"code\":\"INTERNAL_ERROR\"}"));
            assertThat(response.headers().first(NOSNIFF).orElseThrow(), is("nosniff"));
        }
        for (String path : List.of("/api/v1/public/track/" + notification.id(),
                                   "/api/v1/public/track/" + notification.id() + "/enhanced")) {
            try (Http1ClientResponse response = client.post(path)
                    .header(HeaderNames.CONTENT_TYPE, "application/json").submit("{\"type\":\"click\"}")) {
                assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
                assertThat(response.as(String.class), is("{\"message\":\"Internal server error\",\"code\":\"INTERNAL_ERROR\"}"));
                assertThat(response.headers().first(NOSNIFF).orElseThrow(), is("nosniff"));
            }
        }
        try (Http1ClientResponse response = client.get("/api/v1/admin/projects/" + project.id() + "/notifications")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN).request()) {
            assertThat(response.status(), is(Status.INTERNAL_SERVER_ERROR_500));
            assertThat(response.as(String.class), is("{\"error\":\"Internal server error\",\"code\":\"INTERNAL_ERROR\"}"));
            assertThat(response.headers().first(NOSNIFF).orElseThrow(), is("nosniff"));
            assertThat(response.headers().first(HeaderNames.CACHE_CONTROL).orElseThrow(), is("no-store"));
        }
    }
}
