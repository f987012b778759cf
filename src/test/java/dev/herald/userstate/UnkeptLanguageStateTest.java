package dev.herald.userstate;

import java.util.Map;

import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A state read in a language the feed cache cannot keep gives back what the cache counted for its answer: it did
 * not, so after some 2 MB of such reads (the budget of answers built for one request) every reader of a language not
 * kept was answered in the project's default instead, until a restart.
 */
@ServerTest
class UnkeptLanguageStateTest extends HeraldServerTest {

    private static final int MESSAGE_CHARACTERS = 30_000;

    private final Http1Client client;

    UnkeptLanguageStateTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        // Room for the feed in its own language (some 90 KB), none for its French answer beside it.
        startServer(TestDatabase.h2(), server, Map.of("feed.cache.max-bytes", "150000",
                                                      "admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void stateReadsInALanguageNotKeptLeaveItsReadersTheirLanguage() {
        herald.clock().set(START);
        Project project = herald.project();
        String key = herald.key(project).key();
        AdminClient admin = new AdminClient(client);
        for (int i = 0; i < 3; i++) {
            admin.created("/projects/" + project.id() + "/notifications", "{\"status\":\"PUBLISHED\",\"message\":\""
                    + "x".repeat(MESSAGE_CHARACTERS) + "\",\"translations\":{\"fr\":{\"message\":\""
                    + "y".repeat(MESSAGE_CHARACTERS) + "\"}}}");
        }
        String token = "Bearer " + UserTokenMint.create(admin, project.id()).token("reader", Map.of(), "fr", START);

        for (int read = 0; read < 40; read++) {
            try (Http1ClientResponse state = client.get("/api/v1/public/" + key + "/users/me/state")
                    .header(HeaderNames.AUTHORIZATION, token).request()) {
                assertThat(state.status().code(), is(200));
            }
        }
        try (Http1ClientResponse feed = client.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.AUTHORIZATION, token).request()) {
            assertThat(feed.status().code(), is(200));
            assertThat(feed.headers().first(HeaderNames.CONTENT_LANGUAGE).orElse(null), is("fr"));
        }
    }
}
