package dev.herald.tracking;

/**
 * The interaction writer since start.
 *
 * @param queued              interactions waiting for a batch now
 * @param batches             transactions committed
 * @param written             interactions committed
 * @param failed              interactions answered 500 because their transaction failed or they waited too long
 * @param commitSeconds       time spent in committed transactions, from taking a connection to the commit
 * @param inFlight            transactions in flight now
 * @param inFlightLimit       how many may be in flight now, as adapted to the commit time
 * @param maxInFlight         the most that may ever be ({@code tracking.batch.max-in-flight})
 * @param inFlightPeak        the most that were at once since start
 * @param recentCommitSeconds the commit time of the last transactions, a moving average
 * @param repeated            interactions answered 204 without being stored again: their event id was stored before
 *                            (counted in {@code written} too)
 */
public record WriterFigures(int queued, long batches, long written, long failed, double commitSeconds, int inFlight,
                            int inFlightLimit, int maxInFlight, int inFlightPeak, double recentCommitSeconds,
                            long repeated) {
}
