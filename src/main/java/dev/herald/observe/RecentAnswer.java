package dev.herald.observe;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * A check's answer, asked again only once a second has passed since it was last asked. Callers that arrive while
 * it is being asked wait for that answer rather than ask too.
 */
final class RecentAnswer {

    static final long MAX_AGE_NANOS = 1_000_000_000L;

    private final BooleanSupplier check;
    private final LongSupplier nanoTime;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile Answer last;

    RecentAnswer(BooleanSupplier check, LongSupplier nanoTime) {
        this.check = check;
        this.nanoTime = nanoTime;
    }

    boolean get() {
        Answer answer = last;
        if (answer != null && nanoTime.getAsLong() - answer.askedAt() < MAX_AGE_NANOS) {
            return answer.value();
        }
        // A lock, not synchronized: on Java 21 a virtual thread waiting for a monitor, or blocked on the database
        // inside one, holds its carrier thread, and a slow database would then stall every request.
        lock.lock();
        try {
            answer = last;
            if (answer == null || nanoTime.getAsLong() - answer.askedAt() >= MAX_AGE_NANOS) {
                long askedAt = nanoTime.getAsLong();
                answer = new Answer(check.getAsBoolean(), askedAt);
                last = answer;
            }
            return answer.value();
        } finally {
            lock.unlock();
        }
    }

    private record Answer(boolean value, long askedAt) {
    }
}
