package dev.herald.tracking;

import java.time.Duration;

import dev.herald.config.ConfigValues;
import dev.herald.storage.GroupCommit;

import io.helidon.config.Config;

/**
 * {@code tracking.batch.*}: group commit of interactions ({@link BatchingInteractionWriter}), and of per-user state
 * (userstate.UserStateWriter), which takes the same settings.
 *
 * @param enabled     false: one transaction per request, on its own thread (the path before batching)
 * @param linger      how long a writer waits for more interactions once one arrived, while its batch holds fewer than
 *                    recent batches did; 0 writes what is waiting
 * @param maxBatch    the most interactions in one transaction
 * @param queueSize   the most interactions waiting for the writers; past it a request is answered 500 at once
 * @param maxWait     the longest a request waits for its batch before it answers 500
 * @param minInFlight the fewest transactions that may be in flight at once, however their number adapts
 * @param maxInFlight the most transactions in flight at once, each writer's on a connection of its own
 */
public record TrackingBatchSettings(boolean enabled, Duration linger, int maxBatch, int queueSize, Duration maxWait,
                                    int minInFlight, int maxInFlight) {

    /**
     * Within the 2 seconds for a 500 when the database does not answer (docs/behaviour.md#connections-and-errors), with
     * room to send it.
     */
    private static final Duration DEFAULT_MAX_WAIT = Duration.ofMillis(1500);
    /**
     * A bound, not a target: the limit adapts below it (storage.InFlightLimit). MariaDB's commits per second stopped
     * growing past 8 clients on the benchmark machine (docs/performance.md, issue 34); each lane is a connection.
     */
    private static final int DEFAULT_MAX_IN_FLIGHT = 1;

    public static TrackingBatchSettings from(Config batch) {
        TrackingBatchSettings settings = new TrackingBatchSettings(
                ConfigValues.bool(batch.get("enabled"), true),
                ConfigValues.duration(batch.get("linger"), Duration.ZERO),
                ConfigValues.integer(batch.get("max-size"), 500),
                ConfigValues.integer(batch.get("queue-size"), 10_000),
                ConfigValues.duration(batch.get("max-wait"), DEFAULT_MAX_WAIT),
                ConfigValues.integer(batch.get("min-in-flight"), 1),
                ConfigValues.integer(batch.get("max-in-flight"), DEFAULT_MAX_IN_FLIGHT));
        if (settings.linger.isNegative() || settings.maxBatch < 1 || settings.queueSize < 1
                || settings.maxWait.isNegative() || settings.maxWait.isZero()) {
            throw new IllegalArgumentException(
                    "tracking.batch: linger must not be negative; max-size, queue-size and max-wait must be positive");
        }
        if (settings.maxInFlight < 1 || settings.maxInFlight > InteractionStore.MAX_LANES) {
            throw new IllegalArgumentException("tracking.batch.max-in-flight must be between 1 and "
                                                       + InteractionStore.MAX_LANES);
        }
        if (settings.minInFlight < 1 || settings.minInFlight > settings.maxInFlight) {
            throw new IllegalArgumentException("tracking.batch.min-in-flight must be between 1 and "
                                                       + "tracking.batch.max-in-flight (" + settings.maxInFlight + ")");
        }
        return settings;
    }

    /** What a group commit needs of these settings. */
    public GroupCommit.Settings groupCommit() {
        return new GroupCommit.Settings(linger, maxBatch, queueSize, maxWait, minInFlight, maxInFlight);
    }
}
