package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import dev.herald.notification.Notification;
import dev.herald.support.HeraldServerTest;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;

import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * Raw interactions past tracking.retention.raw-days are deleted, oldest first by key range, and the daily totals,
 * which every stat reads, keep every count (issue 20: interactions were never pruned).
 */
abstract class RetentionContract extends HeraldServerTest {

    private final Http1Client client;

    RetentionContract(Http1Client client) {
        this.client = client;
    }

    @Test
    void rawInteractionsPastTheirDaysGoAndTheDailyTotalsStay() throws SQLException {
        Notification notification = herald.notification(herald.project()).save();
        herald.clock().set(START.minus(Duration.ofDays(31)));
        for (int i = 0; i < 10; i++) {
            assertThat(track(notification.id()), is(204));
        }
        herald.clock().set(START.minus(Duration.ofDays(29)));
        for (int i = 0; i < 4; i++) {
            assertThat(track(notification.id()), is(204));
        }
        herald.clock().set(START);
        assertThat(herald.interactions(notification.id()), hasSize(14));
        assertThat(total(notification.id()), is(14L));

        // Batches of 3: the ten old rows take four statements, the fourth stops at the first young one.
        InteractionRetention retention = new InteractionRetention(
                herald.serving().client(), new RetentionSettings(30, Duration.ofHours(1), 3, Duration.ZERO),
                Duration.ofDays(31), herald.clock());
        assertThat(retention.prune(), is(10L));
        assertThat(herald.interactions(notification.id()), hasSize(4));
        assertThat("the totals keep every count", total(notification.id()), is(14L));
        assertThat("nothing more to delete", retention.prune(), is(0L));
    }

    /**
     * Event ids are kept for the timestamp window's length, then deleted whatever raw-days says (here 0: keep
     * every interaction): a project that tracks with ids would otherwise keep a row for each interaction for ever.
     */
    @Test
    void eventIdsPastTheirKeepGoAndTheirInteractionsStay() throws SQLException {
        Notification notification = herald.notification(herald.project()).save();
        herald.clock().set(START.minus(Duration.ofDays(32)));
        assertThat(track(notification.id(), "{\"type\":\"click\",\"eventId\":\"old\"}"), is(204));
        herald.clock().set(START.minus(Duration.ofDays(30)));
        assertThat(track(notification.id(), "{\"type\":\"click\",\"eventId\":\"young\"}"), is(204));
        herald.clock().set(START);

        InteractionRetention retention = new InteractionRetention(
                herald.serving().client(), new RetentionSettings(0, Duration.ofHours(1), 1, Duration.ZERO),
                Duration.ofDays(31), herald.clock());
        assertThat(retention.pruneEventIds(), is(1L));
        assertThat("nothing more to delete", retention.pruneEventIds(), is(0L));

        assertThat(track(notification.id(), "{\"type\":\"click\",\"eventId\":\"young\"}"), is(204));
        assertThat(herald.interactions(notification.id()), hasSize(2));
        assertThat("a forgotten id is a new event", track(notification.id(),
                   "{\"type\":\"click\",\"eventId\":\"old\"}"), is(204));
        assertThat(herald.interactions(notification.id()), hasSize(3));
    }

    private long total(String notificationId) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement sum = connection.prepareStatement(
                     "SELECT SUM(total) FROM interaction_daily_totals WHERE notification_id = ?")) {
            sum.setString(1, notificationId);
            try (ResultSet row = sum.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private int track(String id) {
        return track(id, "{\"type\":\"click\"}");
    }

    private int track(String id, String body) {
        try (var response = client.post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit(body)) {
            return response.status().code();
        }
    }
}
