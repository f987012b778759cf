package dev.herald.webhook;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code webhooks.*} (application.yaml, docs/webhooks.md#delivery-ordering-and-retries).
 *
 * @param enabled                whether this instance runs a delivery worker (events are written either way)
 * @param senders                threads that send, in all: the most deliveries in flight on this instance
 * @param perEndpoint            the most deliveries in flight to one endpoint, on this instance
 * @param perProject             the most in flight to one project's endpoints, on this instance: below
 *                               {@code senders}, so that one project's slow endpoints never hold every sender
 * @param lease                  how long a claim holds a delivery: past it, another instance takes it (an instance
 *                               that died). Longer than the transport's time-out, or a slow answer is sent twice
 * @param pollInterval           how often the worker looks for due deliveries
 * @param disableAfter           an endpoint whose every delivery failed for this long is disabled
 * @param rotationOverlap        how long a rotated secret still signs beside its successor
 * @param retentionDays          events and finished deliveries written longer ago are deleted
 * @param interactionWindow      how long an event of interactions takes more batches before it is sent
 */
public record WebhookSettings(boolean enabled, int senders, int perEndpoint, int perProject, Duration lease,
                             Duration pollInterval, Duration disableAfter, Duration rotationOverlap,
                             int retentionDays, Duration interactionWindow) {

    public WebhookSettings {
        if (senders < 1 || perEndpoint < 1 || perProject < 1 || retentionDays < 1 || !positive(lease)
                || !positive(pollInterval) || !positive(disableAfter) || !positive(rotationOverlap)
                || !positive(interactionWindow)) {
            throw new IllegalArgumentException("webhooks: senders, per-endpoint, per-project and retention-days must be"
                    + " 1 or more, lease, poll-interval, disable-after, rotation-overlap and interaction-window positive");
        }
    }

    /**
     * The lease outlasts an attempt, or another instance takes a delivery whose answer is still awaited and sends it
     * a second time.
     *
     * @param attempt the longest one attempt takes ({@code webhooks.timeout})
     */
    public void requireLeaseBeyond(Duration attempt) {
        if (lease.compareTo(attempt) <= 0) {
            throw new IllegalArgumentException("webhooks.lease (WEBHOOKS_LEASE) is " + lease + "; it must be longer than"
                    + " webhooks.timeout (" + attempt + "), or another instance sends a delivery still awaiting its"
                    + " answer a second time");
        }
    }

    /**
     * Senders kept for projects with nothing in flight, one each: a quarter of {@code senders} (4 of 16). A project
     * that already has a delivery in flight takes a sender only while more than these are free, so with
     * {@code reserve} or fewer projects slow at once, any other project's delivery finds a sender at once.
     */
    public int reserve() {
        return senders / 4;
    }

    public static WebhookSettings from(Config webhooks) {
        return new WebhookSettings(ConfigValues.bool(webhooks.get("enabled"), true),
                                   ConfigValues.integer(webhooks.get("senders"), 16),
                                   ConfigValues.integer(webhooks.get("per-endpoint"), 4),
                                   ConfigValues.integer(webhooks.get("per-project"), 8),
                                   ConfigValues.duration(webhooks.get("lease"), Duration.ofMinutes(2)),
                                   ConfigValues.duration(webhooks.get("poll-interval"), Duration.ofSeconds(1)),
                                   ConfigValues.duration(webhooks.get("disable-after"), Duration.ofDays(5)),
                                   ConfigValues.duration(webhooks.get("rotation-overlap"), Duration.ofHours(24)),
                                   ConfigValues.integer(webhooks.get("retention-days"), 30),
                                   ConfigValues.duration(webhooks.get("interaction-window"), Duration.ofSeconds(1)));
    }

    private static boolean positive(Duration duration) {
        return !duration.isNegative() && !duration.isZero();
    }
}
