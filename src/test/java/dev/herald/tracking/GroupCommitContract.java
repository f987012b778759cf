package dev.herald.tracking;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.herald.notification.Notification;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.KeepAliveConnection;
import dev.herald.support.RawHttp;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/**
 * Tracking by group commit: simultaneous requests share transactions, each is answered 204 only once its batch
 * committed, and a batch that fails answers 500 to every request in it and stores none of them. Run against each
 * database by a subclass.
 */
abstract class GroupCommitContract extends HeraldServerTest {

    private static final int CLIENTS = 32;
    private static final int REQUESTS_EACH = 20;

    private final Http1Client client;
    private final URI uri;

    GroupCommitContract(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
    }

    /** Several transactions in flight at once (their own daily total rows each), every 204 stored once. */
    @Test
    void simultaneousRequestsShareTransactionsSeveralInFlightAndEveryOneIsStoredOnce() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        WriterFigures before = herald.services().tracking().writerFigures();

        List<Integer> statuses = concurrently(CLIENTS, connection -> {
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < REQUESTS_EACH; i++) {
                mine.add(track(connection, notification, i % 2 == 0 ? "impression" : "click"));
            }
            return mine;
        });

        int total = CLIENTS * REQUESTS_EACH;
        assertThat(statuses, everyItem(is(204)));
        assertThat(herald.interactions(notification.id()).size(), is(total));
        assertThat(herald.dailyTotal(notification.id()), is((long) total));
        WriterFigures after = herald.services().tracking().writerFigures();
        assertThat(after.written() - before.written(), is((long) total));
        assertThat("fewer transactions than interactions", after.batches() - before.batches(), lessThan((long) total));
        assertThat("more than one transaction in flight at once", after.inFlightPeak(), greaterThan(1));
    }

    /**
     * The insert fails (its table is gone), or the insert succeeds and the totals' upsert fails after it: either
     * way nothing of the batch is committed (on MariaDB the three statements go in one script, and COMMIT must not
     * run after a failed one).
     */
    @ParameterizedTest
    @ValueSource(strings = {"interactions", "interaction_daily_totals"})
    void aFailedBatchAnswers500ToEveryRequestInItAndStoresNone(String failingTable) throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        assertThat(track(notification, "click"), is(204));
        execute("ALTER TABLE " + failingTable + " RENAME TO " + failingTable + "_away");
        try {
            List<Integer> statuses = concurrently(CLIENTS, connection -> List.of(track(connection, notification, "click")));
            assertThat(statuses, everyItem(is(500)));
        } finally {
            execute("ALTER TABLE " + failingTable + "_away RENAME TO " + failingTable);
        }
        assertThat(herald.interactions(notification.id()).size(), is(1));
        assertThat(herald.dailyTotal(notification.id()), is(1L));
        assertThat("the writer goes on after a failed batch", track(notification, "click"), is(204));
    }

    /** A 204 leaves the connection open: the next request on it is answered too (the body was read to its end). */
    @Test
    void aTrackedInteractionKeepsTheConnectionOpen() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
            for (int i = 0; i < 2; i++) {
                RawHttp.Response answer = connection.postJson("/api/v1/public/track/" + notification.id(),
                                                              "{\"type\":\"click\"}");
                assertThat(answer.status(), is(204));
                assertThat(answer.headers().get("connection"), not("close"));
            }
        }
        assertThat(herald.interactions(notification.id()).size(), is(2));
    }

    private int track(Notification notification, String type) {
        try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notification.id())
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"" + type + "\"}")) {
            // Read to the end, so that the client may reuse the connection for the next request.
            response.entity().consume();
            return response.status().code();
        }
    }

    private static int track(KeepAliveConnection connection, Notification notification, String type)
            throws IOException {
        return connection.postJson("/api/v1/public/track/" + notification.id(), "{\"type\":\"" + type + "\"}").status();
    }

    /** Runs {@code work} on {@code threads} threads at once, each on a connection of its own. */
    private List<Integer> concurrently(int threads, ConnectionWork work) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Integer>>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                futures.add(executor.submit(() -> {
                    try (KeepAliveConnection connection = new KeepAliveConnection(uri)) {
                        return work.run(connection);
                    }
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<List<Integer>> future : futures) {
                statuses.addAll(future.get());
            }
            return statuses;
        } finally {
            executor.shutdownNow();
        }
    }

    private interface ConnectionWork {
        List<Integer> run(KeepAliveConnection connection) throws IOException;
    }


    private static void execute(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
