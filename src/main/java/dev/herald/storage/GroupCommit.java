package dev.herald.storage;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import dev.herald.logging.FailureLog;

/**
 * Group commit: a writer takes the items that requests hand in, and writes all that are waiting (up to
 * {@code maxBatch} rows, after lingering up to {@code linger} for more while it holds fewer requests than recent
 * batches did) in one transaction; every request of a batch gets its answer only after that commit, and a 500 if it
 * failed. An item is never split: a request's rows are committed together, in one transaction (a "mark all read" is
 * one write).
 *
 * <p>Several writers, each a thread with a connection of its own (a lane), take batches from the same queue, so that
 * several transactions are in flight at once: one writer waited for each commit in turn, and bounded tracking by one
 * commit's latency (1.4 ms on MariaDB, some 13,000 interactions a second at 18 a batch), while the database commits
 * several transactions in one flush. How many write at once adapts to what the database commits a second
 * ({@link InFlightLimit}), up to {@code maxInFlight}. Two transactions in flight may change the same rows: each lane writes rows of its own where
 * it can (the daily totals, by the lane {@link BatchWrite} is given), every write orders its rows the same way, and a
 * transaction the database rolled back as a deadlock's victim runs again whole ({@link ExactlyOnceCommit}).
 *
 * <p>The queue is bounded: when it is full, a request is answered 500 at once rather than queued without limit. A
 * request waits at most {@code maxWait} for its batch (a 500 within 2 seconds when the database does not answer,
 * docs/behaviour.md#connections-and-errors); one that gave up before its batch was taken is left out of it, so it is
 * neither stored nor answered 204. One that gave up while its batch was being written may still be stored: more
 * stored than answered, never the other way round.
 *
 * <p>Stop order ({@link #close()}): take nothing more, write what was taken, then return; the pool closes after.
 *
 * @param <T> what one request hands in
 */
