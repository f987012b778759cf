package dev.herald.storage;

import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The longest a request waits for its batch, kept by one thread for every request of a group commit: a request
 * waits for its outcome without a timeout of its own, and this thread ends the wait of each whose deadline passed.
 * A timed wait per request made the JDK's virtual-thread scheduler plan a wake-up for each request and cancel it at
 * the commit, waking its timer thread both times: 10 to 20 % of tracking's CPU (docs/performance.md, issue 34).
 *
 * <p>Every waiter has the same wait, so the order they are added in is the order of their deadlines (up to the
 * few microseconds between two requests that add at once): the thread looks at the oldest alone, drops it once it has
 * its outcome, ends its wait once its deadline passed, and otherwise sleeps until that deadline or the next sweep.
 *
 * @param <W> a request's wait
 */
final class WaitDeadlines<W extends WaitDeadlines.Waiter> implements AutoCloseable {

    /** One request's wait. */
    interface Waiter {
        /** {@link System#nanoTime()} by which it must have its answer. */
        long deadline();

        /** Whether it has its outcome, and needs nothing more from here. */
        boolean answered();
    }

    /**
     * How often answered waits are dropped, at the most: at 25,000 requests a second, some 500 of them wait here for
     * the sweep a moment longer than for their answer.
     */
    private static final long SWEEP_NANOS = Duration.ofMillis(20).toNanos();

    private final ConcurrentLinkedQueue<W> waiting = new ConcurrentLinkedQueue<>();
    private final Consumer<W> expire;
    private final Thread keeper;
    /** The keeper sleeps without a timeout while nothing waits: an idle instance is not woken fifty times a second. */
    private final AtomicBoolean idle = new AtomicBoolean();
    private volatile boolean closed;

    /**
     * @param name   the keeper thread's
     * @param expire ends a wait now: its deadline passed, or nothing will answer it any more
     */
    WaitDeadlines(String name, Consumer<W> expire) {
        this.expire = expire;
        // A daemon: close() ends it on a stop, and a start that fails after this point must still let the JVM exit.
        keeper = Thread.ofPlatform().name(name).daemon().start(this::keepUntilClosed);
    }

    /** Starts keeping its deadline. After {@link #close()}, ends its wait at once: nothing will answer it. */
    void add(W waiter) {
        waiting.add(waiter);
        if (idle.get() && idle.compareAndSet(true, false)) {
            LockSupport.unpark(keeper);
        }
        // Added before closed was read: either close() finds it in the queue, or it is ended here. Only the keeper,
        // then close(), ever take from the queue.
        if (closed) {
            expire.accept(waiter);
        }
    }

    /** Ends the wait of every request still waiting, once nothing can answer them any more; stops the keeper. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(keeper);
        try {
            keeper.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        expireAll();
    }

    private void keepUntilClosed() {
        while (!closed) {
            long sleep = expireDue(System.nanoTime());
            if (!waiting.isEmpty()) {
                LockSupport.parkNanos(this, sleep);
                continue;
            }
            idle.set(true);
            // Looked at again after the flag is up: an add() before it found the flag down and woke no one.
            if (waiting.isEmpty() && !closed) {
                LockSupport.park(this);
            }
            idle.set(false);
        }
    }

    /** Drops the answered, ends the overdue; returns how long to sleep. */
    private long expireDue(long now) {
        for (W oldest = waiting.peek(); oldest != null; oldest = waiting.peek()) {
            if (!oldest.answered()) {
                long left = oldest.deadline() - now;
                if (left > 0) {
                    return Math.min(left, SWEEP_NANOS);
                }
                expire.accept(oldest);
            }
            waiting.poll();
        }
        return SWEEP_NANOS;
    }

    private void expireAll() {
        for (W waiter = waiting.poll(); waiter != null; waiter = waiting.poll()) {
            if (!waiter.answered()) {
                expire.accept(waiter);
            }
        }
    }
}
