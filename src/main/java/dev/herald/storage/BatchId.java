package dev.herald.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * A batch's id, for {@link ExactlyOnceCommit}: the batch writes it in its own transaction, once, by either way. A
 * batch that sends one script puts the id's insert at its head ({@link #sql()}, {@link #bind}), in the same round
 * trip (a statement of its own cost every group commit a round trip: a quarter of the interaction writer's CPU
 * samples, docs/performance.md); any other inserts it by a statement of its own ({@link #insert}). An attempt
 * that did neither is refused before its commit: it would be committed without the id that makes a retry safe.
 */
public final class BatchId {

    private final CommittedBatches ids;
    private final byte[] id;
    private boolean written;

    BatchId(CommittedBatches ids, byte[] id) {
        this.ids = ids;
        this.id = id;
    }

    /** The insert of the id, with its two parameters, to head a script: bind them with {@link #bind}. */
    public String sql() {
        return ids.insertSql();
    }

    /** Binds the insert of {@link #sql()} from parameter {@code first} on; returns the next parameter's index. */
    public int bind(PreparedStatement statement, int first) throws SQLException {
        ids.bindInsert(statement, first, id);
        written = true;
        return first + CommittedBatches.INSERT_PARAMETERS;
    }

    /**
     * Inserts the id by a statement of its own.
     *
     * @throws SQLException as the insert fails: a duplicate key when an earlier attempt of the batch was committed
     */
    public void insert(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(ids.insertSql())) {
            bind(statement, 1);
            statement.executeUpdate();
        }
    }

    /** @throws IllegalStateException when the attempt did not write the id */
    void requireWritten() {
        if (!written) {
            throw new IllegalStateException("A batch was about to be committed without its id: not written once");
        }
    }
}
