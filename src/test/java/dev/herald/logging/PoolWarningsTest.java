package dev.herald.logging;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * HikariCP's warnings in one line each: a broken connection's trace becomes its innermost cause's message, and the
 * maxLifetime advice what happened. Others' records, and HikariCP's errors, are left as they are.
 */
class PoolWarningsTest {

    private final PoolWarnings filter = new PoolWarnings(null);

    @Test
    void aBrokenConnectionsTraceBecomesItsCause() {
        LogRecord record = record("com.zaxxer.hikari.pool.ProxyConnection", Level.WARNING, "HikariPool-1 - Connection "
                + "org.mariadb.jdbc.Connection@5e1 marked as broken because of SQLSTATE(08000), ErrorCode(0)");
        record.setThrown(new SQLException("(conn=48) Socket error", new SQLNonTransientConnectionException(
                "Connection reset")));

        assertThat(filter.isLoggable(record), is(true));
        assertThat(record.getThrown(), is(nullValue()));
        assertThat(record.getMessage(), is("HikariPool-1 - Connection org.mariadb.jdbc.Connection@5e1 marked as broken"
                + " because of SQLSTATE(08000), ErrorCode(0) (SQLNonTransientConnectionException: Connection reset)"));
    }

    @Test
    void theMaxLifetimeAdviceSaysWhatHappened() {
        LogRecord record = record("com.zaxxer.hikari.pool.PoolBase", Level.WARNING, "HikariPool-1 - Failed to validate"
                + " connection org.mariadb.jdbc.Connection@7a (Connection.setNetworkTimeout cannot be called on a closed"
                + " connection). Possibly consider using a shorter maxLifetime value.");

        filter.isLoggable(record);
        assertThat(record.getMessage(), is("HikariPool-1 - Failed to validate connection org.mariadb.jdbc.Connection@7a"
                + " (Connection.setNetworkTimeout cannot be called on a closed connection). The database closed it or"
                + " went away; the pool opens another."));
    }

    @Test
    void othersRecordsAndThePoolsErrorsKeepTheirTraces() {
        SQLException failure = new SQLException("boom");
        LogRecord ours = record("dev.herald.storage.Database", Level.WARNING, "ours");
        ours.setThrown(failure);
        LogRecord error = record("com.zaxxer.hikari.pool.HikariPool", Level.SEVERE, "HikariPool-1 - Exception during"
                + " pool initialization.");
        error.setThrown(failure);

        filter.isLoggable(ours);
        filter.isLoggable(error);
        assertThat(ours.getThrown(), is(failure));
        assertThat(error.getThrown(), is(failure));
    }

    private static LogRecord record(String logger, Level level, String message) {
        LogRecord record = new LogRecord(level, message);
        record.setLoggerName(logger);
        return record;
    }
}
