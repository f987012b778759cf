package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.time.Duration;

/**
 * The start's wait for a database that does not answer yet: one line when it begins and one every few seconds, so
 * that an operator watching the log knows what Herald waits for and how much longer.
 */
final class DatabaseWait {

    private static final System.Logger LOGGER = System.getLogger(Database.class.getName());
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);

    private final String url;
    private final Duration timeout;
    private final long started = System.nanoTime();
    private long nextProgress;
    private boolean waiting;

    DatabaseWait(String url, Duration timeout) {
        this.url = url;
        this.timeout = timeout;
    }

    Duration timeLeft() {
        return timeout.minus(elapsed());
    }

    /** @param reason the failure, secrets masked */
    void failed(String reason) {
        long now = System.nanoTime();
        if (!waiting) {
            waiting = true;
            nextProgress = now + PROGRESS_EVERY.toNanos();
            LOGGER.log(Level.INFO, "Waiting for the database at " + url + " (up to " + timeout
                    + ", db.startup-timeout): " + reason);
        } else if (now - nextProgress >= 0) {
            nextProgress = now + PROGRESS_EVERY.toNanos();
            LOGGER.log(Level.INFO, "Still waiting for the database at " + url + ", " + elapsed().toSeconds() + " s of "
                    + timeout.toSeconds() + ": " + reason);
        }
    }

    private Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - started);
    }
}
