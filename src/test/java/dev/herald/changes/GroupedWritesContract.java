package dev.herald.changes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import dev.herald.config.HeraldConfig;
import dev.herald.storage.Database;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.instanceOf;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Management writes that wait while another is committed are committed together in the next turn, each its own
 * change in the order they came; one that fails on its own fails alone; one no turn took in time never runs.
 * On a real database, through a real ChangeLog.
 */
abstract class GroupedWritesContract {

    /** Short, so that writes waiting one turn each would be refused: ten of 200 ms take 2 s. */
    private static final Duration TURN_WAIT = Duration.ofSeconds(1);

    private TestDatabase database;
    private DbClient db;
    private ChangeLog changes;
    private final CountDownLatch firstStarted = new CountDownLatch(1);
    private final CountDownLatch releaseFirst = new CountDownLatch(1);

    abstract TestDatabase database();

    @BeforeEach
    void open() {
        database = database();
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "db.connection.url", database.url(),
                "db.connection.username", database.username(),
                "db.connection.password", database.password()))));
        db = Database.open(config.get("db"), Clock.systemUTC()).client();
        changes = new ChangeLog(db, Clock.systemUTC(), Duration.ofSeconds(1), TURN_WAIT);
    }

    @AfterEach
    void close() throws Exception {
        releaseFirst.countDown();
        db.close();
        database.close();
    }

    @Test
    void writesWaitingBehindASlowOneAreCommittedInOneTurnEachAsItsOwnChange() throws Exception {
        long before = version();
        CompletableFuture<Void> first = writeInBackground("first", this::holdTheTurn);
        firstStarted.await();
        List<CompletableFuture<Void>> queued = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            queued.add(writeInBackground("queued" + i, slowly(Duration.ofMillis(200))));
            awaitWaiting(i + 1);
        }

        releaseFirst.countDown();

        first.get(30, TimeUnit.SECONDS);
        for (CompletableFuture<Void> write : queued) {
            write.get(30, TimeUnit.SECONDS);
        }
        assertThat(projects(), contains("first", "queued0", "queued1", "queued2", "queued3", "queued4", "queued5",
                                        "queued6", "queued7", "queued8", "queued9"));
        assertThat("one change each, in the order they came, no version skipped", changesAfter(before),
                   contains("first", "queued0", "queued1", "queued2", "queued3", "queued4", "queued5",
                            "queued6", "queued7", "queued8", "queued9"));
        assertThat(version(), is(before + 11));
    }

    @Test
    void aWriteThatFailsOnItsOwnFailsAloneAndTheOthersOfItsTurnCommitOnce() throws Exception {
        long before = version();
        CompletableFuture<Void> first = writeInBackground("first", this::holdTheTurn);
        firstStarted.await();
        AtomicInteger runsOfTheOneBefore = new AtomicInteger();
        CompletableFuture<Void> ok1 = writeInBackground("ok1", transaction -> runsOfTheOneBefore.incrementAndGet());
        awaitWaiting(1);
        CompletableFuture<Void> bad = writeInBackground("bad", transaction -> {
            throw new IllegalArgumentException("too large for the feed");
        });
        awaitWaiting(2);
        CompletableFuture<Void> ok2 = writeInBackground("ok2", transaction -> { });
        awaitWaiting(3);

        releaseFirst.countDown();

        first.get(30, TimeUnit.SECONDS);
        ok1.get(30, TimeUnit.SECONDS);
        ok2.get(30, TimeUnit.SECONDS);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> bad.get(30, TimeUnit.SECONDS));
        assertThat("the writer gets its own failure", failure.getCause(), instanceOf(IllegalArgumentException.class));
        assertThat(failure.getCause().getMessage(), is("too large for the feed"));
        assertThat("its row rolled back, the others' committed once", projects(), contains("first", "ok1", "ok2"));
        assertThat("rolled back with it, then run again without it", runsOfTheOneBefore.get(), is(2));
        assertThat(changesAfter(before), contains("first", "ok1", "ok2"));
        assertThat(version(), is(before + 3));
    }

    @Test
    void aWriteNoTurnTookInTimeIsRefusedAndNeverRuns() throws Exception {
        CompletableFuture<Void> first = writeInBackground("first", this::holdTheTurn);
        firstStarted.await();
        AtomicInteger runs = new AtomicInteger();
        CompletableFuture<Void> late = writeInBackground("late", transaction -> runs.incrementAndGet());

        ExecutionException refused = assertThrows(ExecutionException.class, () -> late.get(30, TimeUnit.SECONDS));
        releaseFirst.countDown();
        first.get(30, TimeUnit.SECONDS);

        assertThat(refused.getCause().getMessage(), startsWith("No turn to write within PT1S"));
        assertThat(runs.get(), is(0));
        assertThat(projects(), contains("first"));
        assertThat(changes.waitingWrites(), is(0));
    }

    /** A write of a project row named {@code name}, then {@code more} in the same transaction. */
    private CompletableFuture<Void> writeInBackground(String name, Consumer<DbExecute> more) {
        return CompletableFuture.runAsync(() -> changes.write(Change.ofProject(name), transaction -> {
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)", name, name,
                            System.currentTimeMillis());
            more.accept(transaction);
        }), task -> Thread.ofPlatform().start(task));
    }

    private void holdTheTurn(DbExecute transaction) {
        firstStarted.countDown();
        try {
            releaseFirst.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Consumer<DbExecute> slowly(Duration duration) {
        return transaction -> {
            try {
                Thread.sleep(duration);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    private void awaitWaiting(int count) throws InterruptedException {
        await(() -> changes.waitingWrites() == count);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not so within 10 s");
            }
            Thread.sleep(5);
        }
    }

    private List<String> projects() throws SQLException {
        return strings("SELECT id FROM projects ORDER BY created_at, id");
    }

    private List<String> changesAfter(long version) throws SQLException {
        return strings("SELECT project_id FROM change_log WHERE version > " + version + " ORDER BY version");
    }

    private long version() throws SQLException {
        return Long.parseLong(strings("SELECT version FROM change_counter WHERE id = 1").getFirst());
    }

    private List<String> strings(String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                values.add(rows.getString(1));
            }
        }
        return values;
    }
}
