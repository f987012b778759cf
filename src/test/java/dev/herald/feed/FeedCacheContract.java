package dev.herald.feed;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.apikey.OrderBy;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonArray;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * The feed answered from memory is exactly the feed the database gives: to the millisecond when a date passes,
 * and on the next request after any management write. Each test also shows that the answer before the change was
 * a hit, so none of them passes merely because nothing was cached. Run against each database by a subclass.
 */
abstract class FeedCacheContract extends HeraldServerTest {

    /** Small bounds, so that the eviction test fills them. */
    static final int MAX_KEYS = 10;
    static final int MAX_BYTES = 4096;

    private final Http1Client client;
    private final AdminClient admin;

    FeedCacheContract(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    static void startCached(TestDatabase database, WebServerConfig.Builder server) {
        // A long bound: the log is read rarely, so a slow machine never makes an answer stale in the middle of a
        // test; this instance's own writes reach its caches at once whatever the bound.
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN, "feed.cache.max-staleness", "PT30S",
                                             "feed.cache.max-keys", String.valueOf(MAX_KEYS),
                                             "feed.cache.max-bytes", String.valueOf(MAX_BYTES)));
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    @Test
    void aFutureNotificationAppearsAtTheMillisecondItStarts() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Instant start = START.plusSeconds(3600);
        Notification future = herald.notification(project).start(start).save();

