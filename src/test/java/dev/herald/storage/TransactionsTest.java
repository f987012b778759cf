package dev.herald.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.herald.config.HeraldConfig;
import dev.herald.support.TestDatabase;

import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbClientException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.both;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A transaction that lost a race for a key runs again, whole and once more at most twice; any other failure is
 * not retried, and a failed attempt leaves nothing behind. On real H2.
 */
class TransactionsTest {

    private TestDatabase database;
    private DbClient db;

    @BeforeEach
    void open() {
        database = TestDatabase.h2();
        db = Database.open(HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "db.connection.url", database.url())))).get("db"), Clock.systemUTC()).client();
        db.execute().dml("INSERT INTO projects (id, name, created_at) VALUES ('taken', 'Taken', 1)");
    }

    @AfterEach
    void close() throws Exception {
        db.close();
        database.close();
    }

    @Test
    void aLostRaceForAKeyRunsAgainAndCommitsOnce() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        Transactions.run(db, transaction -> {
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES ('mine', 'Mine', 1)");
            String id = attempts.incrementAndGet() == 1 ? "taken" : "free";
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES ('" + id + "', 'X', 1)");
        });

        assertThat(attempts.get(), is(2));
        assertThat(projects(), is(3));
    }

    @Test
    void aConflictThatLastsGivesUpAfterFiveSecondsLeavingNothing() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        long started = System.nanoTime();
        assertThrows(DbClientException.class, () -> Transactions.run(db, transaction -> {
            attempts.incrementAndGet();
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES ('mine', 'Mine', 1)");
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES ('taken', 'X', 1)");
        }));
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertThat(millis, greaterThanOrEqualTo(5_000L));
        // Pauses below 8, 16 ... 256 ms: about 25 attempts in 5 s, never one after another.
        assertThat(attempts.get(), both(greaterThan(10)).and(lessThan(200)));
        assertThat(projects(), is(1));
    }

    @Test
    void otherFailuresAreNotRetried() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        assertThrows(DbClientException.class, () -> Transactions.run(db, transaction -> {
            attempts.incrementAndGet();
            transaction.dml("INSERT INTO projects (id, name, created_at) VALUES ('mine', 'Mine', 1)");
            transaction.dml("INSERT INTO no_such_table VALUES (1)");
        }));

        assertThat(attempts.get(), is(1));
        assertThat(projects(), is(1));
    }

    /** On a connection of the caller's (migration 10's): the same, and the connection is in auto-commit again after. */
    @Test
    void onTheCallersConnectionALostRaceRunsAgainAndAutoCommitComesBack() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        try (Connection connection = database.connect()) {
            Transactions.run(connection, c -> {
                try (Statement statement = c.createStatement()) {
                    statement.execute("INSERT INTO projects (id, name, created_at) VALUES ('mine', 'Mine', 1)");
                    String id = attempts.incrementAndGet() == 1 ? "taken" : "free";
                    statement.execute("INSERT INTO projects (id, name, created_at) VALUES ('" + id + "', 'X', 1)");
                }
            });
            assertThat(connection.getAutoCommit(), is(true));
            assertThrows(java.sql.SQLException.class, () -> Transactions.run(connection, c -> {
                try (Statement statement = c.createStatement()) {
                    statement.execute("INSERT INTO projects (id, name, created_at) VALUES ('lost', 'Lost', 1)");
                    statement.execute("INSERT INTO no_such_table VALUES (1)");
                }
            }));
            assertThat(connection.getAutoCommit(), is(true));
        }

        assertThat(attempts.get(), is(2));
        assertThat("mine and free committed once, lost rolled back", projects(), is(3));
    }

    private int projects() throws Exception {
        try (Connection connection = database.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM projects")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
