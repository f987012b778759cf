package dev.herald.tracking;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * Deletes raw interactions older than {@code tracking.retention.raw-days}, keeping the daily totals (docs/behaviour.md,
 * Retention). A project that is tracked for years otherwise grows its table without end: 10 M rows and their metadata.
 *
 * <p>In batches by primary key, oldest first: each statement reads and locks only the rows of its own key range
 * ({@code tracking.retention.batch}, 1000), far from where the writer inserts (the table's end), so the hot path is never
 * blocked by it; a delete by age alone would scan the whole table and, under MariaDB's repeatable read, lock the
 * gaps the writer inserts into. Rows are in the order they were received, up to the clocks of the instances: it stops
 * at the first row young enough to keep. Every instance runs it, at a random offset in its interval; two that meet
 * delete the same rows once.
 *
 * <p>The same pass deletes the event ids ({@link EventIds}) received longer ago than the timestamp window's length,
 * whatever {@code raw-days} says: two copies of an interaction with its own timestamp are sent at most that far
 * apart, so no later request can repeat it, and a project that tracks with ids otherwise grows a row for
 * each interaction for ever.
 */
final class InteractionRetention implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(InteractionRetention.class.getName());

    private final DbClient db;
    private final RetentionSettings settings;
    private final Duration eventIdsKept;
    private final Clock clock;
    private final Thread thread;
    private volatile boolean closed;

    /** @param eventIdsKept how long an event id is kept: the timestamp window's length, past and future */
    InteractionRetention(DbClient db, RetentionSettings settings, Duration eventIdsKept, Clock clock) {
        this.db = db;
        this.settings = settings;
        this.eventIdsKept = eventIdsKept;
        this.clock = clock;
        this.thread = Thread.ofPlatform().name("herald-retention").daemon().unstarted(this::runUntilClosed);
    }

    /** Event ids are pruned even where every raw interaction is kept ({@code raw-days: 0}). */
    void start() {
        thread.start();
    }

    /**
     * One pass: deletes every raw interaction received before the cutoff, a batch at a time.
     *
     * @return how many were deleted
     */
    long prune() {
        long cutoff = clock.millis() - Duration.ofDays(settings.rawDays()).toMillis();
        long deleted = 0;
        long after = Long.MIN_VALUE;
        while (!closed) {
            List<DbRow> rows = db.execute().createNamedQuery("select-interactions-after")
                    .addParam("after", after)
                    .addParam("limit", settings.batch())
                    .execute()
                    .toList();
            int old = 0;
            while (old < rows.size() && Rows.longValue(rows.get(old), "received_at") < cutoff) {
                old++;
            }
            if (old == 0) {
                break;
            }
            long to = Rows.longValue(rows.get(old - 1), "seq");
            deleted += db.execute().createNamedDelete("delete-interactions-range")
                    .addParam("after", after)
                    .addParam("to", to)
                    .addParam("cutoff", cutoff)
                    .execute();
            after = to;
            if (old < rows.size() || rows.size() < settings.batch()) {
                break;
            }
            pause();
        }
        return deleted;
    }

    /**
     * One pass over the event ids: deletes those received before {@link #eventIdsKept} ago, {@code batch} a statement,
     * oldest first by their index.
     *
     * @return how many were deleted
     */
    long pruneEventIds() {
        long cutoff = clock.millis() - eventIdsKept.toMillis();
        long deleted = 0;
        while (!closed) {
            long now = db.execute().namedDelete("delete-interaction-event-ids", cutoff, settings.batch());
            deleted += now;
            if (now < settings.batch()) {
                break;
            }
            pause();
        }
        return deleted;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
    }

    private void runUntilClosed() {
        long first = ThreadLocalRandom.current().nextLong(settings.interval().toMillis());
        sleep(Duration.ofMillis(first));
        while (!closed) {
            if (settings.enabled()) {
                pruneRawInteractions();
            }
            pruneEventIdsLogged();
            sleep(settings.interval());
        }
    }

    private void pruneRawInteractions() {
        long started = System.nanoTime();
        try {
            long deleted = prune();
            if (deleted > 0) {
                LOGGER.log(Level.INFO, "Retention: " + deleted + " raw interaction(s) received more than "
                        + settings.rawDays() + " days ago deleted in "
                        + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms; the daily totals stay");
            }
        } catch (RuntimeException e) {
            LOGGER.log(Level.WARNING, "Retention: raw interactions not pruned (" + e.getMessage()
                    + "); next attempt in " + settings.interval());
        }
    }

    private void pruneEventIdsLogged() {
        try {
            long deleted = pruneEventIds();
            if (deleted > 0) {
                LOGGER.log(Level.INFO, "Retention: " + deleted + " event id(s) received more than "
                        + eventIdsKept.toDays() + " days ago deleted; their interactions stay");
            }
        } catch (RuntimeException e) {
            LOGGER.log(Level.WARNING, "Retention: event ids not pruned (" + e.getMessage() + "); next attempt in "
                    + settings.interval());
        }
    }

    private void pause() {
        if (!settings.pause().isZero()) {
            sleep(settings.pause());
        }
    }

    private void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            closed = true;
        }
    }
}
