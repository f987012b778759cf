package dev.herald.userstate;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;

import dev.herald.support.AdminClient;
import dev.herald.support.ChildHerald;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/**
 * Two Herald processes on one MariaDB write the same user's state of the same notifications at the same moments
 * (docs/behaviour.md#per-user-state): every write is answered 204 (a lost race to insert a row is run again, never a
 * 500), and both instances then answer the same state, every state set.
 */
@RequiresMariaDb
@ServerTest
class TwoInstancesUserStateMariaDbTest extends HeraldServerTest {

    private static final int ROUNDS = 40;
    private static final List<String> STATES = List.of("seen", "read", "dismissed", "archived");

    @TempDir
    static Path directory;
    private static TestDatabase database;
    private static ChildHerald other;

    private final Http1Client client;
    private final AdminClient admin;

    TwoInstancesUserStateMariaDbTest(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        database = TestDatabase.mariadb();
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @BeforeAll
    static void startOther() throws Exception {
        other = ChildHerald.start(directory.resolve("b"), ChildHerald.onDatabase(database));
    }

    @AfterAll
    static void stopOther() throws Exception {
        other.close();
    }

    @Test
    void concurrentWritesThroughTwoInstancesNeverFailAndEndTheSame() throws Exception {
        // The other instance runs on the real clock: tokens must be valid on both.
        herald.clock().set(Instant.now());
        String project = admin.created("/projects", "{\"name\":\"shared users\"}").getString("id");
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(admin.created("/projects/" + project + "/notifications",
                                  "{\"message\":\"n" + i + "\",\"status\":\"PUBLISHED\"}").getString("id"));
        }
        String token = UserTokenMint.create(admin, project).token("shared-user", Instant.now());
        Http1Client b = Http1Client.builder().baseUri("http://127.0.0.1:" + other.port()).build();
        String path = "/api/v1/public/" + key + "/users/me/state";
        awaitSameFeed(b, path, token);

        String events = ids.stream()
                .flatMap(id -> STATES.stream().map(state -> "{\"notificationId\":\"" + id + "\",\"state\":\""
                        + state + "\"}"))
                .collect(Collectors.joining(",", "{\"events\":[", "]}"));
        ExecutorService writers = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                for (Http1Client instance : List.of(client, b)) {
                    answers.add(writers.submit(() -> post(instance, path, token, events)));
                    answers.add(writers.submit(() -> post(instance, "/api/v1/public/" + key + "/users/me/read-all",
                                                          token, "{\"ids\":[\"" + String.join("\",\"", ids) + "\"]}")));
                }
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
            assertThat(statuses, everyItem(is(204)));
        } finally {
            writers.shutdown();
        }

        JsonObject onA = JsonBodies.object(get(client, path, token));
        JsonObject onB = JsonBodies.object(get(b, path, token));
        assertThat(onB, is(onA));
        for (String id : ids) {
            JsonObject state = onA.getJsonObject("notifications").getJsonObject(id);
            for (String instant : List.of("seenAt", "readAt", "dismissedAt", "archivedAt")) {
                assertThat(id + " " + instant, state.get(instant), not(is(JsonValue.NULL)));
            }
        }
    }

    /** Until the other instance verifies the token and shows the same feed (its change log's bound). */
    private void awaitSameFeed(Http1Client b, String path, String token) throws InterruptedException {
        String feedTag = JsonBodies.object(get(client, path, token)).getString("feedTag");
        long started = System.nanoTime();
        while (true) {
            try (Http1ClientResponse response = b.get(path).header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                    .request()) {
                if (response.status().code() == 200
                        && JsonBodies.object(response.as(String.class)).getString("feedTag").equals(feedTag)) {
                    return;
                }
            }
            assertThat(Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(10)));
            Thread.sleep(50);
        }
    }

    private static int post(Http1Client instance, String path, String token, String body) {
        try (Http1ClientResponse response = instance.post(path)
                .header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit(body)) {
            return response.status().code();
        }
    }

    private static String get(Http1Client instance, String path, String token) {
        try (Http1ClientResponse response = instance.get(path).header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .request()) {
            assertThat(response.status().code(), is(200));
            return response.as(String.class);
        }
    }
}
