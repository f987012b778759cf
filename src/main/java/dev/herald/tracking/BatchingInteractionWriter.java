package dev.herald.tracking;

import dev.herald.storage.GroupCommit;
import dev.herald.storage.ServingPool;

/**
 * Interactions through a group commit ({@link GroupCommit}): every request of a batch gets its 204 only after its
 * transaction's commit, and a 500 if it failed. Several transactions may be in flight, each of its writer's lane: each
 * lane adds to daily total rows of its own, so none waits for another's lock on a day's total.
 */
final class BatchingInteractionWriter implements InteractionWriter {

    private final GroupCommit<Interaction> writer;
    private final InteractionStore store;

    /**
     * @param servingPool the writers take a pool of their own from it: a connection each, auto-commit off
     */
    BatchingInteractionWriter(ServingPool servingPool, InteractionStore store, TrackingBatchSettings settings) {
        this.store = store;
        this.writer = new GroupCommit<>("interaction", "herald-writer", servingPool, store.scriptProperties(),
                                        store::writeAndCommit, settings.groupCommit(), interaction -> 1,
                                        TrackingErrors::notStored);
    }

    @Override
    public void record(Interaction interaction) {
        writer.submit(interaction);
    }

    @Override
    public WriterFigures figures() {
        GroupCommit.Figures figures = writer.figures();
        return new WriterFigures(figures.queued(), figures.batches(), figures.written(), figures.failed(),
                                 figures.commitSeconds(), figures.inFlight(), figures.inFlightLimit(),
                                 figures.maxInFlight(), figures.inFlightPeak(), figures.recentCommitSeconds(),
                                 store.repeatedEvents());
    }

    @Override
    public void close() {
        writer.close();
    }
}
