package dev.herald.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;

/**
 * Several transactions of one group commit in flight at once: a deadlock between two of them costs its victim a run
 * again, not a 500, and stores nothing twice; a close waits for every batch in flight before the pool closes. Run
 * against each database by a subclass, on tables of its own.
 */
abstract class GroupCommitLanesContract {

    private static final Duration NO_LINGER = Duration.ZERO;
    private static TestHerald herald;

    abstract TestDatabase database();

    @BeforeAll
    static void noInstanceYet() {
        herald = null;
    }

    @AfterAll
    static void stop() throws Exception {
        if (herald != null) {
            herald.close();
        }
    }

    private TestHerald herald() throws SQLException {
        if (herald == null) {
            herald = TestHerald.start(database());
            execute("CREATE TABLE lane_counters (id VARCHAR(8) PRIMARY KEY, total INT NOT NULL)");
            execute("CREATE TABLE lane_items (item VARCHAR(16) NOT NULL)");
        }
        return herald;
    }

    /**
     * Two batches in flight change two rows in opposite orders, each waiting at a barrier for the other between the
     * two: the database rolls one back as the victim of a deadlock, and it runs again whole once the other
     * committed. Each item is stored once and both added to both rows.
     */
    @Test
    void aDeadlockVictimRunsAgainAndStoresNothingTwice() throws Exception {
        TestHerald herald = herald();
        execute("INSERT INTO lane_counters (id, total) VALUES ('a', 0), ('b', 0)");
        CyclicBarrier bothLocked = new CyclicBarrier(2);
        AtomicInteger attempts = new AtomicInteger();
        GroupCommit<String> writer = new GroupCommit<>(
                "lanes", "herald-lanes-writer", herald.serving().pool(), Map.of(),
                (connection, lane, id, batch) -> {
                    id.insert(connection);
                    int attempt = attempts.incrementAndGet();
                    add(connection, lane == 0 ? "a" : "b");
                    if (attempt <= 2) {
                        awaitQuietly(bothLocked);
                    }
                    add(connection, lane == 0 ? "b" : "a");
                    insertItems(connection, batch);
                },
                new GroupCommit.Settings(NO_LINGER, 1, 100, Duration.ofSeconds(20), 2, 2), item -> 1,
                IllegalStateException::new);
        ExecutorService clients = Executors.newFixedThreadPool(3);
        try {
            // Both lanes write from the start (min-in-flight 2), each waiting for an item: each takes one.
            List<Future<?>> items = List.of(clients.submit(() -> writer.submit("first")),
                                            clients.submit(() -> writer.submit("second")));
            for (Future<?> item : items) {
                item.get(20, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
            writer.close();
        }

        assertThat("two in flight at once", writer.figures().inFlightPeak(), is(2));
        assertThat("the victim ran again", attempts.get(), greaterThan(2));
        assertThat(single("SELECT COUNT(*) FROM lane_items WHERE item IN ('first', 'second')"), is(2L));
        assertThat(single("SELECT COUNT(DISTINCT item) FROM lane_items WHERE item IN ('first', 'second')"), is(2L));
        assertThat(single("SELECT SUM(total) FROM lane_counters"), is(4L));
    }

    /** Stop order: every batch taken is committed and answered before close() returns and the pool closes. */
    @Test
    void closeWaitsForEveryBatchInFlight() throws Exception {
        TestHerald herald = herald();
        int items = 40;
        int lanes = 4;
        Plug plug = new Plug(lanes);
        GroupCommit<String> writer = new GroupCommit<>(
                "drain", "herald-drain-writer", herald.serving().pool(), Map.of(),
                (connection, lane, id, batch) -> {
                    id.insert(connection);
                    if (plug.holds(batch)) {
                        return;
                    }
                    sleep(50);
                    insertItems(connection, batch);
                },
                new GroupCommit.Settings(NO_LINGER, 3, 100, Duration.ofSeconds(20), lanes, lanes), item -> 1,
                IllegalStateException::new);
        ExecutorService clients = Executors.newFixedThreadPool(items + lanes);
        List<Future<?>> submitted = new ArrayList<>();
        try {
            // Every lane held by a plug of its own and every item queued behind them before the close, so that none is
            // refused as Herald stops.
            for (int lane = 0; lane < lanes; lane++) {
                String item = Plug.ITEM + lane;
                submitted.add(clients.submit(() -> writer.submit(item)));
                long held = lanes - lane - 1;
                while (plug.plugged.getCount() > held) {
                    Thread.sleep(1);
                }
            }
            assertThat(plug.plugged.await(10, TimeUnit.SECONDS), is(true));
            for (int i = 0; i < items; i++) {
                String item = "drain-" + i;
                submitted.add(clients.submit(() -> writer.submit(item)));
            }
            while (writer.figures().queued() < items) {
                Thread.sleep(5);
            }
            plug.unplug.countDown();
            while (writer.figures().inFlight() < 2) {
                Thread.sleep(1);
            }
            writer.close();
            assertThat("all committed when close() returns", single("SELECT COUNT(*) FROM lane_items"
                                                                         + " WHERE item LIKE 'drain-%'"), is((long) items));
            for (Future<?> each : submitted) {
                each.get(1, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        assertThat(writer.figures().inFlightPeak(), greaterThan(1));
        assertThat(single("SELECT COUNT(DISTINCT item) FROM lane_items WHERE item LIKE 'drain-%'"), is((long) items));
    }

    /**
     * A request waits at most maxWait for its batch, and without a timeout of its own (a timed wait made the JDK
     * plan and cancel a wake-up per request): the batch being written answers 500 at the deadline, the one queued
     * behind it too, and is then left out, never stored.
     */
    @Test
    void aRequestWaitsUntimedAndIsAnsweredAtMaxWaitThenLeftOut() throws Exception {
        TestHerald herald = herald();
        Duration maxWait = Duration.ofMillis(400);
        Plug plug = new Plug(1);
        GroupCommit<String> writer = new GroupCommit<>(
                "deadline", "herald-deadline-writer", herald.serving().pool(), Map.of(),
                (connection, lane, id, batch) -> {
                    id.insert(connection);
                    if (!plug.holds(batch)) {
                        insertItems(connection, batch);
                    }
                },
                new GroupCommit.Settings(NO_LINGER, 1, 100, maxWait, 1, 1), item -> 1, IllegalStateException::new);
        try {
            long failedBefore = writer.figures().failed();
            Outcome held = Outcome.of(writer, Plug.ITEM + "deadline");
            assertThat(plug.plugged.await(10, TimeUnit.SECONDS), is(true));
            Outcome queued = Outcome.of(writer, "deadline-queued");
            while (writer.figures().queued() < 1 || queued.thread.getState() != Thread.State.WAITING) {
                assertThat("waits without a timeout", queued.thread.getState(), not(Thread.State.TIMED_WAITING));
                Thread.sleep(1);
            }
            assertThat(held.thread.getState(), is(Thread.State.WAITING));
            held.thread.join(Duration.ofSeconds(10));
            queued.thread.join(Duration.ofSeconds(10));
            assertThat(held.refused, is(true));
            assertThat(queued.refused, is(true));
            assertThat("not before maxWait", queued.waitedNanos, greaterThanOrEqualTo(maxWait.toNanos()));
            assertThat("soon after it", queued.waitedNanos, lessThan(maxWait.toNanos() + Duration.ofSeconds(1).toNanos()));
            plug.unplug.countDown();
            Outcome after = Outcome.of(writer, "deadline-after");
            after.thread.join(Duration.ofSeconds(10));
            assertThat(after.refused, is(false));
            assertThat("the queued one left out", single("SELECT COUNT(*) FROM lane_items WHERE item = 'deadline-queued'"),
                       is(0L));
            assertThat(single("SELECT COUNT(*) FROM lane_items WHERE item = 'deadline-after'"), is(1L));
            assertThat("counted failed once: the one left out", writer.figures().failed() - failedBefore, is(1L));
        } finally {
            plug.unplug.countDown();
            writer.close();
        }
    }

    /** One submit on a virtual thread of its own, as a request's. */
    private static final class Outcome {
        private volatile boolean refused;
        private volatile long waitedNanos;
        private Thread thread;

        static Outcome of(GroupCommit<String> writer, String item) {
            Outcome outcome = new Outcome();
            outcome.thread = Thread.ofVirtual().start(() -> {
                long start = System.nanoTime();
                try {
                    writer.submit(item);
                } catch (IllegalStateException e) {
                    outcome.refused = true;
                }
                outcome.waitedNanos = System.nanoTime() - start;
            });
            return outcome;
        }
    }

    /** Items whose batches hold their lanes until unplugged, so that the items after them queue up. */
    private static final class Plug {
        private static final String ITEM = "plug-";
        private final CountDownLatch plugged;
        private final CountDownLatch unplug = new CountDownLatch(1);

        Plug(int lanes) {
            plugged = new CountDownLatch(lanes);
        }

        boolean holds(List<String> batch) {
            if (batch.stream().noneMatch(item -> item.startsWith(ITEM))) {
                return false;
            }
            plugged.countDown();
            await(unplug);
            return true;
        }
    }

    private static void add(Connection connection, String id) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE lane_counters SET total = total + 1 WHERE id = ?")) {
            update.setString(1, id);
            update.executeUpdate();
        }
    }

    private static void insertItems(Connection connection, List<String> batch) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO lane_items (item) VALUES (?)")) {
            for (String item : batch) {
                insert.setString(1, item);
                insert.executeUpdate();
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The other lane may already have been rolled back, and never come: the victim's locks are gone then. */
    private static void awaitQuietly(CyclicBarrier barrier) {
        try {
            barrier.await(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            // on to the second row
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void execute(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static long single(String sql) throws SQLException {
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }
}
