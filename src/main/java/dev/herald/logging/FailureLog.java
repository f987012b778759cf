package dev.herald.logging;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * Logs failures of one kind at most once a second, with a count of the rest and the causes' messages but no stack
 * trace: with the database down, every request fails, and a line each (a trace each) would bury the one that says
 * why.
 */
public final class FailureLog {

    private static final System.Logger LOGGER = System.getLogger(FailureLog.class.getName());

    private final String what;
    private final Level level;
    private final LogThrottle throttle = new LogThrottle(Duration.ofSeconds(1));

    /** @param what what a failure is, after its count: {@code interaction(s) not stored, answered 500} */
    public FailureLog(String what) {
        this(what, Level.ERROR);
    }

    /** @param level WARNING for what is the client's to change or a limit doing its work, not a fault */
    public FailureLog(String what, Level level) {
        this.what = what;
        this.level = level;
    }

    public void failed(int count, Throwable cause) {
        long due = throttle.add(count);
        if (due == 0) {
            return;
        }
        long before = due - count;
        LOGGER.log(level, count + " " + what
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
