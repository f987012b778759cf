package dev.herald.apikey;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.OldestFirst;
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
        changes.write(Change.ofProject(key.projectId()), transaction -> {
            feedBound.lockProject(transaction, key.projectId());
            transaction.createNamedInsert("insert-api-key")
                    .addParam("key", key.key())
                    .addParam("projectId", key.projectId())
                    .addParam("showPast", key.showPast())
                    .addParam("showFuture", key.showFuture())
                    .addParam("orderBy", key.orderBy().wireName())
                    .addParam("createdAt", key.createdAt())
                    .addParam("revokedAt", key.revokedAt())
                    .addParam("requireUserToken", key.requireUserToken())
                    .execute();
            AuditLog.record(transaction, audit);
            requireFeedBound(transaction, key, key.createdAt());
        });
    }

    public Optional<ApiKey> find(String key) {
        if (!ApiKey.isWellFormed(key)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-api-key", key).map(ApiKeyStore::toApiKey);
    }

    private static final OldestFirst<ApiKey> PAGES = new OldestFirst<>("select-project-api-keys-page",
            ApiKeyStore::toApiKey, ApiKey::createdAt, ApiKey::key, key -> key.key().length());

    /** Oldest first, revoked ones included. */
    public Page<ApiKey> listByProject(String projectId, PageRequest page) {
        return PAGES.read(db, page, Map.of("projectId", projectId));
    }

    /**
     * Changes the key's settings as its write's transaction finds them, locked until the write commits, so that the
     * audit line tells what the change replaced.
     *
     * @param seen   the key as the request found it, for its value and project (neither changes)
     * @param change the request's settings applied to the key as found
     * @param now    the time of the change, for the feed's bound when the key now shows the past
     * @param audit  the line of the change, from the key as found and as written
     * @return the key as written
     * @throws dev.herald.api.ApiException 409 when the key would then have too large a feed
     */
    public ApiKey updateSettings(ApiKey seen, UnaryOperator<ApiKey> change, long now,
                                 BiFunction<ApiKey, ApiKey, AuditEntry> audit) {
        AtomicReference<ApiKey> written = new AtomicReference<>();
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            feedBound.lockProject(transaction, seen.projectId());
            ApiKey before = locked(transaction, seen.key());
            ApiKey key = change.apply(before);
            transaction.createNamedUpdate("update-api-key-settings")
                    .addParam("key", key.key())
                    .addParam("showPast", key.showPast())
                    .addParam("showFuture", key.showFuture())
                    .addParam("orderBy", key.orderBy().wireName())
                    .addParam("requireUserToken", key.requireUserToken())
                    .execute();
            AuditLog.recordChange(transaction, audit.apply(before, key));
            requireFeedBound(transaction, key, now);
            written.set(key);
        });
        return written.get();
    }

    /** When the key shows the past (and is not revoked), the project's feed must stay within its bound at now. */
    private void requireFeedBound(DbExecute transaction, ApiKey key, long now) {
        if (key.showPast() && key.revokedAt() == null) {
            feedBound.require(transaction, key.projectId(), now);
        }
    }

    /**
     * Revokes at {@code now}; a key revoked before keeps its first revocation time, and only the revocation that
     * happened leaves a line: of two at once, the second finds the key revoked.
     */
    public void revoke(ApiKey seen, long now, AuditEntry audit) {
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            int revoked = (int) transaction.createNamedUpdate("revoke-api-key")
                    .addParam("key", seen.key())
                    .addParam("revokedAt", now)
                    .execute();
            if (revoked > 0) {
                AuditLog.record(transaction, audit);
            }
        });
    }

    private static ApiKey locked(DbExecute transaction, String key) {
        return transaction.namedGet("select-api-key-for-update", key).map(ApiKeyStore::toApiKey)
                .orElseThrow(() -> AdminRequests.notFound("API key"));
    }

    /** The key when it exists and is not revoked. */
    public Optional<ApiKey> findActive(String key) {
        if (!ApiKey.isWellFormed(key)) {
            return Optional.empty();
        }
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
                          Rows.nullableLong(row, "revoked_at"),
                          Rows.bool(row, "require_user_token"));
    }
}
