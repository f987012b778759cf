package dev.herald.apikey;

import java.util.List;
import java.util.Optional;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * API keys in the database.
 */
public final class ApiKeyStore {

    private final DbClient db;

    public ApiKeyStore(DbClient db) {
        this.db = db;
    }

    public void create(ApiKey key) {
        db.execute().createNamedInsert("insert-api-key")
                .addParam("key", key.key())
                .addParam("projectId", key.projectId())
                .addParam("showPast", key.showPast())
                .addParam("showFuture", key.showFuture())
                .addParam("orderBy", key.orderBy().wireName())
                .addParam("createdAt", key.createdAt())
                .addParam("revokedAt", key.revokedAt())
                .execute();
    }

    public Optional<ApiKey> find(String key) {
        return db.execute().namedGet("select-api-key", key).map(ApiKeyStore::toApiKey);
    }

    public List<ApiKey> listByProject(String projectId) {
        return db.execute().namedQuery("select-project-api-keys", projectId).map(ApiKeyStore::toApiKey).toList();
    }

    public void updateSettings(ApiKey key) {
        db.execute().createNamedUpdate("update-api-key-settings")
                .addParam("key", key.key())
                .addParam("showPast", key.showPast())
                .addParam("showFuture", key.showFuture())
                .addParam("orderBy", key.orderBy().wireName())
                .execute();
    }

    /** Revokes at {@code now}; a key revoked before keeps its first revocation time. */
    public void revoke(String key, long now) {
        db.execute().createNamedUpdate("revoke-api-key").addParam("key", key).addParam("revokedAt", now).execute();
    }

    /** The key when it exists and is not revoked. */
    public Optional<ApiKey> findActive(String key) {
        return db.execute().namedGet("select-active-api-key", key).map(ApiKeyStore::toApiKey);
    }

    private static ApiKey toApiKey(DbRow row) {
        return new ApiKey(Rows.string(row, "api_key"),
                          Rows.string(row, "project_id"),
                          Rows.bool(row, "show_past"),
                          Rows.bool(row, "show_future"),
                          OrderBy.fromWireName(Rows.string(row, "order_by")).orElse(OrderBy.DEFAULT),
                          Rows.longValue(row, "created_at"),
                          Rows.nullableLong(row, "revoked_at"));
    }
}
