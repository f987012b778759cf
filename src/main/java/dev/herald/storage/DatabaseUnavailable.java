package dev.herald.storage;

import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;

/**
 * Whether a failure is the database's absence (down, unreachable, too slow, no connection free in the pool) rather
 * than a fault of Herald's: such failures come by the thousand during an outage, all alike, and are logged as a
 * count (web/FailureLog), not a stack trace each.
 */
public final class DatabaseUnavailable {

    private DatabaseUnavailable() {
    }

    public static boolean is(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLTransientConnectionException || cause instanceof SQLNonTransientConnectionException
                    || cause instanceof SQLRecoverableException || cause instanceof SQLTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
