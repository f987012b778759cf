package dev.herald.changes;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import io.helidon.dbclient.DbExecute;

/**
 * An instance's management writes, committed in turns: whoever takes the turn commits every write waiting at that
 * moment, in one transaction, and the writers whose writes it took only wait for the outcome.
 *
 * <p>Every management write changes the change log's one counter row. On a Galera cluster, writes through instances
 * on different nodes meet at certification and the loser runs again; one write per turn made each instance's
 * queue as long as its burst, and 30 writes at once through three instances on three nodes had 3 to 20 of 90
 * waiting more than 10 s for their turn on a loaded machine (cluster/check.sh). A turn that takes them all leaves one
 * transaction per instance in the contest, however many writes wait.
 *
 * <p>The writes of a turn run in the order they came, as if one after the other: each sees what the ones before it
 * wrote. One that fails on its own (a feed that would grow past its bound, a row gone) is answered with its failure,
 * and the others, rolled back with it, run again without it. A failure of the transaction itself (the database gone
 * during the commit, whose outcome is unknown) answers every write of the turn, and none runs again.
 */
final class GroupedWrites {

    /** A turn's writes stay one transaction of a bounded size; the rest wait for the next turn. */
    static final int MOST_PER_TURN = 50;

    /** Commits writes in one transaction, or throws; {@link FailedWrite} names the one that failed on its own. */
    @FunctionalInterface
    interface Committer {
        void commit(List<Write> writes);
    }

    /** One writer's write; {@link #run} completes it once. */
    static final class Write {
        private final Change change;
        private final Consumer<DbExecute> work;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile RuntimeException failure;

        Write(Change change, Consumer<DbExecute> work) {
            this.change = change;
            this.work = work;
        }

        Change change() {
            return change;
        }

        /** Runs the writer's statements in the turn's transaction, marking a failure of theirs as this write's. */
        void applyIn(DbExecute transaction) {
            try {
                work.accept(transaction);
            } catch (RuntimeException e) {
                throw new FailedWrite(this, e);
            }
        }

        private void complete(RuntimeException outcome) {
            failure = outcome;
            done.countDown();
        }

        private boolean isDone() {
            return done.getCount() == 0;
        }
    }

    /**
     * The failure of one write's own statements. Its cause decides whether the turn's transaction runs again whole
     * (a conflict, storage.Transactions); if it is thrown from the turn, that write alone failed.
     */
    static final class FailedWrite extends RuntimeException {
        private final transient Write write;

        FailedWrite(Write write, RuntimeException cause) {
            super(cause.getMessage(), cause, false, false);
            this.write = write;
        }
    }

    private final ReentrantLock turn = new ReentrantLock();
    private final ConcurrentLinkedQueue<Write> waiting = new ConcurrentLinkedQueue<>();
    private final Committer committer;
    private final Duration turnWait;

    /**
     * @param turnWait past this without a turn or a turn that took the write, it is refused as if the database had
     *                 not answered: a burst is slowed, not refused, unless the database is that slow
     */
    GroupedWrites(Committer committer, Duration turnWait) {
        this.committer = committer;
        this.turnWait = turnWait;
    }

    /** Returns once the write is committed, or throws why it was not. */
    void run(Write write) {
        waiting.add(write);
        long deadline = System.nanoTime() + turnWait.toNanos();
        while (!write.isDone()) {
            if (!takeTurn(deadline)) {
                if (waiting.remove(write)) {
                    throw Thread.currentThread().isInterrupted()
                            ? new IllegalStateException("Interrupted while waiting for a turn to write")
                            : new IllegalStateException("No turn to write within " + turnWait,
                                    new SQLTransientConnectionException("management writes before it took longer"));
                }
                // A turn under way took it: its transaction ends within its own bounds.
                awaitUninterruptibly(write);
                break;
            }
            try {
                // Only a turn takes writes, and it completes every one it takes before it ends.
                if (!write.isDone()) {
                    commitWaiting();
                }
            } finally {
                turn.unlock();
            }
        }
        if (write.failure != null) {
            throw write.failure;
        }
    }

    /** Writes waiting for a turn; for tests. */
    int waiting() {
        return waiting.size();
    }

    private boolean takeTurn(long deadline) {
        try {
            return turn.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void commitWaiting() {
        List<Write> writes = new ArrayList<>();
        for (Write next; writes.size() < MOST_PER_TURN && (next = waiting.poll()) != null; ) {
            writes.add(next);
        }
        try {
            while (!writes.isEmpty()) {
                try {
                    committer.commit(writes);
                    writes.forEach(write -> write.complete(null));
                    return;
                } catch (FailedWrite e) {
                    e.write.complete((RuntimeException) e.getCause());
                    writes.remove(e.write);
                } catch (RuntimeException e) {
                    writes.forEach(write -> write.complete(e));
                    return;
                }
            }
        } finally {
            // An Error on the way: no writer may wait for ever for a turn that ended.
            for (Write write : writes) {
                if (!write.isDone()) {
                    write.complete(new IllegalStateException("The turn that took this write failed"));
                }
            }
        }
    }

    private static void awaitUninterruptibly(Write write) {
        boolean interrupted = false;
        while (true) {
            try {
                write.done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
