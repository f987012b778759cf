package dev.herald.ratelimit;

import java.time.Clock;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Counts requests per client in fixed windows that start with a client's first request (docs/api.md#rate-limit).
 *
 * <p>Every public request is counted here, so clients share no lock: a client's window is found in a concurrent
 * map and counted with compare-and-set, which keeps the count exact (however many threads count one client, exactly
 * {@code limit} requests are allowed per window).
 *
 * <p>Memory is bounded by {@code maxClients}: a window takes one of that many slots before it enters the map.
 * Windows are also queued in the order they started; all have the same length, so the ended ones are at the head
 * and are dropped in passing. When every slot is taken, a new client's window takes the slot of the oldest window
 * whose client is under its limit: that client starts a fresh count, which errs towards serving it rather than
 * refusing anyone new. A client at its limit is never dropped early, since a fresh count would serve it again: its
 * window is set aside until it ends. When every client tracked is at its limit, a new client is served without
 * being counted. Each window is queued once, set aside at most once and dropped once, so keeping the bound costs
 * the same small work per window, never a scan per request.
 *
 * <p>The admin sign-in throttle counts failed attempts with one of its own.
 *
 * @param <K> what tells clients apart; equal keys are one client
 */
public final class FixedWindowLimiter<K> {

    /**
     * Read once per request: a reload ({@link #reconfigure}) replaces it whole, and the windows counting now go on
     * counting under the new bounds (a client's count is kept when only its limit changes).
     */
    private volatile Bounds bounds;
    private final Clock clock;
    private final ConcurrentHashMap<K, Window<K>> windows = new ConcurrentHashMap<>();
    /** Slots taken by windows in the map, or about to enter it: never more than {@code maxClients}. */
    private final AtomicInteger slotsTaken = new AtomicInteger();
    /** Windows in the order they started; a window replaced or dropped since is skipped when it comes up. */
    private final Queue<Window<K>> byStart = new ConcurrentLinkedQueue<>();
    /** Windows of clients found at their limit when a slot was needed, kept until they end; in the order they started. */
    private final Queue<Window<K>> atLimit = new ConcurrentLinkedQueue<>();
    /**
     * Held while windows are dropped from the queues. A request only tries it, when the oldest window has ended;
     * only a new client that needs a slot when all are taken waits for it.
     */
    private final ReentrantLock dropping = new ReentrantLock();
    /**
     * The last millisecond at which a request looked for ended windows. Windows end on whole milliseconds, so one
     * look per millisecond is enough; the others skip reading the queues' heads, which are written as often as the
     * oldest clients are counted. Not volatile: a request that reads an old value only looks once more.
     */
    private long lastLooked = Long.MIN_VALUE;

    public FixedWindowLimiter(int limit, Duration window, int maxClients, Clock clock) {
        this.bounds = new Bounds(limit, window.toMillis(), maxClients);
        this.clock = clock;
    }

    /**
     * New bounds for the requests from now on. Every window goes on: its count is kept, and it ends at its start plus
     * the new length (at once, when that is past). Fewer {@code maxClients} than are tracked take effect as windows
     * end; none is dropped for it.
     */
    public void reconfigure(int limit, Duration window, int maxClients) {
        bounds = new Bounds(limit, window.toMillis(), maxClients);
    }

    /** Counts one request of {@code client} and says whether it may be served. */
    public Decision acquire(K client) {
        long now = clock.millis();
        Bounds bounds = this.bounds;
        int limit = bounds.limit;
        long windowMillis = bounds.windowMillis;
        dropEndedInPassing(now, bounds);
        Window<K> window = windowOf(client, now, bounds);
        if (window == null) {
            return new Decision(true, limit, limit - 1, wholeSeconds(windowMillis), false, false);
        }
        int count = window.count(limit);
        long resetMillis = window.start + windowMillis - now;
        return new Decision(count <= limit, limit, Math.max(0, limit - count), wholeSeconds(resetMillis),
                            count == limit, true);
    }

    /**
     * Counts {@code weight} units of {@code client} (bytes in kibibytes, say) and says whether they fit in its window:
     * they are counted only if they do, so a client over its budget may still send something smaller. Not for the
     * request rate limit, which counts one a request.
     */
    public Decision acquire(K client, int weight) {
        long now = clock.millis();
        Bounds bounds = this.bounds;
        int limit = bounds.limit;
        long windowMillis = bounds.windowMillis;
        dropEndedInPassing(now, bounds);
        Window<K> window = windowOf(client, now, bounds);
        if (window == null) {
            return new Decision(weight <= limit, limit, limit - weight, wholeSeconds(windowMillis), false, false);
        }
        int count = window.add(limit, weight);
        long resetMillis = window.start + windowMillis - now;
        return new Decision(count <= limit, limit, Math.max(0, limit - Math.min(count, limit)),
                            wholeSeconds(resetMillis), false, true);
    }

    /**
     * Whether one more request of {@code client} would be served, without counting it: a client that has used its
     * whole budget is told no, with the seconds until its window ends.
     */
    public Decision peek(K client) {
        long now = clock.millis();
        Bounds bounds = this.bounds;
        int limit = bounds.limit;
        long windowMillis = bounds.windowMillis;
        Window<K> window = windows.get(client);
        if (window == null || window.hasEndedBy(now, windowMillis)) {
            return new Decision(true, limit, limit, wholeSeconds(windowMillis), false, window != null);
        }
        int count = window.count.get();
        long resetMillis = window.start + windowMillis - now;
        return new Decision(count < limit, limit, Math.max(0, limit - count), wholeSeconds(resetMillis), false, true);
    }

