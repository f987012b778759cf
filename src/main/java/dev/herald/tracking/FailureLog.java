package dev.herald.tracking;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Logs why interactions were not stored, at most once a second with a count of the rest: with the database down,
 * every tracking request fails, and a line each would bury the one that says why.
 */
final class FailureLog {

    private static final System.Logger LOGGER = System.getLogger(FailureLog.class.getName());
    private static final long EVERY_NANOS = 1_000_000_000L;

    private final AtomicLong lastLogged = new AtomicLong(System.nanoTime() - EVERY_NANOS);
    private final LongAdder unlogged = new LongAdder();

    void failed(int interactions, Throwable cause) {
        long now = System.nanoTime();
        long last = lastLogged.get();
        if (now - last < EVERY_NANOS || !lastLogged.compareAndSet(last, now)) {
            unlogged.add(interactions);
            return;
        }
        long before = unlogged.sumThenReset();
        LOGGER.log(Level.ERROR, interactions + " interaction(s) not stored, answered 500"
                + (before > 0 ? " (and " + before + " more since the last line)" : "") + ": " + describe(cause));
    }

    /** The causes' messages, without a stack trace: the database's own words say what is wrong. */
    private static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = failure; cause != null && text.length() < 400; cause = cause.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage());
        }
        return text.toString();
    }
}
