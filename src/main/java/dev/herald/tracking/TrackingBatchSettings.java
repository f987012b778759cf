package dev.herald.tracking;

import java.time.Duration;

import dev.herald.config.ConfigValues;
import dev.herald.storage.GroupCommit;

import io.helidon.config.Config;

/**
 * {@code tracking.batch.*}: group commit of interactions ({@link BatchingInteractionWriter}), and of per-user state
 * (userstate.UserStateWriter), which takes the same settings.
 *
 * @param enabled   false: one transaction per request, on its own thread (the path before batching)
 * @param linger    how long the writer waits for more interactions once one arrived; 0 writes what is waiting
 * @param maxBatch  the most interactions in one transaction
 * @param queueSize the most interactions waiting for the writer; past it a request is answered 500 at once
 * @param maxWait   the longest a request waits for its batch before it answers 500
 */
public record TrackingBatchSettings(boolean enabled, Duration linger, int maxBatch, int queueSize, Duration maxWait) {

    /**
     * Within the 2 seconds for a 500 when the database does not answer (docs/behaviour.md#connections-and-errors), with
     * room to send it.
     */
    private static final Duration DEFAULT_MAX_WAIT = Duration.ofMillis(1500);

    public static TrackingBatchSettings from(Config batch) {
        TrackingBatchSettings settings = new TrackingBatchSettings(
                ConfigValues.bool(batch.get("enabled"), true),
                ConfigValues.duration(batch.get("linger"), Duration.ZERO),
                ConfigValues.integer(batch.get("max-size"), 500),
                ConfigValues.integer(batch.get("queue-size"), 10_000),
                ConfigValues.duration(batch.get("max-wait"), DEFAULT_MAX_WAIT));
        if (settings.linger.isNegative() || settings.maxBatch < 1 || settings.queueSize < 1
                || settings.maxWait.isNegative() || settings.maxWait.isZero()) {
            throw new IllegalArgumentException(
                    "tracking.batch: linger must not be negative; max-size, queue-size and max-wait must be positive");
        }
        return settings;
    }

    /** What a group commit needs of these settings. */
    public GroupCommit.Settings groupCommit() {
        return new GroupCommit.Settings(linger, maxBatch, queueSize, maxWait);
    }
}
