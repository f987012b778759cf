package dev.herald.userstate;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.herald.api.ApiException;
import dev.herald.logging.FailureLog;
import dev.herald.storage.BatchId;
import dev.herald.storage.GroupCommit;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.Transactions;

import io.helidon.http.Status;

/**
 * Where the state routes hand their writes: {@link #record} returns once they are committed (a 204), and throws when
 * they are not (a 500). One request's writes are one item of a group commit ({@link GroupCommit}, with tracking's
 * batch settings): they are committed together, a "mark all read" in one transaction, with the other requests'
 * writes waiting at the same moment. With {@code tracking.batch.enabled: false}, one transaction per request on its
 * own thread, as tracking does.
 */
final class UserStateWriter implements AutoCloseable {

    private final ServingDatabase database;
    private final StateRows rows;
    private final UserStateEvents events;
    /** This writer's lanes number the sources of its events from here: new at each start, apart from others'. */
    private final int firstLane = java.util.concurrent.ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE - 1024);
    private final GroupCommit<List<StateWrite>> batches;
    private final FailureLog failures = new FailureLog("user state write(s) not stored, answered 500");

    /** @param batching null: one transaction per request, on its own thread */
    UserStateWriter(ServingDatabase database, GroupCommit.Settings batching, UserStateEvents events, Clock clock) {
        this.database = database;
        this.rows = new StateRows(database, clock);
        this.events = events;
        this.batches = batching == null ? null
                : new GroupCommit<>("user-state", "herald-state-writer", database.pool(), Map.of(), this::write,
                                    batching, List::size, UserStateWriter::notStored);
    }

    /** @param writes one request's: committed together */
    void record(List<StateWrite> writes) {
        if (writes.isEmpty()) {
            return;
        }
        if (batches != null) {
            batches.submit(writes);
            return;
        }
        try {
            Transactions.run(database.pool(), connection -> writeWithEvents(connection, 0, writes));
        } catch (SQLException | RuntimeException e) {
            failures.failed(1, e);
            throw notStored();
        }
    }

    /** Every lane writes the same rows: a user's state is one row, and rows are locked in one order (StateRows). */
    private void write(Connection connection, int lane, BatchId id, List<List<StateWrite>> batch) throws SQLException {
        id.insert(connection);
        List<StateWrite> all = new ArrayList<>();
        batch.forEach(all::addAll);
        writeWithEvents(connection, lane, all);
    }

    /** The events of the states reached for the first time, then the rows, in one transaction. */
    private void writeWithEvents(Connection connection, int lane, List<StateWrite> writes) throws SQLException {
        events.write(connection, "user-states:" + (firstLane + lane), StateRows.fold(writes));
        rows.write(connection, writes);
    }

    /** Not committed, or may not be: never a 204. The writer logged why. */
    private static ApiException notStored() {
        return ApiException.error(Status.INTERNAL_SERVER_ERROR_500, "INTERNAL_ERROR", "Internal server error");
    }

    @Override
    public void close() {
        if (batches != null) {
            batches.close();
        }
    }
}
