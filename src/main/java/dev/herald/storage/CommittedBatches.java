package dev.herald.storage;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The ids of committed batches (migration 24), for {@link ExactlyOnceCommit}: a batch's id goes in with its rows, in
 * its transaction, so that a connection that comes after a lost one can tell whether the batch was committed. Kept
 * an hour, far longer than any request waits for its batch; a writer deletes the older ones after a commit, a
 * bounded number at a time, at most once a minute unless it found more than that.
 */
final class CommittedBatches {

    static final Duration KEPT = Duration.ofHours(1);
    private static final int DELETED_AT_ONCE = 1000;
    private static final long PRUNE_EVERY_NANOS = Duration.ofMinutes(1).toNanos();
    private static final SecureRandom IDS = new SecureRandom();

    private final String insert;
    private final String select;
    private final String delete;
    /** When the next prune is due ({@link System#nanoTime()}); the first one a minute after the start. */
    private final AtomicLong nextPrune = new AtomicLong(System.nanoTime() + PRUNE_EVERY_NANOS);

    private CommittedBatches(String insert, String select, String delete) {
        this.insert = insert;
        this.select = select;
        this.delete = delete;
    }

    /** @param settings the {@code db} settings, with this dialect's named statements */
    static CommittedBatches from(Map<String, String> settings) {
        return new CommittedBatches(settings.get("statements.insert-committed-batch"),
                                    settings.get("statements.select-committed-batch"),
                                    settings.get("statements.delete-committed-batches"));
    }

    /** The same statements, with a prune schedule of its own. */
    CommittedBatches another() {
        return new CommittedBatches(insert, select, delete);
    }

    /** 128 random bits: two batches of any instance never share one. */
    static byte[] newId() {
        byte[] id = new byte[16];
        IDS.nextBytes(id);
        return id;
    }

    /** The insert's parameters: the id, then the time it was written. */
    static final int INSERT_PARAMETERS = 2;

    /** The insert of an id ({@link #bindInsert}): a statement of its own, or the head of a batch's script. */
    String insertSql() {
        return insert;
    }

    void bindInsert(PreparedStatement statement, int first, byte[] id) throws SQLException {
        statement.setBytes(first, id);
        statement.setLong(first + 1, System.currentTimeMillis());
    }

    /** Whether the database refused a key that is there already: the id's, if a batch with it was committed. */
    static boolean isDuplicate(SQLException failure) {
        return failure.getSQLState() != null && failure.getSQLState().startsWith("23");
    }

    /** Whether a batch with this id was committed, as far as the connection's node knows ({@code wsrep_sync_wait}). */
    boolean committed(Connection connection, byte[] id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(select)) {
            statement.setBytes(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next();
            }
        }
    }

    /**
     * Deletes ids older than {@link #KEPT} in the connection's own transaction, if due. Called between batches; two
     * instances that prune at once on Galera may conflict, and the loser tries again a minute later.
     *
     * @throws SQLException when the delete failed; rolled back
     */
    void pruneIfDue(Connection connection) throws SQLException {
        long now = System.nanoTime();
        long due = nextPrune.get();
        if (now - due < 0 || !nextPrune.compareAndSet(due, now + PRUNE_EVERY_NANOS)) {
            return;
        }
        if (prune(connection, System.currentTimeMillis() - KEPT.toMillis()) == DELETED_AT_ONCE) {
            // More are waiting: the next batch deletes the next ones.
            nextPrune.set(now);
        }
    }

    /** Deletes up to {@link #DELETED_AT_ONCE} ids committed before {@code before}, oldest first, and commits. */
    int prune(Connection connection, long before) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(delete)) {
            statement.setLong(1, before);
            statement.setInt(2, DELETED_AT_ONCE);
            int deleted = statement.executeUpdate();
            connection.commit();
            return deleted;
        } catch (SQLException e) {
            Transactions.rollbackQuietly(connection, e);
            throw e;
        }
    }
}
