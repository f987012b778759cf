package dev.herald.logging;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * When a line about events that may come by the thousand is due, and what count it reports: the first at once,
 * then at most one line per interval with the count since the previous line. A flood must not become a flood of
 * log lines, and none of it may go uncounted.
 */
public final class LogThrottle {

    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final AtomicLong lastLine;
    private final AtomicLong pending = new AtomicLong();

    public LogThrottle(Duration interval) {
        this(interval, System::nanoTime);
    }

    /** @param nanoTime the time, in nanoseconds from any origin: a test's clock, or {@link System#nanoTime()} */
    public LogThrottle(Duration interval, LongSupplier nanoTime) {
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
        this.lastLine = new AtomicLong(nanoTime.getAsLong() - intervalNanos);
    }

    /** Counts {@code events}; the count a line due now must report (these included), or 0 when none is due. */
    public long add(long events) {
        pending.addAndGet(events);
        return due();
    }

    /** Whether events are counted that no line has reported yet. */
    public boolean holdsBack() {
        return pending.get() > 0;
    }

    /**
     * The count held back, if the interval since the previous line is over, or 0: for a periodic call, so that the
     * last events of a flood are reported although no event follows them.
     */
    public long due() {
        long now = nanoTime.getAsLong();
        long last = lastLine.get();
        if (pending.get() > 0 && now - last >= intervalNanos && lastLine.compareAndSet(last, now)) {
            return pending.getAndSet(0);
        }
        return 0;
    }
}
