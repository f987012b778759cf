package dev.herald.wire;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each client holds of a budget, at most {@code perClient} each, kept only while it holds something: a client
 * that holds nothing has no entry, so that the map is as large as the clients with a body in flight, whoever has
 * asked before. Every tracking request reserves and gives back here: a {@code compute} of the map for each took
 * its bin's lock twice a request and a boxed {@code Long} each time, 3.6 % of a tracking request's CPU samples
 * with one client's 64 connections (docs/performance.md). Here a client's count is an {@link AtomicLong} changed by
 * compare-and-set; the last to give back retires it (its value set to {@link #RETIRED} from 0, then removed), and a
 * reservation that finds a retired count waits for it to go and takes the next one, so that nothing is ever
 * counted on a count the map no longer holds. {@code ClientSharesTest} holds the bound under many threads.
 */
final class ClientShares {

    private static final long RETIRED = -1;

    private final long perClient;
    private final ConcurrentHashMap<Object, AtomicLong> held = new ConcurrentHashMap<>();

    ClientShares(long perClient) {
        this.perClient = perClient;
    }

    /** The client's count with {@code size} more on it, or null when that would pass the client's share. */
    AtomicLong reserve(Object client, long size) {
        while (true) {
            AtomicLong count = held.computeIfAbsent(client, key -> new AtomicLong());
            long now = count.get();
            if (now == RETIRED) {
                held.remove(client, count);
                Thread.onSpinWait();
                continue;
            }
            if (now + size > perClient) {
                return null;
            }
            if (count.compareAndSet(now, now + size)) {
                return count;
            }
        }
    }

    /** Gives back what {@link #reserve} took on {@code count}. */
    void release(Object client, AtomicLong count, long size) {
        if (count.addAndGet(-size) == 0 && count.compareAndSet(0, RETIRED)) {
            held.remove(client, count);
        }
    }

    /** What the client holds now. */
    long heldBy(Object client) {
        AtomicLong count = held.get(client);
        long now = count == null ? 0 : count.get();
        return Math.max(now, 0);
    }

    /** How many clients hold something. */
    int clients() {
        return held.size();
    }
}
