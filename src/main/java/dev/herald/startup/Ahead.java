package dev.herald.startup;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Something a start needs later and that depends on nothing the configuration says, worked out on a thread of its
 * own while the main thread reads the configuration: the main thread's start is the path to the first answer, and
 * on two cores a second thread shortens it. Whoever asks first without it having begun works it out itself; a
 * failure is thrown to whoever asks, as the same exception.
 *
 * @param <T> what is worked out
 */
public final class Ahead<T> {

    private final FutureTask<T> task;

    public Ahead(Callable<T> work) {
        this.task = new FutureTask<>(work);
    }

    /** Begins the work on a daemon thread of that name, unless it has begun. */
    public void begin(String threadName) {
        Thread.ofPlatform().name(threadName).daemon().start(task);
    }

    /**
     * Does each work in turn on one daemon thread of that name, skipping any that has begun elsewhere: in the order
     * the start needs them, one thread beside the main thread rather than one each, which on two cores all ran at
     * once and made the first needed finish last.
     */
    public static void inOrder(String threadName, List<Ahead<?>> works) {
        Thread.ofPlatform().name(threadName).daemon().start(() -> works.forEach(work -> work.task.run()));
    }

    /** The result; waits for work in progress. */
    public T get() {
        // Does nothing when the work has begun elsewhere: get() then waits for it.
        task.run();
        try {
            return task.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for work of the start", e);
        }
    }
}
