package dev.herald.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbTransaction;

/**
 * Runs work in one transaction, committed before {@link #run} returns, and runs it again when the database chose
 * it as the loser of a conflict with another transaction: a deadlock or a lost race to insert the same key (two
 * first interactions of a day, say). Such a loser was rolled back whole, so running it again counts nothing twice.
 *
 * <p>On a Galera cluster a conflict also comes from another node: of two transactions that changed the same row on
 * two nodes, the one certified second fails at its commit (a deadlock error, rolled back whole). Instances write
 * through different nodes for a while after a failover, and every management write changes the change log's
 * counter: bursts of 30 writes through three instances on three nodes had 8 of 90 answered 500 with eight attempts
 * and short pauses, and 1 of 90 with ten on a loaded machine, where the others' writes kept winning (cluster/check.sh).
 * So a loser runs again until 5 s have passed since the first attempt, each time after a random pause below a bound
 * that doubles from 8 ms to 256 ms, so that the losers do not meet again. A failure whose outcome is unknown (the
 * connection lost during the commit) is never run again here: it may have been committed. Group commits and the
 * change log's turns resolve it by an id of their own ({@link ExactlyOnceCommit}).
 */
public final class Transactions {

    /** Conflicts are run again for this long; a 500 after it, as with a database that does not answer. */
    private static final long RETRY_WITHIN_NANOS = 5_000_000_000L;
    private static final long FIRST_PAUSE_MILLIS = 8;
    private static final long LONGEST_PAUSE_MILLIS = 256;
    /** MariaDB: ER_LOCK_WAIT_TIMEOUT. */
    private static final int LOCK_WAIT_TIMEOUT = 1205;

    private Transactions() {
    }

    public static void run(DbClient db, Consumer<DbExecute> work) {
        run(db, RETRY_WITHIN_NANOS, work);
    }

    /**
     * The same, running conflicts again for as long as {@code retryWithin}: a turn of grouped management writes
     * (changes.GroupedWrites) is one transaction for many writers, and on three Galera nodes it lost to the others'
     * turns for more than 5 s once in a CI run (1 of 90 answered 500, the others within 7.6 s).
     */
    public static void run(DbClient db, Duration retryWithin, Consumer<DbExecute> work) {
        run(db, retryWithin.toNanos(), work);
    }

    private static void run(DbClient db, long retryWithinNanos, Consumer<DbExecute> work) {
        long started = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            DbTransaction transaction = db.transaction();
            try {
                work.accept(transaction);
                transaction.commit();
                return;
            } catch (RuntimeException e) {
                rollbackQuietly(transaction, e);
                if (!isConflict(e) || System.nanoTime() - started > retryWithinNanos) {
                    throw e;
                }
            }
            pauseAfter(attempt);
        }
    }

    /** Work on a plain JDBC connection, inside a transaction that {@link #run(ServingPool, JdbcWork)} commits. */
    @FunctionalInterface
    public interface JdbcWork {
        void accept(Connection connection) throws SQLException;
    }

    /** The same on a plain JDBC connection of the serving pool, for writers that batch. */
    public static void run(ServingPool pool, JdbcWork work) throws SQLException {
        long started = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            // A connection per attempt, back in the pool during the pause; HikariCP sets auto-commit back.
            try (Connection connection = pool.connection()) {
                connection.setAutoCommit(false);
                if (committed(connection, work, started)) {
                    return;
                }
            }
            pauseAfter(attempt);
        }
    }

    /**
     * The same on a connection of the caller's, as migrations hold one: in auto-commit mode before and after, one
     * transaction for the work meanwhile.
     */
    public static void run(Connection connection, JdbcWork work) throws SQLException {
        long started = System.nanoTime();
        connection.setAutoCommit(false);
        try {
            for (int attempt = 1; !committed(connection, work, started); attempt++) {
                pauseAfter(attempt);
            }
        } finally {
            connection.setAutoCommit(true);
        }
    }

    /** One attempt: true once committed, false when it lost a race worth running again; thrown otherwise. */
    private static boolean committed(Connection connection, JdbcWork work, long started) throws SQLException {
        try {
            work.accept(connection);
            connection.commit();
            return true;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(connection, e);
            if (!isConflict(e) || System.nanoTime() - started > RETRY_WITHIN_NANOS) {
                throw e;
            }
            return false;
        }
    }

    static void pauseAfter(int attempt) {
        try {
            long bound = Math.min(FIRST_PAUSE_MILLIS << (attempt - 1), LONGEST_PAUSE_MILLIS);
            Thread.sleep(ThreadLocalRandom.current().nextLong(bound));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted between attempts of a transaction", e);
        }
    }

    static void rollbackQuietly(Connection connection, Exception failure) {
        rolledBackQuietly(connection, failure);
    }

    /** The same; false when the rollback failed (its failure added to {@code failure}). */
    static boolean rolledBackQuietly(Connection connection, Exception failure) {
        try {
            connection.rollback();
            return true;
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
            return false;
        }
    }

    /** SQLSTATE 40xxx: rolled back as a deadlock victim or serialization failure; 23xxx: a key another one took. */
    static boolean isConflict(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("40") || sql.getSQLState().startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * MariaDB's 1205 (SQLSTATE HY000): a lock waited for longer than the server allows, which undoes the statement
     * only; on Galera also a read with {@code wsrep_sync_wait} whose wait for the cluster's earlier commits ran out
     * while the cluster re-formed (cluster/faults.sh, a node cut off). Run again, the statement may succeed.
     */
    static boolean isLockWaitTimeout(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getErrorCode() == LOCK_WAIT_TIMEOUT) {
                return true;
            }
        }
        return false;
    }

    static void rollbackQuietly(DbTransaction transaction, RuntimeException failure) {
        try {
            transaction.rollback();
        } catch (RuntimeException rollbackFailure) {
            // The connection may be gone already (that may be the failure); the database rolls back on its own.
            failure.addSuppressed(rollbackFailure);
        }
    }
}
