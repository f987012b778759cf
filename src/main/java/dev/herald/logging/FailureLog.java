package dev.herald.logging;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Logs failures of one kind at most once a second, with a count of the rest and the causes' messages but no stack
 * trace: with the database down, every request fails, and a line each (a trace each) would bury the one that says
 * why.
 */
public final class FailureLog {

    private static final System.Logger LOGGER = System.getLogger(FailureLog.class.getName());

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final String what;
    private final Level level;
    private final LogThrottle throttle = new LogThrottle(INTERVAL);
    /** Whether a thread waits to report what the throttle holds back. */
    private final AtomicBoolean reporting = new AtomicBoolean();
    private volatile Throwable lastHeldBack;

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
            lastHeldBack = cause;
            if (reporting.compareAndSet(false, true)) {
                Thread.ofVirtual().name("failure-log").start(this::reportHeldBack);
            }
            return;
        }
        long before = due - count;
        LOGGER.log(level, count + " " + what
                + (before > 0 ? " (and " + before + " more since the last line)" : "") + ": " + describe(cause));
    }

    /**
     * Reports what the throttle held back once its interval is over. Without it, the failures after a line waited
     * for the next failure to be counted in a line: the last ones of an outage, or a second time-out in the same
     * second, were never reported.
     */
    private void reportHeldBack() {
        while (true) {
            try {
                Thread.sleep(INTERVAL);
            } catch (InterruptedException e) {
                reporting.set(false);
                return;
            }
            long due = throttle.due();
            if (due > 0) {
                LOGGER.log(level, due + " " + what + " (since the last line): " + describe(lastHeldBack));
            }
            if (throttle.holdsBack()) {
                // A line came meanwhile and began another interval: wait for its end.
                continue;
            }
            reporting.set(false);
            // A failure held back between the check and the flag's reset found the flag still set: report it too.
            if (!throttle.holdsBack() || !reporting.compareAndSet(false, true)) {
                return;
            }
        }
    }

    /**
     * The causes' messages, without a stack trace: the database's own words say what is wrong. On one line: a
     * message may hold line breaks, or quote a client's value.
     */
    private static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder();
        for (Throwable cause = failure; cause != null && text.length() < 400; cause = cause.getCause()) {
            if (!text.isEmpty()) {
                text.append(" <- ");
            }
            text.append(cause.getClass().getSimpleName()).append(": ").append(LogText.oneLine(cause.getMessage()));
        }
        return text.toString();
    }
}
