package dev.herald.storage;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.Consumer;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbTransaction;

/**
 * Runs work in one transaction, committed before {@link #run} returns, and runs it again when the database chose
 * it as the loser of a conflict with another transaction: a deadlock or a lost race to insert the same key (two
 * first interactions of a day, say). Such a loser was rolled back whole, so running it again counts nothing twice.
 */
public final class Transactions {

    private static final int ATTEMPTS = 3;

    private Transactions() {
    }

    public static void run(DbClient db, Consumer<DbExecute> work) {
        for (int attempt = 1; ; attempt++) {
            DbTransaction transaction = db.transaction();
            try {
                work.accept(transaction);
                transaction.commit();
                return;
            } catch (RuntimeException e) {
                rollbackQuietly(transaction, e);
                if (attempt == ATTEMPTS || !isConflict(e)) {
                    throw e;
                }
            }
        }
    }

    /** Work on a plain JDBC connection, inside a transaction that {@link #run(ServingPool, JdbcWork)} commits. */
    @FunctionalInterface
    public interface JdbcWork {
        void accept(Connection connection) throws SQLException;
    }

    /** The same on a plain JDBC connection of the serving pool, for writers that batch. */
    public static void run(ServingPool pool, JdbcWork work) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try (Connection connection = pool.connection()) {
                connection.setAutoCommit(false);
                try {
                    work.accept(connection);
                    connection.commit();
                    return;
                } catch (SQLException | RuntimeException e) {
                    rollbackQuietly(connection, e);
                    if (attempt == ATTEMPTS || !isConflict(e)) {
                        throw e;
                    }
                }
                // HikariCP sets auto-commit back when the connection returns to the pool.
            }
        }
    }

    private static void rollbackQuietly(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
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

    private static void rollbackQuietly(DbTransaction transaction, RuntimeException failure) {
        try {
            transaction.rollback();
        } catch (RuntimeException rollbackFailure) {
            // The connection may be gone already (that may be the failure); the database rolls back on its own.
            failure.addSuppressed(rollbackFailure);
        }
    }
}
