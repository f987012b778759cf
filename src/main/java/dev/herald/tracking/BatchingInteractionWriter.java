package dev.herald.tracking;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.logging.FailureLog;
import dev.herald.storage.ServingPool;
import dev.herald.storage.Transactions;

/**
 * Group commit: one thread takes the interactions that requests hand in, and writes all that are waiting (up to
 * {@code maxBatch}, after lingering up to {@code linger} for more) in one transaction; every request of a batch
 * gets its 204 only after that commit, and a 500 if it failed. With one writer per instance nothing on this
 * instance waits for another transaction's lock on a day's total.
 *
 * <p>The queue is bounded: when it is full, a request is answered 500 at once rather than queued without limit. A
 * request waits at most {@code maxWait} for its batch (a 500 within 2 seconds when the database does not
 * answer, docs/behaviour.md#connections-and-errors); one that gave up before its batch was taken is left out of it, so
 * it is neither stored nor answered 204. One that gave up while its batch was being written may still be stored: more
 * stored than answered, never the other way round.
 *
 * <p>Stop order ({@link #close()}): take nothing more, write what was taken, then return; the pool closes after.
 */
final class BatchingInteractionWriter implements InteractionWriter {

    private static final System.Logger LOGGER = System.getLogger(BatchingInteractionWriter.class.getName());

    private final ServingPool pool;
    private final InteractionStore store;
    private final TrackingBatchSettings settings;
    private final BlockingQueue<Pending> queue;
    private final Thread thread;
    private final FailureLog failures = new FailureLog("interaction(s) not stored, answered 500");
    private final LongAdder batches = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder commitNanos = new LongAdder();
    private volatile boolean accepting = true;

    /**
     * @param servingPool the writer takes a pool of its own from it: one connection, auto-commit off
     */
    BatchingInteractionWriter(ServingPool servingPool, InteractionStore store, TrackingBatchSettings settings) {
        this.pool = servingPool.singleTransactionalPool("herald-writer", store.scriptProperties());
        this.store = store;
        this.settings = settings;
        this.queue = new ArrayBlockingQueue<>(settings.queueSize());
        // A daemon: close() drains it on a stop, and a start that fails after this point must still let the JVM
        // exit.
        this.thread = Thread.ofPlatform().name("herald-interaction-writer").daemon().unstarted(this::writeUntilClosed);
        thread.start();
    }

    @Override
    public void record(Interaction interaction) {
        Pending pending = new Pending(interaction);
        if (!accepting || !queue.offer(pending)) {
            failed.increment();
            failures.failed(1, new IllegalStateException(accepting ? "the writer's queue is full ("
                    + settings.queueSize() + ")" : "Herald is stopping"));
            throw TrackingErrors.notStored();
        }
        try {
            pending.outcome.get(settings.maxWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (pending.state.compareAndSet(Pending.QUEUED, Pending.ABANDONED)) {
                failed.increment();
                failures.failed(1, new IllegalStateException("waited " + settings.maxWait().toMillis()
                        + " ms for a batch"));
            }
            throw TrackingErrors.notStored();
        } catch (ExecutionException e) {
            throw TrackingErrors.notStored();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TrackingErrors.notStored();
        }
    }

    @Override
    public WriterFigures figures() {
        return new WriterFigures(queue.size(), batches.sum(), written.sum(), failed.sum(), commitNanos.sum() / 1e9);
    }

    @Override
    public void close() {
        accepting = false;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        pool.close();
    }

    private void writeUntilClosed() {
        List<Pending> batch = new ArrayList<>(settings.maxBatch());
        while (accepting || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                gather(first, batch);
                write(batch);
            } catch (InterruptedException e) {
                // Only close() stops this thread, by the flag: the queue still holds acknowledged work.
                LOGGER.log(Level.DEBUG, "Interaction writer interrupted; it stops only when closed");
            } finally {
                batch.clear();
            }
        }
    }

    /** Everything waiting, then up to {@code linger} for more, up to {@code maxBatch}; only what is still wanted. */
    private void gather(Pending first, List<Pending> batch) throws InterruptedException {
        batch.add(first);
        queue.drainTo(batch, settings.maxBatch() - batch.size());
        long lingerNanos = settings.linger().toNanos();
        long deadline = System.nanoTime() + lingerNanos;
        while (lingerNanos > 0 && batch.size() < settings.maxBatch()) {
            long left = deadline - System.nanoTime();
            Pending next = left > 0 ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
            if (next == null) {
                break;
            }
            batch.add(next);
            queue.drainTo(batch, settings.maxBatch() - batch.size());
        }
        batch.removeIf(pending -> !pending.state.compareAndSet(Pending.QUEUED, Pending.TAKEN));
    }

    private void write(List<Pending> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<Interaction> interactions = new ArrayList<>(batch.size());
        batch.forEach(pending -> interactions.add(pending.interaction));
        long started = System.nanoTime();
        try {
            Transactions.run(pool, connection -> store.writeAndCommit(connection, interactions));
        } catch (Exception e) {
            failed.add(batch.size());
            failures.failed(batch.size(), e);
            batch.forEach(pending -> pending.outcome.completeExceptionally(e));
            return;
        }
        commitNanos.add(System.nanoTime() - started);
        batches.increment();
        written.add(batch.size());
        batch.forEach(pending -> pending.outcome.complete(null));
    }

    /** One request's interaction, from the queue to its outcome. */
    private static final class Pending {
        private static final int QUEUED = 0;
        private static final int TAKEN = 1;
        private static final int ABANDONED = 2;

        private final Interaction interaction;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private final CompletableFuture<Void> outcome = new CompletableFuture<>();

        private Pending(Interaction interaction) {
            this.interaction = interaction;
        }
    }
}