    /**
     * Whether a client without a window now would find no slot for one without dropping a client under its limit:
     * every slot is taken. (Ended windows may still hold slots until a request drops them; this says "full" then.)
     */
    public boolean isFull() {
        return slotsTaken.get() >= bounds.maxClients;
    }

    int trackedClients() {
        return windows.size();
    }

    /** The client's current window, started now if it has none; null when no slot can be had. */
    private Window<K> windowOf(K client, long now, Bounds bounds) {
        while (true) {
            Window<K> current = windows.get(client);
            if (current != null && !current.hasEndedBy(now, bounds.windowMillis)) {
                return current;
            }
            Window<K> fresh = new Window<>(client, now);
            if (current != null) {
                // The ended window's slot passes to the new one.
                if (windows.replace(client, current, fresh)) {
                    byStart.add(fresh);
                    return fresh;
                }
            } else {
                if (!takeSlot(now, bounds)) {
                    return null;
                }
                if (windows.putIfAbsent(client, fresh) == null) {
                    byStart.add(fresh);
                    return fresh;
                }
                // Another request of the same client started its window first.
                slotsTaken.decrementAndGet();
            }
        }
    }

    private boolean takeSlot(long now, Bounds bounds) {
        if (takeFreeSlot(bounds.maxClients)) {
            return true;
        }
        dropping.lock();
        try {
            dropEnded(now, bounds.windowMillis);
            return takeFreeSlot(bounds.maxClients) || dropOldestUnderLimit(bounds.limit);
        } finally {
            dropping.unlock();
        }
    }

    private boolean takeFreeSlot(int maxClients) {
        int taken = slotsTaken.get();
        while (taken < maxClients) {
            int seen = slotsTaken.compareAndExchange(taken, taken + 1);
            if (seen == taken) {
                return true;
            }
            taken = seen;
        }
        return false;
    }

    /** Drops the oldest window of a client under its limit and keeps its slot for the caller; needs {@link #dropping}. */
    private boolean dropOldestUnderLimit(int limit) {
        for (Window<K> oldest = byStart.poll(); oldest != null; oldest = byStart.poll()) {
            if (windows.get(oldest.client) != oldest) {
                continue;
            }
            if (oldest.isAtLimit(limit)) {
                atLimit.add(oldest);
            } else if (windows.remove(oldest.client, oldest)) {
                return true;
            }
        }
        return false;
    }

    private void dropEndedInPassing(long now, Bounds bounds) {
        if (now == lastLooked) {
            return;
        }
        lastLooked = now;
        long windowMillis = bounds.windowMillis;
        if ((hasEnded(byStart.peek(), now, windowMillis) || hasEnded(atLimit.peek(), now, windowMillis))
                && dropping.tryLock()) {
            try {
                dropEnded(now, windowMillis);
            } finally {
                dropping.unlock();
            }
        }
    }

    /** Needs {@link #dropping}: a queue's head is only taken by its holder, so the head seen is the head taken. */
    private void dropEnded(long now, long windowMillis) {
        dropEnded(byStart, now, windowMillis);
        dropEnded(atLimit, now, windowMillis);
    }

    private void dropEnded(Queue<Window<K>> queue, long now, long windowMillis) {
        for (Window<K> oldest = queue.peek(); hasEnded(oldest, now, windowMillis); oldest = queue.peek()) {
            queue.poll();
            if (windows.remove(oldest.client, oldest)) {
                slotsTaken.decrementAndGet();
            }
        }
    }

    private static boolean hasEnded(Window<?> window, long now, long windowMillis) {
        return window != null && window.hasEndedBy(now, windowMillis);
    }

    /** Whole seconds, rounded up, at least 1 (docs/api.md#rate-limit). */
    private static long wholeSeconds(long millis) {
        return Math.max(1, (millis + 999) / 1000);
    }

    /** What a reload may change; one object, so that a request never sees one bound new and another old. */
    private record Bounds(int limit, long windowMillis, int maxClients) {
    }

    /**
     * @param resetSeconds seconds until the client's window ends
     * @param tookTheLast this request was counted as the last its window allows: true for exactly one request per
     *                    window of a client that reaches its limit, however many are counted at once
     * @param counted     the client has a window: false when every slot was held by clients at their limit, and the
     *                    request was allowed without being counted
     */
    public record Decision(boolean allowed, int limit, int remaining, long resetSeconds, boolean tookTheLast,
                           boolean counted) {
    }

    private static final class Window<K> {
        private final K client;
        private final long start;
        private final AtomicInteger count = new AtomicInteger();

        private Window(K client, long start) {
            this.client = client;
            this.start = start;
        }

        /**
         * Counts one request and returns the count. It stops at limit + 1: enough to know the client is over, and it
         * can never overflow.
         */
        int count(int limit) {
            int seen = count.get();
            while (seen <= limit) {
                int witnessed = count.compareAndExchange(seen, seen + 1);
                if (witnessed == seen) {
                    return seen + 1;
                }
                seen = witnessed;
            }
            return seen;
        }

        /** Adds {@code weight} if the sum stays within {@code limit}: the new count, or one over the limit if not added. */
        int add(int limit, int weight) {
            int seen = count.get();
            while (seen + weight <= limit) {
                int witnessed = count.compareAndExchange(seen, seen + weight);
                if (witnessed == seen) {
                    return seen + weight;
                }
                seen = witnessed;
            }
            return limit + 1;
        }

        boolean isAtLimit(int limit) {
            return count.get() >= limit;
        }

        boolean hasEndedBy(long now, long windowMillis) {
            return start + windowMillis <= now;
        }
    }
}
