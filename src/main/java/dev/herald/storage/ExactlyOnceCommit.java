package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.Consumer;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbTransaction;

/**
 * One batch's transaction, committed once however the connection fails (issue 34: a dead database node costs
 * latency, not errors). The batch writes an id of its own in its transaction ({@link CommittedBatches}), and a
 * failure is one of three kinds:
 * <ul>
 *   <li>a known rollback (a deadlock, or a Galera certification failure, which MariaDB reports as one; a key another
 *   transaction took; a lock waited for too long): written again as it is, as {@link Transactions} does;</li>
 *   <li>an unknown outcome: the connection lost during the transaction or its commit ({@code 08xxx}, the driver's
 *   "reconnected, transaction lost" {@code 25S03}, a killed connection), or a node that stopped serving during it
 *   (Galera's {@code WSREP has not yet prepared node}, 1047), or any failure after which the connection is no longer
 *   valid. The connection is discarded, and a fresh one (the multi-host URL moves it to a node that serves) looks the
 *   id up: found, the batch was committed; not found, it is written again under the same id;</li>
 *   <li>anything else (a statement the database refuses): thrown, as before.</li>
 * </ul>
 * It tries until {@code within} has passed, then throws the last failure: the caller answers 500 (more stored than
 * answered is possible then, never the other way round).
 *
 * <p>Never twice: the id is the primary key of {@code committed_batches}, inserted in each attempt's transaction
 * (at the head of its script where the batch sends one, {@link BatchId}). Of the lost attempt and its retry, if both
 * reach the database (the lost one still running on a server that the look-up did not wait for), the second to
 * commit fails on that key: on one server it waits for the first's lock, on Galera it loses certification. A retry
 * whose insert finds the id reports the batch committed.
 */
public final class ExactlyOnceCommit {

    private static final System.Logger LOGGER = System.getLogger(ExactlyOnceCommit.class.getName());

    /**
     * A batch's writes, in the transaction {@link #run(ServingPool, Work, Duration)} commits (or in a script that ends
     * in COMMIT), with its id written once, either way {@link BatchId} offers.
     */
    @FunctionalInterface
    public interface Work {
        void accept(Connection connection, BatchId id) throws SQLException;
    }

    private ExactlyOnceCommit() {
    }

    /**
     * Runs {@code work} (which may commit itself, as a script that ends in COMMIT) with the batch's id in one
     * transaction on a connection of {@code pool} (auto-commit off), and commits it.
     *
     * @param within how long to keep trying from now; a request's deadline
     * @throws SQLException the last failure, when the batch failed for good or not within {@code within}; a
     *                      {@link PoolRefused} when the pool gave no connection in time
     */
    public static void run(ServingPool pool, Work work, Duration within) throws SQLException {
        CommittedBatches ids = pool.committedBatches();
        byte[] id = CommittedBatches.newId();
        long started = System.nanoTime();
        long deadline = started + within.toNanos();
        Exception unknownSince = null;
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = pool.connection()) {
                try {
                    if (unknownSince != null && ids.committed(connection, id)) {
                        connection.rollback();
                        resolved("found committed", attempt, started, unknownSince);
                        return;
                    }
                    BatchId batchId = new BatchId(ids, id);
                    work.accept(connection, batchId);
                    batchId.requireWritten();
                    connection.commit();
                } catch (SQLException | RuntimeException e) {
                    if (!Transactions.rolledBackQuietly(connection, e)) {
                        // What the connection holds is not known to be undone (a Galera node reports an abort's
                        // deadlock again on the rollback after it): never back to the pool, where resetting it to
                        // auto-commit would commit whatever the server ran after the abort.
                        pool.evict(connection);
                    }
                    if (unknownSince != null && writtenBefore(ids, connection, id, e)) {
                        resolved("found committed on writing it again", attempt, started, unknownSince);
                        return;
                    }
                    if (!rolledBack(e)) {
                        if (!outcomeUnknown(connection, e)) {
                            throw e;
                        }
                        pool.evict(connection);
                        unknownSince = unknownSince == null ? e : unknownSince;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                    Transactions.pauseAfter(attempt);
                    continue;
                }
                if (unknownSince != null) {
                    resolved("not committed, written again", attempt, started, unknownSince);
                }
                pruneQuietly(ids, connection);
                return;
            } catch (RuntimeException e) {
                // No connection from the pool (none of the nodes serves yet): nothing was sent.
                if (!(e instanceof PoolRefused) || System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Transactions.pauseAfter(attempt);
            }
        }
    }