public final class GroupCommit<T> implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(GroupCommit.class.getName());
    /** Made once: its stack trace is never read, the request answers {@code notStored}. */
    private static final Exception WAITED_TOO_LONG = new TimeoutException("waited too long for a batch");

    /**
     * Writes a batch in the connection's transaction, with its id ({@link BatchId}: at the head of its script, or by a
     * statement of its own), and may commit it itself (a script that ends in COMMIT). {@code lane} is the writer's,
     * from 0 to {@code maxInFlight - 1}: no other transaction in flight has it.
     */
    @FunctionalInterface
    public interface BatchWrite<T> {
        void writeAndCommit(Connection connection, int lane, BatchId id, List<T> batch) throws SQLException;
    }

    /**
     * @param linger      how long a writer waits for more once one item arrived, while its batch holds fewer items than
     *                    its recent batches did; 0 writes what is waiting
     * @param maxBatch    the most rows in one transaction (an item heavier than this alone is written alone)
     * @param queueSize   the most items waiting for the writers; past it a request is answered 500 at once
     * @param maxWait     the longest a request waits for its batch before it answers 500
     * @param minInFlight the fewest transactions that may be in flight at once, however the limit adapts
     * @param maxInFlight the most transactions in flight at once: writers, and the connections they hold
     */
    public record Settings(Duration linger, int maxBatch, int queueSize, Duration maxWait, int minInFlight,
                           int maxInFlight) {
    }

    /**
     * @param queued              items waiting for a batch now
     * @param batches             transactions committed
     * @param written             items committed
     * @param failed              items answered 500 because their transaction failed or they waited too long
     * @param commitSeconds       time spent in committed transactions, from taking a connection to the commit
     * @param inFlight            transactions in flight now
     * @param inFlightLimit       how many may be in flight now, as adapted to the interactions committed a second
     * @param maxInFlight         the most that may ever be ({@code maxInFlight} of the settings)
     * @param inFlightPeak        the most that were at once since start
     * @param recentCommitSeconds the commit time of the last transactions, a moving average
     */
    public record Figures(int queued, long batches, long written, long failed, double commitSeconds, int inFlight,
                          int inFlightLimit, int maxInFlight, int inFlightPeak, double recentCommitSeconds) {
    }

    private final ServingPool pool;
    private final BatchWrite<T> write;
    private final Settings settings;
    private final ToIntFunction<T> rows;
    private final Supplier<RuntimeException> notStored;
    private final BlockingQueue<Pending<T>> queue;
    private final InFlightLimit limit;
    private final List<Thread> writers = new ArrayList<>();
    private final WaitDeadlines<Pending<T>> deadlines;
    private final FailureLog failures;
    private final LongAdder batches = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder commitNanos = new LongAdder();
    /**
     * By lane, the requests its recent batches held, an eighth less after each smaller one: a batch that holds as many
     * stops lingering. Under a steady load every client waiting on a batch is in it by then, and the rest of the linger
     * would only delay their answers; after the load falls, batches linger less and less until this has come down to
     * them. Requests, not rows: one "mark all read" of many ids is one client. Each slot is its lane's thread's alone.
     * It starts at 0: a load that never queues behind a commit has nothing for a linger to gather.
     */
    private final int[] recentItems;
    private volatile boolean accepting = true;

    /**
     * @param name             names the writers' threads ({@code herald-<name>-writer-<lane>}) and what their log
     *                         lines count
     * @param poolName         the writers' own pool (a connection each, auto-commit off), taken from the serving pool
     * @param driverProperties what the writer's connection needs of the driver (scripts)
     * @param rows             how many rows an item writes, for {@code maxBatch}
     * @param notStored        the answer to a request whose item is not committed, or may not be
     */
    public GroupCommit(String name, String poolName, ServingPool servingPool, Map<String, String> driverProperties,
                       BatchWrite<T> write, Settings settings, ToIntFunction<T> rows,
                       Supplier<RuntimeException> notStored) {
        this.pool = servingPool.transactionalPool(poolName, settings.maxInFlight(), driverProperties);
        this.write = write;
        this.settings = settings;
        this.rows = rows;
        this.notStored = notStored;
        this.failures = new FailureLog(name + "(s) not stored, answered 500");
        this.queue = new ArrayBlockingQueue<>(settings.queueSize());
        this.limit = new InFlightLimit(settings.minInFlight(), settings.maxInFlight());
        this.deadlines = new WaitDeadlines<>("herald-" + name + "-deadlines", this::giveUp);
        this.recentItems = new int[settings.maxInFlight()];
        for (int lane = 0; lane < settings.maxInFlight(); lane++) {
            int writerLane = lane;
            // Daemons: close() drains them on a stop, and a start that fails after this point must still let the
            // JVM exit.
            writers.add(Thread.ofPlatform().name("herald-" + name + "-writer-" + lane).daemon()
                                .start(() -> writeUntilClosed(writerLane)));
        }
    }

    /** Returns once the item is committed; throws {@code notStored} when it is not, or may not be. */
    public void submit(T item) {
        Pending<T> pending = new Pending<>(item, System.nanoTime() + settings.maxWait().toNanos());
        if (!accepting || !queue.offer(pending)) {
            failed.increment();
            failures.failed(1, new IllegalStateException(accepting ? "the writer's queue is full ("
                    + settings.queueSize() + ")" : "Herald is stopping"));
            throw notStored.get();
        }
        deadlines.add(pending);
        try {
            // No timeout here: the deadlines' keeper ends the wait at maxWait (WaitDeadlines).
            pending.outcome.get();
        } catch (ExecutionException e) {
            throw notStored.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw notStored.get();
        }
    }

    /**
     * A request's wait ended by its deadline: left out of its batch if that was not taken yet, and answered 500
     * either way. One whose batch is being written may still be stored: more stored than answered, never fewer.
     */
    private void giveUp(Pending<T> pending) {
        if (pending.state.compareAndSet(Pending.QUEUED, Pending.ABANDONED)) {
            failed.increment();
            failures.failed(1, new IllegalStateException("waited " + settings.maxWait().toMillis()
                    + " ms for a batch"));
        }
        pending.outcome.completeExceptionally(WAITED_TOO_LONG);
    }

    public Figures figures() {
        return new Figures(queue.size(), batches.sum(), written.sum(), failed.sum(), commitNanos.sum() / 1e9,
                           limit.inFlight(), limit.limit(), limit.max(), limit.peak(), limit.recentCommitSeconds());
    }

    @Override
    public void close() {
        accepting = false;
        try {
            for (Thread writer : writers) {
                writer.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Every batch taken is answered; what a writer could not take any more is answered 500.
        deadlines.close();
        pool.close();
    }

    /** One lane's writer. Once closed, every lane drains, whatever the limit. */
    private void writeUntilClosed(int lane) {
        List<Pending<T>> batch = new ArrayList<>();
        // Taken from the queue but past the last batch's bound: this lane's next batch's first.
        Pending<T> carried = null;
        while (accepting || !queue.isEmpty() || carried != null) {
            try {
                if (carried == null && accepting && !limit.admits(lane)) {
                    limit.awaitTurn(lane, 100);
                    continue;
                }
                Pending<T> first = carried != null ? carried : queue.poll(100, TimeUnit.MILLISECONDS);
                carried = null;
                if (first == null) {
                    continue;
                }
                carried = gather(lane, first, batch);
                write(lane, batch);
            } catch (InterruptedException e) {
                // Only close() stops this thread, by the flag: the queue still holds acknowledged work.
                LOGGER.log(Level.DEBUG, "Writer interrupted; it stops only when closed");
            } finally {
                batch.clear();
            }
        }
    }

    /**
     * Everything waiting, then up to {@code linger} for more while the batch holds fewer requests than the lane's
     * recent ones did, up to {@code maxBatch} rows; only what is still wanted. An item that would pass the bound is
     * returned, to be the lane's next batch's first.
     */
    private Pending<T> gather(int lane, Pending<T> first, List<Pending<T>> batch) throws InterruptedException {
        Pending<T> carried = null;
        batch.add(first);
        int taken = rows.applyAsInt(first.item);
        long lingerNanos = settings.linger().toNanos();
        long deadline = System.nanoTime() + lingerNanos;
        int expected = recentItems[lane];
        while (taken < settings.maxBatch()) {
            Pending<T> next = queue.poll();
            if (next == null) {
                long left = deadline - System.nanoTime();
                next = lingerNanos > 0 && left > 0 && batch.size() < expected
                        ? queue.poll(left, TimeUnit.NANOSECONDS) : null;
                if (next == null) {
                    break;
                }
            }
            int weight = rows.applyAsInt(next.item);
            if (taken + weight > settings.maxBatch()) {
                carried = next;
                break;
            }
            batch.add(next);
            taken += weight;
        }
        batch.removeIf(pending -> !pending.state.compareAndSet(Pending.QUEUED, Pending.TAKEN));
        recentItems[lane] = Math.max(batch.size(), expected - (expected + 7) / 8);
        return carried;
    }

    private void write(int lane, List<Pending<T>> batch) {
        if (batch.isEmpty()) {
            return;
        }
        List<T> items = new ArrayList<>(batch.size());
        batch.forEach(pending -> items.add(pending.item));
        long started = System.nanoTime();
        limit.started();
        try {
            ExactlyOnceCommit.run(pool, (connection, id) -> write.writeAndCommit(connection, lane, id, items),
                                  settings.maxWait());
        } catch (Exception e) {
            failed.add(batch.size());
            failures.failed(batch.size(), e);
            batch.forEach(pending -> pending.outcome.completeExceptionally(e));
            return;
        } finally {
            limit.ended();
        }
        long took = System.nanoTime() - started;
        limit.committed(took, batch.size(), !queue.isEmpty());
        commitNanos.add(took);
        batches.increment();
        written.add(batch.size());
        batch.forEach(pending -> pending.outcome.complete(null));
    }

    /** One request's item, from the queue to its outcome. */
    private static final class Pending<T> implements WaitDeadlines.Waiter {
        private static final int QUEUED = 0;
        private static final int TAKEN = 1;
        private static final int ABANDONED = 2;

        private final T item;
        private final long deadline;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private final CompletableFuture<Void> outcome = new CompletableFuture<>();

        private Pending(T item, long deadline) {
            this.item = item;
            this.deadline = deadline;
        }

        @Override
        public long deadline() {
            return deadline;
        }

        @Override
        public boolean answered() {
            return outcome.isDone();
        }
    }
}