        herald.clock().set(start.minusMillis(1));
        assertThat(ids(key), is(empty()));
        assertHit(key, List.of());
        herald.clock().set(start);
        assertThat(ids(key), contains(future.id()));
    }

    @Test
    void aCurrentNotificationIsGoneTheMillisecondAfterItEnds() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Instant end = START.plusSeconds(60);
        Notification current = herald.notification(project).end(end).save();

        herald.clock().set(end);
        assertThat("the end is inclusive", ids(key), contains(current.id()));
        assertHit(key, List.of(current.id()));
        herald.clock().set(end.plusMillis(1));
        assertThat(ids(key), is(empty()));
    }

    @Test
    void keysThatShowPastAndFutureKeepTheirAnswerAcrossBothDates() {
        Project project = herald.project();
        ApiKey everything = herald.key(project, true, true, OrderBy.DEFAULT);
        ApiKey pastOnly = herald.key(project, true, false, OrderBy.DEFAULT);
        ApiKey futureOnly = herald.key(project, false, true, OrderBy.DEFAULT);
        Notification later = herald.notification(project).start(START.plusSeconds(10)).end(START.plusSeconds(20)).save();

        assertThat(ids(everything), contains(later.id()));
        assertThat(ids(pastOnly), is(empty()));
        assertThat(ids(futureOnly), contains(later.id()));
        herald.clock().set(START.plusSeconds(10));
        assertHit(everything, List.of(later.id()));
        assertThat("appears when it starts", ids(pastOnly), contains(later.id()));
        herald.clock().set(START.plusSeconds(20).plusMillis(1));
        assertHit(everything, List.of(later.id()));
        assertThat(ids(pastOnly), contains(later.id()));
        assertThat("gone when it has ended", ids(futureOnly), is(empty()));
    }

    @Test
    void aNotificationCreatedThroughTheApiShowsOnTheNextRequest() {
        String[] projectAndKey = projectWithKey();
        assertHit(projectAndKey[1], List.of());
        String id = publish(projectAndKey[0]);
        assertThat(ids(projectAndKey[1]), contains(id));
    }

    @Test
    void anUpdateAStatusChangeAndADeletionShowOnTheNextRequest() {
        String[] projectAndKey = projectWithKey();
        String id = publish(projectAndKey[0]);
        assertHit(projectAndKey[1], List.of(id));

        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"preset\":\"banner\"}").status(), is(200));
        assertThat(feed(projectAndKey[1]).get(0).asJsonObject().getString("preset"), is("banner"));
        assertHit(projectAndKey[1], List.of(id));

        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"ARCHIVED\"}").status(), is(200));
        assertThat(ids(projectAndKey[1]), is(empty()));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}").status(), is(200));
        assertThat(ids(projectAndKey[1]), contains(id));
        assertHit(projectAndKey[1], List.of(id));

        assertThat(admin.call(Method.DELETE, "/notifications/" + id).status(), is(204));
        assertThat(ids(projectAndKey[1]), is(empty()));
    }

    @Test
    void keySettingsANewKeyAndARevocationShowOnTheNextRequest() {
        String[] projectAndKey = projectWithKey();
        String project = projectAndKey[0];
        String key = projectAndKey[1];
        String past = admin.created("/projects/" + project + "/notifications", """
                {"message":"old","status":"PUBLISHED","endDate":"2026-11-01T00:00:00.000Z"}""").getString("id");
        assertHit(key, List.of());

        assertThat(admin.call(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}").status(), is(200));
        assertThat(ids(key), contains(past));

        String second = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        assertThat("a new key works at once", ids(second), is(empty()));

        assertThat(admin.call(Method.DELETE, "/api-keys/" + key).status(), is(204));
        assertThat(status(key), is(401));
        assertThat("the other key of the project still works", status(second), is(200));
    }

    @Test
    void theCacheKeepsAtMostItsKeysAndBytesDroppingTheLeastRecentlyUsed() {
        Project project = herald.project();
        herald.notification(project).save();
        List<ApiKey> keys = new ArrayList<>();
        for (int i = 0; i <= MAX_KEYS; i++) {
            keys.add(herald.key(project));
        }
        for (int i = 0; i < MAX_KEYS; i++) {
            ids(keys.get(i));
        }
        ids(keys.get(0));
        long missesBefore = herald.services().feed().cacheFigures().misses();
        ids(keys.get(MAX_KEYS));

        FeedCacheFigures figures = herald.services().feed().cacheFigures();
        assertThat(figures.keys() <= MAX_KEYS, is(true));
        assertThat(figures.bytes(), lessThanOrEqualTo((long) MAX_BYTES));
        assertHit(keys.get(0).key(), null);
        assertThat("the least recently used was dropped", missesAfter(keys.get(1)), is(missesBefore + 2));
    }

    @Test
    void anAnswerLargerThanTheByteBoundIsServedButNotKept() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).message("\"" + "x".repeat(MAX_BYTES) + "\"").save();
        long misses = herald.services().feed().cacheFigures().misses();
        assertThat(ids(key).size(), is(1));
        assertThat(ids(key).size(), is(1));
        assertThat(herald.services().feed().cacheFigures().misses(), is(misses + 2));
    }

    @Test
    void unknownKeysAreNeverKept() {
        int before = herald.services().feed().cacheFigures().keys();
        for (int i = 0; i < 50; i++) {
            assertThat(status("Unknown0123456789Unknown0123456789" + String.format("%06d", i)), is(401));
        }
        assertThat(herald.services().feed().cacheFigures().keys(), is(before));
    }

    /**
     * The key's answer has these ids (null: whatever they are) and is held in memory: of two requests, the second
     * is answered from memory with the same ids.
     */
    private void assertHit(String key, List<String> expectedIds) {
        List<String> first = ids(key);
        long hits = herald.services().feed().cacheFigures().hits();
        List<String> second = ids(key);
        assertThat(second, is(first));
        if (expectedIds != null) {
            assertThat(second, is(expectedIds));
        }
        assertThat("answered from memory", herald.services().feed().cacheFigures().hits(), is(hits + 1));
    }

    private void assertHit(ApiKey key, List<String> expectedIds) {
        assertHit(key.key(), expectedIds);
    }

    private long missesAfter(ApiKey key) {
        ids(key);
        return herald.services().feed().cacheFigures().misses();
    }

    private String[] projectWithKey() {
        String project = admin.created("/projects", "{\"name\":\"cached\"}").getString("id");
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        return new String[] {project, key};
    }

    private String publish(String project) {
        return admin.created("/projects/" + project + "/notifications",
                             "{\"message\":\"hello\",\"status\":\"PUBLISHED\"}").getString("id");
    }

    private List<String> ids(ApiKey key) {
        return ids(key.key());
    }

    private List<String> ids(String key) {
        return feed(key).stream().map(value -> value.asJsonObject().getString("id")).toList();
    }

    private JsonArray feed(String key) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status().code(), is(200));
            return JsonBodies.array(response.as(String.class));
        }
    }

    private int status(String key) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.ACCEPT, "application/json").request()) {
            return response.status().code();
        }
    }
}
