package dev.herald.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A batch whose statement waited for a lock longer than the server allows (MariaDB 1205, seen on a Galera node cut
 * off under load in cluster/faults.sh) is rolled back whole and written again within its deadline, once: the
 * timeout undoes only the statement, and the whole transaction is rolled back before the next attempt.
 */
@RequiresMariaDb
class LockWaitTimeoutMariaDbTest {

    private static TestHerald herald;

    @BeforeAll
    static void start() {
        herald = TestHerald.start(TestDatabase.mariadb());
    }

    @AfterAll
    static void stop() throws Exception {
        herald.close();
    }

    @Test
    void aBatchThatWaitedTooLongForALockIsWrittenAgainOnce() throws Exception {
        ServingPool serving = herald.serving().pool();
        try (Connection setUp = serving.connection(); Statement statement = setUp.createStatement()) {
            statement.execute("CREATE TABLE lock_probe (id INT NOT NULL PRIMARY KEY, n INT NOT NULL)");
            statement.execute("INSERT INTO lock_probe VALUES (1, 0)");
        }
        ServingPool writers = serving.transactionalPool("lock-probe-writer", 1,
                                                        Map.of("sessionVariables", "innodb_lock_wait_timeout=1"));
        try (Connection holder = serving.connection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.executeQuery("SELECT n FROM lock_probe WHERE id = 1 FOR UPDATE").close();
            }
            Thread release = Thread.ofPlatform().start(() -> releaseAfter(holder, 1_800));
            ExactlyOnceCommit.run(writers, (connection, id) -> {
                id.insert(connection);
                try (Statement update = connection.createStatement()) {
                    update.executeUpdate("UPDATE lock_probe SET n = n + 1 WHERE id = 1");
                }
            }, Duration.ofSeconds(10));
            release.join();
            holder.setAutoCommit(true);
        } finally {
            writers.close();
        }
        try (Connection check = serving.connection(); Statement statement = check.createStatement();
             ResultSet row = statement.executeQuery("SELECT n FROM lock_probe WHERE id = 1")) {
            row.next();
            assertThat("written once", row.getInt(1), is(1));
        }
    }

    private static void releaseAfter(Connection holder, long millis) {
        try {
            Thread.sleep(millis);
            holder.commit();
        } catch (InterruptedException | SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
