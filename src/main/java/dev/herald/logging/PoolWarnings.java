package dev.herald.logging;

import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;

/**
 * HikariCP's warnings as one line each. A database away for 12 s made each instance write 178 lines, 150 of them
 * stack frames: a warning per broken connection with its whole trace, and "Failed to validate connection …
 * Possibly consider using a shorter maxLifetime value", advice that does not apply when the database went away (an
 * operator's trial). The trace becomes its innermost cause's message; the advice, what happened. Herald's own lines
 * say what failed for the clients (docs/operations.md); HikariCP's errors (SEVERE) keep their traces.
 */
final class PoolWarnings implements Filter {

    private static final String POOL = "com.zaxxer.hikari";
    private static final String ADVICE = "Possibly consider using a shorter maxLifetime value.";

    private final Filter next;

    /** @param next the handler's own filter, asked afterwards; null for none */
    PoolWarnings(Filter next) {
        this.next = next;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (record.getLoggerName() != null && record.getLoggerName().startsWith(POOL)
                && record.getLevel().intValue() <= Level.WARNING.intValue()) {
            shorten(record);
        }
        return next == null || next.isLoggable(record);
    }

    private static void shorten(LogRecord record) {
        String message = String.valueOf(record.getMessage());
        if (message.endsWith(ADVICE)) {
            message = message.substring(0, message.length() - ADVICE.length())
                    + "The database closed it or went away; the pool opens another.";
        }
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            Throwable innermost = thrown;
            while (innermost.getCause() != null && innermost.getCause() != innermost) {
                innermost = innermost.getCause();
            }
            message = message + " (" + innermost.getClass().getSimpleName() + ": " + innermost.getMessage() + ")";
            record.setThrown(null);
        }
        record.setMessage(message);
    }
}
