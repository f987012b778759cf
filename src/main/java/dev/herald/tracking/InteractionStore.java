package dev.herald.tracking;

import io.helidon.dbclient.DbClient;

/**
 * Interactions in the database. An insert returns only once it is committed (the client runs in auto-commit).
 */
final class InteractionStore {

    private final DbClient db;

    InteractionStore(DbClient db) {
        this.db = db;
    }

    void record(Interaction interaction) {
        db.execute().createNamedInsert("insert-interaction")
                .addParam("notificationId", interaction.notificationId())
                .addParam("projectId", interaction.projectId())
                .addParam("type", interaction.type().wireName())
                .addParam("occurredAt", interaction.occurredAt())
                .addParam("receivedAt", interaction.receivedAt())
                .addParam("endpoint", interaction.endpoint().storedName())
                .addParam("metadata", interaction.metadata())
                .execute();
    }
}
