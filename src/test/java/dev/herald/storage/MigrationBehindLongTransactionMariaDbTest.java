package dev.herald.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;

import dev.herald.config.HeraldConfig;
import dev.herald.support.LoggerLines;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

/**
 * docs/operations.md#long-transactions-during-a-migration: during a rolling upgrade, migration 31's DROP INDEX on
 * interactions waited for the metadata lock behind a transaction that had read the table (a backup's dump, an
 * analyst's session), and every insert of the instances still serving queued behind it until that transaction ended.
 * Now the migration waits without queueing, says for what, and goes on once the transaction ends.
 */
@RequiresMariaDb
class MigrationBehindLongTransactionMariaDbTest {

    /** What the previous version's group commit waits for a batch before it answers 500. */
    private static final long BATCH_WAIT_MILLIS = 1_500;
    /** A click takes far less, unless something holds it up. */
    private static final long CLICK_AT_MOST_MILLIS = 1_000;

    /**
     * A backup's dump, open for a while when the upgrade starts, has read interactions: the migration waits for it
     * without holding up a single write, names it, and goes on once it commits.
     */
    @Test
    void aMigrationWaitsForALongTransactionWithoutHoldingUpWriters() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            migrateBehindTransaction(database, database.username(), database.password(), 1_500, CLICK_AT_MOST_MILLIS,
                                     MigrationBehindLongTransactionMariaDbTest::waitingFor);
        }
    }

    /**
     * A transaction begun the moment the migration starts is not yet one the migration sees as open: it may try once
     * with the short lock wait, holding writes up for a second at most, then sees it and waits without holding them up.
     */
    @Test
    void aTransactionBegunAsTheMigrationStartsHoldsWritersUpLessThanABatchWaits() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb()) {
            migrateBehindTransaction(database, database.username(), database.password(), 0, BATCH_WAIT_MILLIS,
                                     MigrationBehindLongTransactionMariaDbTest::waitingFor);
        }
    }

    /**
     * Herald's user as the README creates it has no PROCESS privilege: the migration cannot name the transaction, and
     * says so; its tries that wait, a second each at most, keep every write under what a batch waits.
     */
    @Test
    void aUserWithTheReadmesGrantsWaitsTooSayingItCannotNameTheTransaction() throws Exception {
        String user = "herald_" + Long.toString(System.nanoTime(), 36);
        try (TestDatabase database = TestDatabase.mariadb();
             Connection administrator = TestDatabase.mariadbAdministrator();
             Statement statement = administrator.createStatement()) {
            String name = database.url().substring(database.url().lastIndexOf('/') + 1);
            try {
                statement.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'not-a-secret-1'");
                // README.md, Production.
                statement.execute("GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, DROP ON " + name
                                          + ".* TO '" + user + "'@'%'");
                migrateBehindTransaction(database, user, "not-a-secret-1", 1_500, BATCH_WAIT_MILLIS, thread ->
                        allOf("Schema migration 31 (", "cannot name (this database user lacks the PROCESS privilege",
                              "keep serving", "SHOW PROCESSLIST"));
            } finally {
                statement.execute("DROP USER IF EXISTS '" + user + "'@'%'");
            }
        }
    }

    private static void migrateBehindTransaction(TestDatabase database, String user, String password,
                                                 long openBeforeMillis, long writeAtMostMillis,
                                                 LongFunction<org.hamcrest.Matcher<String>> waitingFor)
            throws Exception {
        try (LoggerLines log = new LoggerLines("dev.herald.storage")) {
            start(database, database.username(), database.password()).close();
            atSchema30(database);
            try (Connection backup = database.connect(); Connection writer = database.connect()) {
                long backupThread = threadId(backup);
                try (Statement statement = writer.createStatement()) {
                    // So that a write held up fails in a few seconds rather than waiting for the backup.
                    statement.execute("SET SESSION lock_wait_timeout = 5");
                }
                backup.setAutoCommit(false);
                try (Statement statement = backup.createStatement()) {
                    statement.executeQuery("SELECT COUNT(*) FROM interactions").close();
                }
                Thread.sleep(openBeforeMillis);
                CompletableFuture<DbClient> started = CompletableFuture.supplyAsync(() -> start(database, user,
                                                                                                 password));
                try {
                    List<String> slowWrites = new ArrayList<>();
                    int click = 0;
                    while (!saysItWaits(log) && !ddlWaits(database) && !started.isDone()) {
                        slowWrites.addAll(slowWrite(writer, click++, writeAtMostMillis));
                        Thread.sleep(50);
                    }
                    // Three seconds of clicks at least, and until the line naming the transaction (once the
                    // migration sees it as open: within two seconds of its first statement).
                    long atLeast = System.currentTimeMillis() + 3_000;
                    long atMost = System.currentTimeMillis() + 15_000;
                    while (System.currentTimeMillis() < atLeast
                            || !says(log, waitingFor.apply(backupThread)) && System.currentTimeMillis() < atMost) {
                        slowWrites.addAll(slowWrite(writer, click++, writeAtMostMillis));
                        Thread.sleep(100);
                    }
                    assertThat("writes to interactions held up by the migration", slowWrites, is(empty()));
                    assertThat("waits while the transaction is open", started.isDone(), is(false));
                    assertThat(log.lines(), hasItem(waitingFor.apply(backupThread)));
                } finally {
                    backup.commit();
                }
                started.get(20, TimeUnit.SECONDS).close();
            }
            assertThat("migration 31 applied", count(database, "SELECT COUNT(*) FROM schema_migrations"
                    + " WHERE version = 31"), is(1L));
            assertThat("its index dropped", count(database, "SELECT COUNT(*) FROM information_schema.STATISTICS"
                    + " WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME = 'idx_interactions_notification'"), is(0L));
            assertThat(log.lines(), hasItem(allOf("Schema migration 31 (", "of waiting; migrating on")));
            assertThat("one line each, no stack trace", log.lines().stream()
                    .filter(line -> line.contains("\n")).toList(), is(empty()));
        }
    }

    /** Migration 31 undone: the index it drops is back, and it is not recorded. */
    private static void atSchema30(TestDatabase database) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE INDEX idx_interactions_notification ON interactions (notification_id,"
                                      + " occurred_at, type)");
            statement.execute("DELETE FROM schema_migrations WHERE version = 31");
        }
    }

    /** The line a waiting migration says: which one, what it waits for, that the others serve, what to do. */
    private static org.hamcrest.Matcher<String> waitingFor(long thread) {
        return allOf("Schema migration 31 (", "thread " + thread + " (", "keep serving", "KILL " + thread);
    }

    private static boolean says(LoggerLines log, org.hamcrest.Matcher<String> line) {
        return log.lines().stream().anyMatch(line::matches);
    }

    private static boolean saysItWaits(LoggerLines log) {
        return log.lines().stream().anyMatch(line -> line.contains("Schema migration 31 ("));
    }

    /** Migration 31's DDL seen in the server's process list: waiting for its lock, as it did without a bound. */
    private static boolean ddlWaits(TestDatabase database) throws SQLException {
        return count(database, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = DATABASE()"
                + " AND INFO LIKE 'DROP INDEX%idx_interactions_notification%'") > 0;
    }

    /** One click as an instance of the previous version writes it: empty if it took less than {@code atMostMillis}. */
    private static List<String> slowWrite(Connection writer, int click, long atMostMillis) {
        long startedAt = System.nanoTime();
        String outcome;
        try (Statement statement = writer.createStatement()) {
            statement.execute("INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at,"
                                      + " endpoint) VALUES ('n1', 'p', 'click', " + click + ", 0, 'simple')");
            outcome = "written";
        } catch (SQLException e) {
            outcome = "failed: " + e.getMessage();
        }
        long millis = (System.nanoTime() - startedAt) / 1_000_000;
        return millis < atMostMillis ? List.of() : List.of("click " + click + " " + outcome + " after "
                + millis + " ms");
    }

    private static org.hamcrest.Matcher<String> allOf(String... parts) {
        List<org.hamcrest.Matcher<? super String>> each = new ArrayList<>();
        for (String part : parts) {
            each.add(containsString(part));
        }
        return org.hamcrest.Matchers.allOf(each);
    }

    private static long threadId(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT CONNECTION_ID()")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static long count(TestDatabase database, String sql) throws SQLException {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static DbClient start(TestDatabase database, String user, String password) {
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "db.connection.url", database.url(),
                "db.connection.username", user,
                "db.connection.password", password))));
        return Database.open(config.get("db"), Clock.systemUTC()).client();
    }
}
