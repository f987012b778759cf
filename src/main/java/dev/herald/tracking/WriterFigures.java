package dev.herald.tracking;

/**
 * The interaction writer since start.
 *
 * @param queued        interactions waiting for a batch now
 * @param batches       transactions committed
 * @param written       interactions committed
 * @param failed        interactions answered 500 because their transaction failed or they waited too long
 * @param commitSeconds time spent in committed transactions, from taking a connection to the commit
 */
public record WriterFigures(int queued, long batches, long written, long failed, double commitSeconds) {
}
