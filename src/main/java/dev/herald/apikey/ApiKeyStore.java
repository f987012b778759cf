package dev.herald.apikey;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.feed.FeedBound;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

/**
 * API keys in the database. Every write is announced through the change log: the public API reads keys from memory.
 */
public final class ApiKeyStore {

    private final DbClient db;
    private final ChangeLog changes;
    private final FeedBound feedBound;

    public ApiKeyStore(DbClient db, ChangeLog changes, FeedBound feedBound) {
        this.db = db;
        this.changes = changes;
        this.feedBound = feedBound;
    }

    /** @throws dev.herald.api.ApiException 409 when a key that shows the past would have too large a feed */
    public void create(ApiKey key, AuditEntry audit) {
        writeWithinFeedBound(key, key.createdAt(), audit, transaction -> transaction.createNamedInsert("insert-api-key")
                .addParam("key", key.key())
                .addParam("projectId", key.projectId())
                .addParam("showPast", key.showPast())
                .addParam("showFuture", key.showFuture())
                .addParam("orderBy", key.orderBy().wireName())
                .addParam("createdAt", key.createdAt())
                .addParam("revokedAt", key.revokedAt())
                .execute());
    }

    public Optional<ApiKey> find(String key) {
        return db.execute().namedGet("select-api-key", key).map(ApiKeyStore::toApiKey);
    }

    /** Oldest first, revoked ones included. */
    public Page<ApiKey> listByProject(String projectId, PageRequest page) {
        return Page.read(page, new PageRequest.Cursor(-1, "-"), (after, limit) -> db.execute()
                .createNamedQuery("select-project-api-keys-page")
                .addParam("projectId", projectId)
                .addParam("createdAt", after.createdAt())
                .addParam("sameCreatedAt", after.createdAt())
                .addParam("after", after.tiebreak())
                .addParam("limit", limit)
                .execute()
                .map(ApiKeyStore::toApiKey)
                .map(key -> new Page.Item<>(key, new PageRequest.Cursor(key.createdAt(), key.key())))
                .toList(), key -> key.key().length());
    }

    /**
     * @param now the time of the change, for the feed's bound when the key now shows the past
     * @throws dev.herald.api.ApiException 409 when the key would then have too large a feed
     */
    public void updateSettings(ApiKey key, long now, AuditEntry audit) {
        writeWithinFeedBound(key, now, audit, transaction -> transaction.createNamedUpdate("update-api-key-settings")
                .addParam("key", key.key())
                .addParam("showPast", key.showPast())
                .addParam("showFuture", key.showFuture())
                .addParam("orderBy", key.orderBy().wireName())
                .execute());
    }

    /**
     * A write of the key in the project's turn: when the key shows the past (and is not revoked), the project's
     * feed must stay within its bound at {@code now}, counted after the write.
     */
    private void writeWithinFeedBound(ApiKey key, long now, AuditEntry audit, Consumer<DbExecute> write) {
        changes.write(Change.ofProject(key.projectId()), transaction -> {
            feedBound.lockProject(transaction, key.projectId());
            write.accept(transaction);
            AuditLog.record(transaction, audit);
            if (key.showPast() && key.revokedAt() == null) {
                feedBound.require(transaction, key.projectId(), now);
            }
        });
    }

    /** Revokes at {@code now}; a key revoked before keeps its first revocation time. */
    public void revoke(ApiKey key, long now, AuditEntry audit) {
        changes.write(Change.ofProject(key.projectId()), transaction -> {
            transaction.createNamedUpdate("revoke-api-key")
                    .addParam("key", key.key())
                    .addParam("revokedAt", now)
                    .execute();
            AuditLog.record(transaction, audit);
        });
    }

    /** The key when it exists and is not revoked. */
    public Optional<ApiKey> findActive(String key) {
        return db.execute().namedGet("select-active-api-key", key).map(ApiKeyStore::toApiKey);
    }

    List<ApiKey> allActive() {
        return db.execute().namedQuery("select-active-api-keys").map(ApiKeyStore::toApiKey).toList();
    }

    List<ApiKey> activeOfProject(String projectId) {
        return db.execute().namedQuery("select-project-active-api-keys", projectId).map(ApiKeyStore::toApiKey).toList();
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
