package dev.herald.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The ids of committed batches (migration 24, {@link ExactlyOnceCommit}): found once committed, not after a rollback,
 * refused a second time (what keeps a batch from being stored twice), and deleted once older than an hour, the
 * younger ones kept. Run against each database by a subclass.
 */
abstract class CommittedBatchesContract {

    private static TestHerald herald;

    static void start(TestDatabase database) {
        herald = TestHerald.start(database);
    }

    @AfterAll
    static void stop() throws Exception {
        herald.close();
    }

    @Test
    void anIdIsFoundOnceCommittedRefusedTwiceAndDeletedWhenOld() throws Exception {
        ServingPool pool = herald.serving().pool();
        CommittedBatches ids = pool.committedBatches();
        byte[] committed = CommittedBatches.newId();
        byte[] rolledBack = CommittedBatches.newId();
        byte[] old = CommittedBatches.newId();
        long now = System.currentTimeMillis();
        try (Connection connection = pool.connection()) {
            connection.setAutoCommit(false);
            new BatchId(ids, committed).insert(connection);
            connection.commit();
            new BatchId(ids, rolledBack).insert(connection);
            connection.rollback();
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO committed_batches (id, committed_at) VALUES (?, ?)")) {
                insert.setBytes(1, old);
                insert.setLong(2, now - CommittedBatches.KEPT.toMillis() - 1);
                insert.executeUpdate();
            }
            connection.commit();

            assertThat(ids.committed(connection, committed), is(true));
            assertThat(ids.committed(connection, rolledBack), is(false));
            SQLException twice = assertThrows(SQLException.class, () -> new BatchId(ids, committed).insert(connection));
            assertThat("a batch with this id was committed", CommittedBatches.isDuplicate(twice), is(true));
            connection.rollback();

            assertThat(ids.prune(connection, now - CommittedBatches.KEPT.toMillis()), is(1));
            assertThat(ids.committed(connection, old), is(false));
            assertThat(ids.committed(connection, committed), is(true));
            connection.setAutoCommit(true);
        }
    }
}
