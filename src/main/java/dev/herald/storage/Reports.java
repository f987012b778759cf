package dev.herald.storage;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

import io.helidon.dbclient.DbClient;

/**
 * The stats' own pool and DB Client ({@link ServingPool#reportsPool}). A stats request adds up its whole range in
 * the database, seconds on a project of tens of thousands of notifications (docs/performance.md), while the serving
 * pool's socket time-out fails a request on a silent database within a second: under config/prod.yaml such a page
 * answered 500, and without a socket time-out it ran until limits.read-timeout closed its connection unanswered.
 * Here each statement is bounded in the database to {@link #bound()} and ends with an error {@link #timedOut} knows;
 * the socket waits a second longer, for a database that stopped answering. Nothing is opened before the first stats
 * request: a start opens the serving pool only.
 */
public final class Reports implements AutoCloseable {

    /** MariaDB's ER_STATEMENT_TIMEOUT: the statement ran past max_statement_time. */
    private static final int MARIADB_STATEMENT_TIMEOUT = 1969;
    /** H2's STATEMENT_WAS_CANCELED: the statement ran past QUERY_TIMEOUT. */
    private static final int H2_STATEMENT_CANCELED = 57014;
    /** How much longer than its bound a statement waits on a database that stopped answering. */
    public static final Duration SOCKET_MARGIN = Duration.ofSeconds(1);

    private final ServingDatabase database;
    private final int size;
    private final Duration bound;
    private final LongAdder timedOut = new LongAdder();
    private ServingPool pool;
    private DbClient client;
    private boolean closed;

    /** @param bound a millisecond at least (the databases bound statements in milliseconds; the stats give 100 ms) */
    Reports(ServingDatabase database, int size, Duration bound) {
        this.database = database;
        this.size = size;
        this.bound = bound;
    }

    /** How long one statement may run. */
    public Duration bound() {
        return bound;
    }

    /** Opened at the first call; never again once closed (a request still running as the instance stops). */
    public synchronized DbClient client() {
        if (closed) {
            throw new IllegalStateException("The stats' pool is closed: the instance is stopping");
        }
        if (client == null) {
            String session = database.statement("reports-session")
                    .replace("{millis}", Long.toString(bound.toMillis()))
                    .replace("{seconds}", BigDecimal.valueOf(bound.toMillis(), 3).toPlainString());
            pool = database.pool().reportsPool("herald-reports", size, session, bound.plus(SOCKET_MARGIN));
            client = database.clientOver().apply(pool);
        }
        return client;
    }

    /** Whether a failure is a statement of this pool that ran past its bound (and only that: the connection lives). */
    public static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && (sql.getErrorCode() == MARIADB_STATEMENT_TIMEOUT
                                                      || sql.getErrorCode() == H2_STATEMENT_CANCELED)) {
                return true;
            }
        }
        return false;
    }

    /** Counts a statement the database ended at its bound. */
    public void countTimedOut() {
        timedOut.increment();
    }

    /** For /observe/metrics: the statements ended at their bound since start, and the pool now (zeros unopened). */
    public Figures figures() {
        ServingPool opened;
        synchronized (this) {
            opened = pool;
        }
        return new Figures(timedOut.sum(), opened == null ? new PoolFigures(0, 0, 0, 0) : opened.figures());
    }

    public record Figures(long timedOut, PoolFigures pool) {
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.close();
        }
    }
}
