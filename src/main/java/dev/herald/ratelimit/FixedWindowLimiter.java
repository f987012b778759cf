package dev.herald.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts requests per client in fixed windows that start with a client's first request (decisions §1).
 *
 * <p>Memory is bounded by {@code maxClients}. Windows sit in the map in the order they started, and all have the
 * same length, so the expired ones are always at the head and are dropped in passing. When more clients are
 * active than the bound allows, the oldest window is dropped early: that client starts a fresh count, which errs
 * towards serving it rather than refusing anyone new.
 */
final class FixedWindowLimiter {

    private final int limit;
    private final long windowMillis;
    private final int maxClients;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final LinkedHashMap<String, Window> windows = new LinkedHashMap<>();

    FixedWindowLimiter(int limit, Duration window, int maxClients, Clock clock) {
        this.limit = limit;
        this.windowMillis = window.toMillis();
        this.maxClients = maxClients;
        this.clock = clock;
    }

    /** Counts one request of {@code client} and says whether it may be served. */
    Decision acquire(String client) {
        long now = clock.millis();
        lock.lock();
        try {
            dropExpired(now);
            Window window = windows.get(client);
            if (window == null) {
                if (windows.size() >= maxClients) {
                    dropOldest();
                }
                window = new Window(now);
                windows.put(client, window);
            }
            if (window.count <= limit) {
                // Stops at limit + 1: enough to know the client is over, and it can never overflow.
                window.count++;
            }
            long resetMillis = window.start + windowMillis - now;
            return new Decision(window.count <= limit, limit, Math.max(0, limit - window.count), wholeSeconds(resetMillis));
        } finally {
            lock.unlock();
        }
    }

    int trackedClients() {
        lock.lock();
        try {
            return windows.size();
        } finally {
            lock.unlock();
        }
    }

    private void dropExpired(long now) {
        Iterator<Window> oldestFirst = windows.values().iterator();
        while (oldestFirst.hasNext() && oldestFirst.next().start + windowMillis <= now) {
            oldestFirst.remove();
        }
    }

    private void dropOldest() {
        Iterator<Window> oldestFirst = windows.values().iterator();
        oldestFirst.next();
        oldestFirst.remove();
    }

    /** Whole seconds, rounded up, at least 1 (decisions §1). */
    private static long wholeSeconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    /**
     * @param resetSeconds seconds until the client's window ends
     */
    record Decision(boolean allowed, int limit, int remaining, long resetSeconds) {
    }

    private static final class Window {
        private final long start;
        private int count;

        private Window(long start) {
            this.start = start;
        }
    }
}
