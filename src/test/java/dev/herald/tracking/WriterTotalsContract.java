package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.storage.Transactions;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The writers of two instances add to daily total rows of their own (migration 9): on a Galera cluster, writers on
 * two nodes that changed one row met at certification and a batch failed after its retries. Stats add them up.
 */
abstract class WriterTotalsContract {

    abstract TestDatabase database();

    @Test
    void twoInstancesAddToRowsOfTheirOwnThatStatsAddUp() throws Exception {
        TestDatabase database = database();
        TestHerald second = null;
        try (TestHerald first = TestHerald.start(database)) {
            second = TestHerald.start(database);
            var notification = first.notification(first.project()).save();
            long now = TestHerald.START.toEpochMilli();
            Interaction click = new Interaction(notification.id(), notification.projectId(), InteractionType.CLICK,
                                                now, now, TrackingEndpoint.SIMPLE, null, "en");
            for (TestHerald instance : List.of(first, second, first)) {
                InteractionStore store = new InteractionStore(instance.serving(), instance.services().outbox(),
                                                          instance.services().clock());
                Transactions.run(instance.serving().pool(), connection ->
                        store.write(connection, 0, List.of(click, click)));
            }
            assertThat("rows of one total: one per store", totalRows(database, notification.id()), is(3L));
            assertThat(totalOf(database, notification.id()), is(6L));
        } finally {
            if (second != null) {
                second.stop();
            }
        }
    }

    /** Two transactions in flight on one instance never wait for each other's lock on a total: lanes have rows apart. */
    @Test
    void twoLanesOfOneInstanceAddToRowsOfTheirOwn() throws Exception {
        TestDatabase database = database();
        try (TestHerald instance = TestHerald.start(database)) {
            var notification = instance.notification(instance.project()).save();
            long now = TestHerald.START.toEpochMilli();
            Interaction click = new Interaction(notification.id(), notification.projectId(), InteractionType.CLICK,
                                                now, now, TrackingEndpoint.SIMPLE, null, "en");
            InteractionStore store = new InteractionStore(instance.serving(), instance.services().outbox(),
                                                          instance.services().clock());
            for (int lane : new int[] {0, 1, 0}) {
                Transactions.run(instance.serving().pool(), connection -> store.write(connection, lane, List.of(click)));
            }
            assertThat("rows of one total: one per lane", totalRows(database, notification.id()), is(2L));
            assertThat(totalOf(database, notification.id()), is(3L));
        }
    }

    /**
     * Two instances store one event id at once: the second (two copies in its batch) waits at the first's key, fails
     * on it once the first commits, and is written again without the interaction, which the look-up now finds
     * (EventIds). Without the key, both would have stored it; counting repeats at each attempt counted 3.
     */
    @Test
    void anEventIdThatAnotherInstanceCommitsMeanwhileIsStoredOnce() throws Exception {
        TestDatabase database = database();
        TestHerald second = null;
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (TestHerald first = TestHerald.start(database)) {
            second = TestHerald.start(database);
            var notification = first.notification(first.project()).save();
            long now = TestHerald.START.toEpochMilli();
            Interaction click = new Interaction(notification.id(), notification.projectId(), InteractionType.CLICK,
                                                now, now, TrackingEndpoint.SIMPLE, null, null, "en", "order-7");
            InteractionStore firstStore = new InteractionStore(first.serving(), first.services().outbox(),
                                                               first.services().clock());
            InteractionStore secondStore = new InteractionStore(second.serving(), second.services().outbox(),
                                                                second.services().clock());
            Future<?> secondWrite;
            try (Connection held = first.serving().pool().connection()) {
                held.setAutoCommit(false);
                firstStore.write(held, 0, List.of(click));
                TestHerald secondInstance = second;
                secondWrite = other.submit(() -> {
                    Transactions.run(secondInstance.serving().pool(),
                                     connection -> secondStore.write(connection, 0, List.of(click, click)));
                    return null;
                });
                // Long enough for the second's look-up and insert to reach the held key; short of any lock time-out.
                Thread.sleep(300);
                held.commit();
            }
            secondWrite.get(30, TimeUnit.SECONDS);
            assertThat(totalOf(database, notification.id()), is(1L));
            assertThat(single(database, "SELECT COUNT(*) FROM interactions WHERE notification_id = ?",
                              notification.id()), is(1L));
            assertThat("each copy counted once, not again at the batch's second attempt", secondStore.repeatedEvents(),
                       is(2L));
        } finally {
            other.shutdownNow();
            if (second != null) {
                second.stop();
            }
        }
    }

    private static long totalRows(TestDatabase database, String notificationId) throws SQLException {
        return single(database, "SELECT COUNT(*) FROM interaction_daily_totals WHERE notification_id = ?", notificationId);
    }

    private static long totalOf(TestDatabase database, String notificationId) throws SQLException {
        return single(database, "SELECT SUM(total) FROM interaction_daily_totals WHERE notification_id = ?", notificationId);
    }

    private static long single(TestDatabase database, String sql, String notificationId) throws SQLException {
        try (Connection connection = database.connect(); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, notificationId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
