package dev.herald.storage;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Set;

/**
 * Which failures are of the connection, or of its node, rather than of the statement: what the statement was doing
 * may have been done (a write's outcome is unknown), and the same statement on another connection may succeed (the
 * multi-host URL moves it to a node that serves).
 */
public final class LostConnections {

    /** MariaDB: WSREP not ready (a node out of the primary component), connection killed, server gone, lost. */
    private static final Set<Integer> CONNECTION_ERRORS = Set.of(1047, 1927, 2006, 2013);

    private LostConnections() {
    }

    /**
     * Any cause in the chain is a connection's failure: a connection exception, a MariaDB error of the set above,
     * SQLSTATE 08xxx, the driver's "reconnected, transaction lost" {@code 25S03}, or a statement cancelled {@code 70100}.
     */
    public static boolean lost(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLNonTransientConnectionException || cause instanceof SQLTransientConnectionException
                    || cause instanceof SQLRecoverableException) {
                return true;
            }
            if (cause instanceof SQLException sql && (CONNECTION_ERRORS.contains(sql.getErrorCode())
                    || sql.getSQLState() != null && (sql.getSQLState().startsWith("08")
                    || sql.getSQLState().equals("25S03") || sql.getSQLState().equals("70100")))) {
                return true;
            }
        }
        return false;
    }

    /** The pool gave no connection in time: nothing was sent, and asking again would wait as long again. */
    public static boolean refusedByThePool(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PoolRefused) {
                return true;
            }
        }
        return false;
    }
}