    /**
     * After an attempt that failed, whether that was the database refusing the batch's id because an earlier attempt,
     * whose outcome the connection lost, was committed with it. Only asked after such an attempt: a new batch's id is
     * 128 random bits, and a duplicate key then is one of the batch's own rows.
     */
    private static boolean writtenBefore(CommittedBatches ids, Connection connection, byte[] id, Exception failure) {
        if (!(failure instanceof SQLException sql) || !CommittedBatches.isDuplicate(sql)) {
            return false;
        }
        try {
            boolean found = ids.committed(connection, id);
            connection.rollback();
            return found;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Whether the transaction may have been committed although the commit did not say so: the connection failed,
     * or its node stopped serving.
     */
    static boolean outcomeUnknown(Connection connection, Throwable failure) {
        if (LostConnections.lost(failure)) {
            return true;
        }
        try {
            return !connection.isValid(1);
        } catch (SQLException e) {
            return true;
        }
    }

    /**
     * The same for a transaction of the DB Client, {@code work} in it: a management write and the change it records
     * ({@code changes.ChangeLog}), within {@code within}, the turn's own deadline. The id is inserted first by name
     * ({@code insert-committed-batch}); the connection lost is the pool's to replace (HikariCP drops
     * one that failed so).
     */
    public static void run(DbClient db, Duration within, Consumer<DbExecute> work) {
        byte[] id = CommittedBatches.newId();
        long started = System.nanoTime();
        long deadline = started + within.toNanos();
        RuntimeException unknownSince = null;
        for (int attempt = 1; ; attempt++) {
            DbTransaction transaction = null;
            try {
                if (unknownSince != null && db.execute().namedGet("select-committed-batch", id).isPresent()) {
                    resolved("found committed", attempt, started, unknownSince);
                    return;
                }
                transaction = db.transaction();
                transaction.namedInsert("insert-committed-batch", id, System.currentTimeMillis());
                work.accept(transaction);
                transaction.commit();
                if (unknownSince != null) {
                    resolved("not committed, written again", attempt, started, unknownSince);
                }
                return;
            } catch (RuntimeException e) {
                if (transaction != null) {
                    Transactions.rollbackQuietly(transaction, e);
                }
                if (!rolledBack(e)) {
                    if (!LostConnections.lost(e)) {
                        throw e;
                    }
                    unknownSince = unknownSince == null ? e : unknownSince;
                }
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
            }
            Transactions.pauseAfter(attempt);
        }
    }

    /**
     * A failure after which nothing of the attempt stays once it is rolled back, so that it is written again as it
     * is: a conflict ({@link Transactions#isConflict}), or a lock waited for longer than the server allows (1205,
     * SQLSTATE HY000: it undoes the statement only, and the attempt's rollback the rest). A Galera node cut off under
     * load answered one so in cluster/faults.sh.
     */
    private static boolean rolledBack(Throwable failure) {
        return Transactions.isConflict(failure) || Transactions.isLockWaitTimeout(failure);
    }

    private static void pruneQuietly(CommittedBatches ids, Connection connection) {
        try {
            ids.pruneIfDue(connection);
        } catch (SQLException e) {
            LOGGER.log(Level.DEBUG, "Old batch ids not deleted this time: " + e.getMessage());
        }
    }

    private static void resolved(String how, int attempt, long started, Exception unknownSince) {
        LOGGER.log(Level.WARNING, "A batch whose commit's outcome was unknown (" + unknownSince.getMessage() + ") was "
                + how + " at attempt " + attempt + ", " + Duration.ofNanos(System.nanoTime() - started).toMillis()
                + " ms after its first");
    }
}
