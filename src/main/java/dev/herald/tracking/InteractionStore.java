package dev.herald.tracking;

import java.util.concurrent.ThreadLocalRandom;

import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;

/**
 * Interactions in the database, with the daily totals that stats read. Both are written in one transaction, so the
 * totals always agree with the interactions, and {@link #record} returns only once it is committed.
 */
final class InteractionStore {

    private static final long DAY_MILLIS = 86_400_000L;
    /**
     * Rows each daily total is split over. With one row, simultaneous interactions with one notification queued
     * on its lock until each commit: tracking fell from 4,990 to 1,959 requests/s (docs/performance.md).
     */
    static final int SHARDS = 8;

    private final DbClient db;

    InteractionStore(DbClient db) {
        this.db = db;
    }

    void record(Interaction interaction) {
        Transactions.run(db, transaction -> {
            transaction.createNamedInsert("insert-interaction")
                    .addParam("notificationId", interaction.notificationId())
                    .addParam("projectId", interaction.projectId())
                    .addParam("type", interaction.type().wireName())
                    .addParam("occurredAt", interaction.occurredAt())
                    .addParam("receivedAt", interaction.receivedAt())
                    .addParam("endpoint", interaction.endpoint().storedName())
                    .addParam("metadata", interaction.metadata())
                    .execute();
            transaction.createNamedDmlStatement("count-daily-interaction")
                    .addParam("projectId", interaction.projectId())
                    .addParam("dayNumber", Math.floorDiv(interaction.occurredAt(), DAY_MILLIS))
                    .addParam("notificationId", interaction.notificationId())
                    .addParam("type", interaction.type().wireName())
                    .addParam("shard", ThreadLocalRandom.current().nextInt(SHARDS))
                    .execute();
        });
    }
}
