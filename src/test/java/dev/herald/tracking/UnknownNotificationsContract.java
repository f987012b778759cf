package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;

import dev.herald.admin.Ids;
import dev.herald.changes.Change;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * Tracking for ids no notification has costs no database round trip (issue 20: 6,400 made-up ids a second
 * exhausted the pool, answered 500 and turned readiness to 503): once the ids are loaded, 404 comes from memory, and
 * the database is asked only for the filter's rare "maybe". What exists is still found, whenever it was created.
 */
abstract class UnknownNotificationsContract extends HeraldServerTest {

    private static final int MADE_UP = 2_000;

    private final Http1Client client;

    UnknownNotificationsContract(Http1Client client) {
        this.client = client;
    }

    /** The ids load in the background after start: a made-up id is answered from memory once they are. */
    @BeforeEach
    void idsLoaded() throws InterruptedException {
        long started = System.nanoTime();
        while (true) {
            long before = lookups().fromMemory();
            assertThat(track(Ids.newId()), is(404));
            if (lookups().fromMemory() > before) {
                return;
            }
            assertThat("ids loaded", Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(10)));
            Thread.sleep(10);
        }
    }

    @Test
    void madeUpIdsAreAnswered404FromMemory() {
        LookupFigures before = lookups();
        for (int i = 0; i < MADE_UP; i++) {
            assertThat(track(Ids.newId()), is(404));
        }
        LookupFigures after = lookups();
        // About one made-up id in a thousand is a "maybe" of the filter at this size; 1 in 100 at its capacity.
        assertThat(after.fromDatabase() - before.fromDatabase(), lessThan(MADE_UP / 100L));
        assertThat(after.fromMemory() - before.fromMemory(), greaterThanOrEqualTo(MADE_UP - MADE_UP / 100L));
    }

    @Test
    void whatExistsIsFoundWhateverItsAge() {
        Notification created = herald.notification(herald.project()).save();
        assertThat("created after the ids were loaded", track(created.id()), is(204));
        assertThat("then known", track(created.id()), is(204));
        herald.services().notifications().delete(created, (current, draft) -> { }, gone -> herald.fixture("notification.deleted",
                                                                         created.projectId(), created.id()));
        assertThat("deleted: the filter's maybe, then the database", track(created.id()), is(404));
    }

    /**
     * A rolling upgrade: an instance of an older version announced a created notification by its project alone (a
     * change log row without the id). This instance must still find it: it adds the project's recent ids.
     */
    @Test
    void aNotificationAnnouncedByItsProjectAloneIsFound() throws Exception {
        Project project = herald.project();
        String id = Ids.newId();
        try (Connection connection = herald.database().connect();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at, "
                             + "updated_at) VALUES (?, ?, 'PUBLISHED', 'from an older instance', 'NO_ACTION', "
                             + "'default', ?, ?)")) {
            insert.setString(1, id);
            insert.setString(2, project.id());
            insert.setLong(3, herald.clock().millis());
            insert.setLong(4, herald.clock().millis());
            insert.executeUpdate();
        }
        herald.services().changes().write(Change.ofProject(project.id()), transaction -> { });
        assertThat(track(id), is(204));
    }

    private LookupFigures lookups() {
        return herald.services().tracking().lookupFigures();
    }

    private int track(String id) {
        try (var response = client.post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"impression\"}")) {
            return response.status().code();
        }
    }
}
