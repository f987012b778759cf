package dev.herald.tracking;

import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.logging.FailureLog;
import dev.herald.storage.ServingPool;
import dev.herald.storage.Transactions;

/**
 * One transaction per interaction, on the request's own thread: the path before batching, kept behind
 * {@code tracking.batch.enabled: false} as the baseline the benchmark compares with, and for debugging.
 */
final class DirectInteractionWriter implements InteractionWriter {

    private final ServingPool pool;
    private final InteractionStore store;
    private final LongAdder written = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder commitNanos = new LongAdder();
    private final FailureLog failures = new FailureLog("interaction(s) not stored, answered 500");

    DirectInteractionWriter(ServingPool pool, InteractionStore store) {
        this.pool = pool;
        this.store = store;
    }

    @Override
    public void record(Interaction interaction) {
        long started = System.nanoTime();
        try {
            Transactions.run(pool, connection -> store.write(connection, 0, List.of(interaction)));
        } catch (SQLException | RuntimeException e) {
            failed.increment();
            failures.failed(1, e);
            throw TrackingErrors.notStored();
        }
        commitNanos.add(System.nanoTime() - started);
        written.increment();
    }

    @Override
    public WriterFigures figures() {
        long committed = written.sum();
        return new WriterFigures(0, committed, committed, failed.sum(), commitNanos.sum() / 1e9, 0, 0, 0, 0, 0,
                                 store.repeatedEvents());
    }

    @Override
    public void close() {
        // Nothing is held: every interaction was committed or failed on its request's thread.
    }
}
