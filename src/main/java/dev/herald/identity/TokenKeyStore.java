package dev.herald.identity;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.herald.admin.Ids;
import dev.herald.admin.OldestFirst;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;
import io.helidon.http.Status;

/**
 * Token keys in the database. Every write is announced through the change log: the public API verifies tokens with
 * the active keys it holds in memory ({@link ActiveTokenKeys}).
 */
public final class TokenKeyStore {

    /** Two at least for rotation; a bound, so that a project's keys in memory stay few. */
    static final int MAX_ACTIVE_PER_PROJECT = 10;

    private final DbClient db;
    private final ChangeLog changes;

    public TokenKeyStore(DbClient db, ChangeLog changes) {
        this.db = db;
        this.changes = changes;
    }

    /** @throws ApiException 409 when the project has its most active keys already */
    void create(TokenKey key, AuditEntry audit) {
        changes.write(Change.ofProject(key.projectId()), transaction -> {
            // The project's row lock makes two creations at once count one after the other.
            transaction.namedGet("lock-project", key.projectId());
            long active = transaction.namedGet("count-project-active-user-token-keys", key.projectId())
                    .map(row -> Rows.longValue(row, "active_keys")).orElse(0L);
            if (active >= MAX_ACTIVE_PER_PROJECT) {
                throw ApiException.error(Status.CONFLICT_409, "TOKEN_KEY_LIMIT",
                                         "A project has at most " + MAX_ACTIVE_PER_PROJECT
                                                 + " active token keys: revoke one first");
            }
            transaction.createNamedInsert("insert-user-token-key")
                    .addParam("kid", key.kid())
                    .addParam("projectId", key.projectId())
                    .addParam("algorithm", key.algorithm().name())
                    .addParam("secret", key.secret())
                    .addParam("publicKey", key.publicKey())
                    .addParam("createdAt", key.createdAt())
                    .execute();
            AuditLog.record(transaction, audit);
        });
    }

    Optional<TokenKey> find(String kid) {
        if (!Ids.isWellFormed(kid)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-user-token-key", kid).map(TokenKeyStore::toKey);
    }

    /** The key when it exists and is not revoked. */
    Optional<TokenKey> findActive(String kid) {
        if (!Ids.isWellFormed(kid)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-active-user-token-key", kid).map(TokenKeyStore::toKey);
    }

    List<TokenKey> allActive() {
        return db.execute().namedQuery("select-active-user-token-keys").map(TokenKeyStore::toKey).toList();
    }

    List<TokenKey> activeOfProject(String projectId) {
        return db.execute().namedQuery("select-project-active-user-token-keys", projectId).map(TokenKeyStore::toKey)
                .toList();
    }

    private static final OldestFirst<TokenKey> PAGES = new OldestFirst<>("select-project-user-token-keys-page",
            TokenKeyStore::toKey, TokenKey::createdAt, TokenKey::kid, key -> key.kid().length());

    /** Oldest first, revoked ones included. */
    Page<TokenKey> listByProject(String projectId, PageRequest page) {
        return PAGES.read(db, page, Map.of("projectId", projectId));
    }

    /** Revokes at {@code now}; only the revocation that happened leaves an audit line. */
    void revoke(TokenKey seen, long now, AuditEntry audit) {
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            long revoked = transaction.createNamedUpdate("revoke-user-token-key")
                    .addParam("kid", seen.kid())
                    .addParam("revokedAt", now)
                    .execute();
            if (revoked > 0) {
                AuditLog.record(transaction, audit);
            }
        });
    }

    private static TokenKey toKey(DbRow row) {
        return new TokenKey(Rows.string(row, "kid"),
                            Rows.string(row, "project_id"),
                            TokenAlgorithm.fromWireName(Rows.string(row, "algorithm")).orElseThrow(),
                            Rows.string(row, "secret"),
                            Rows.string(row, "public_key"),
                            Rows.longValue(row, "created_at"),
                            Rows.nullableLong(row, "revoked_at"));
    }
}
