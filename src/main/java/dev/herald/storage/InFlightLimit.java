package dev.herald.storage;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * How many of a group commit's transactions may be in flight at once, found by what the database commits per second:
 * {@code min} (1 by default) at first; while work waits for the writers (the database is the limit), one more is tried, and kept only if
 * it commits at least {@link #GAIN} as many interactions a second as one fewer did in the window just before; if not,
 * the limit steps back and is not tried higher for {@link #HOLD_NANOS}. While no work waits, one fewer suffices, down
 * to {@code min}.
 *
 * <p>Why throughput and not commit time: on a database that groups commits into one flush (MariaDB's group commit,
 * a Galera cluster's certification round trip) several in flight commit more a second at a longer latency; on one
 * whose commits wait for a CPU that Herald shares (a single server on a 2-core host, measured: 10 to 30 % fewer
 * interactions a second with 8 in flight) they commit fewer. Only the count per second tells the two apart.
 * Writers take their turn by lane: lane {@code i} writes only while {@code i} is below the limit.
 */
final class InFlightLimit {

    /** A window ends after this long and at least {@link #WINDOW_COMMITS} commits. */
    static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    static final int WINDOW_COMMITS = 16;
    /** A step up stays only if it commits this many times as much a second (the machine's noise is below it). */
    static final double GAIN = 1.05;
    static final long HOLD_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final double RECENT_WEIGHT = 0.2;

    private final int min;
    private final int max;
    private final LongSupplier nanoTime;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peak = new AtomicInteger();
    private volatile int limit;
    /** Guarded by this. */
    private double recentNanos;
    private long windowStart;
    private long windowItems;
    private int windowCommits;
    private int windowBacklogs;
    private double previousRate;
    private boolean probing;
    private long holdUntil;

    InFlightLimit(int min, int max) {
        this(min, max, System::nanoTime);
    }

    /** @param nanoTime the time in nanoseconds from any origin: {@link System#nanoTime()}, or a test's clock */
    InFlightLimit(int min, int max, LongSupplier nanoTime) {
        if (min < 1 || min > max) {
            throw new IllegalArgumentException("in flight: at least 1 and at most " + max + ", not " + min);
        }
        this.min = min;
        this.max = max;
        this.limit = min;
        this.nanoTime = nanoTime;
        this.windowStart = nanoTime.getAsLong();
        this.holdUntil = windowStart;
    }

    boolean admits(int lane) {
        return lane < limit;
    }

    /** Waits up to {@code timeoutMillis} for the limit to admit {@code lane}. */
    synchronized void awaitTurn(int lane, long timeoutMillis) throws InterruptedException {
        if (!admits(lane)) {
            wait(timeoutMillis);
        }
    }

    void started() {
        peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
    }

    void ended() {
        inFlight.decrementAndGet();
    }

    /**
     * A transaction of {@code items} committed in {@code nanos}, from taking a connection to the commit;
     * {@code backlog}: work waits in the queue now.
     */
    synchronized void committed(long nanos, int items, boolean backlog) {
        recentNanos = recentNanos == 0 ? nanos : recentNanos + RECENT_WEIGHT * (nanos - recentNanos);
        windowItems += items;
        windowCommits++;
        windowBacklogs += backlog ? 1 : 0;
        long now = nanoTime.getAsLong();
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS || windowCommits < WINDOW_COMMITS) {
            return;
        }
        double rate = windowItems * 1e9 / elapsed;
        boolean saturated = 2 * windowBacklogs >= windowCommits;
        windowStart = now;
        windowItems = 0;
        windowCommits = 0;
        windowBacklogs = 0;
        adapt(rate, saturated, now);
        previousRate = rate;
    }

    private void adapt(double rate, boolean saturated, long now) {
        if (!saturated) {
            probing = false;
            limit = Math.max(min, limit - 1);
            return;
        }
        if (probing) {
            probing = false;
            if (rate < GAIN * previousRate && limit > min) {
                limit--;
                holdUntil = now + HOLD_NANOS;
                return;
            }
        }
        if (limit < max && now - holdUntil >= 0) {
            limit++;
            probing = true;
            notifyAll();
        }
    }

    int inFlight() {
        return inFlight.get();
    }

    int limit() {
        return limit;
    }

    int max() {
        return max;
    }

    int peak() {
        return peak.get();
    }

    synchronized double recentCommitSeconds() {
        return recentNanos / 1e9;
    }
}
