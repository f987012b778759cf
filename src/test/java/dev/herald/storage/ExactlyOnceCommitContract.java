package dev.herald.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A batch's id in its own transaction, written at the head of its script where the database takes scripts: a retry
 * after an attempt whose outcome was lost finds the id that attempt committed meanwhile (its script refused on the
 * id's key) and reports the batch committed, storing nothing twice; an attempt that leaves the id out is never
 * committed. Run against each database by a subclass, on a table of its own.
 */
abstract class ExactlyOnceCommitContract {

    private static TestHerald herald;
    private static ServingPool writers;

    static void start(TestDatabase database) throws SQLException {
        herald = TestHerald.start(database);
        writers = herald.serving().pool().transactionalPool("exactly-once-probe", 1,
                                                             herald.serving().dialect().scriptProperties());
        try (Connection connection = herald.database().connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE once_probe (batch VARCHAR(16) NOT NULL)");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        writers.close();
        herald.close();
    }

    @Test
    void aRetryFindsTheIdALostAttemptCommittedMeanwhileAndStoresNothingTwice() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        ExactlyOnceCommit.run(writers, (connection, id) -> {
            int attempt = attempts.incrementAndGet();
            if (attempt == 1) {
                // What the driver throws when the connection is lost: the commit's outcome is unknown.
                throw new SQLException("Connection reset (a test's)", "08S01");
            }
            if (attempt == 2) {
                // The first attempt, still running on the server, commits now: after the look-up found nothing.
                try (Connection late = herald.serving().pool().connection()) {
                    late.setAutoCommit(false);
                    id.insert(late);
                    insertRow(late, "lost");
                    late.commit();
                    late.setAutoCommit(true);
                }
            }
            write(connection, id, "retry");
        }, Duration.ofSeconds(10));
        assertThat("the look-up, then the retry refused on the id", attempts.get(), is(2));
        assertThat(count("lost"), is(1L));
        assertThat("not stored twice", count("retry"), is(0L));
    }

    @Test
    void aBatchIsWrittenWithItsIdOnce() throws Exception {
        ExactlyOnceCommit.run(writers, (connection, id) -> write(connection, id, "plain"), Duration.ofSeconds(10));
        assertThat(count("plain"), is(1L));
    }

    @Test
    void anAttemptWithoutItsIdIsNeverCommitted() throws Exception {
        assertThrows(IllegalStateException.class, () -> ExactlyOnceCommit.run(
                writers, (connection, id) -> insertRow(connection, "no-id"), Duration.ofSeconds(10)));
        assertThat(count("no-id"), is(0L));
    }

    /** As the interaction writer writes: one script where the database takes them, else a statement each. */
    private static void write(Connection connection, BatchId id, String batch) throws SQLException {
        if (!herald.serving().dialect().takesScripts()) {
            id.insert(connection);
            insertRow(connection, batch);
            return;
        }
        try (PreparedStatement script = connection.prepareStatement(
                id.sql() + ";\nINSERT INTO once_probe (batch) VALUES (?);\nCOMMIT")) {
            script.setString(id.bind(script, 1), batch);
            script.execute();
            while (script.getMoreResults() || script.getUpdateCount() != -1) {
                // every outcome read, so that a later statement's failure is thrown here
            }
        }
    }

    private static void insertRow(Connection connection, String batch) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO once_probe (batch) VALUES (?)")) {
            insert.setString(1, batch);
            insert.executeUpdate();
        }
    }

    private static long count(String batch) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM once_probe WHERE batch = ?")) {
            select.setString(1, batch);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
