package dev.herald.identity;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;

/**
 * The token keys that verify tokens, all in memory like the API keys (apikey.ActiveKeys): a kid that is not here is
 * unknown or revoked, and made-up kids never reach the database. A revocation applies here before its answer is sent,
 * and on other instances within the change log's staleness; while the log is not fresh, every lookup reads the
 * database.
 */
final class ActiveTokenKeys implements ChangeListener {

    private final TokenKeyStore store;
    private final ChangeLog changes;
    private final boolean enabled;
    private final Map<String, VerifyingKey> keys = new ConcurrentHashMap<>();

    /**
     * @param enabled false: every lookup reads the database (feed.cache.enabled)
     */
    ActiveTokenKeys(TokenKeyStore store, ChangeLog changes, boolean enabled) {
        this.store = store;
        this.changes = changes;
        this.enabled = enabled;
        if (enabled) {
            changes.listen(this);
        }
    }

    /** The key when it exists and is not revoked. */
    Optional<VerifyingKey> find(String kid) {
        if (enabled && changes.isFresh()) {
            return Optional.ofNullable(keys.get(kid));
        }
        return store.findActive(kid).map(VerifyingKey::of);
    }

    /**
     * Synchronized with {@link #reset()}: a read and its replacement happen together, so an older read (the poller's,
     * of an earlier change) never lands after a newer one (a write's own) and takes out a key just created or puts
     * back one just revoked.
     */
    @Override
    public synchronized void changed(Change change) {
        replace(store.activeOfProject(change.projectId()), key -> key.key().projectId().equals(change.projectId()));
    }

    @Override
    public synchronized void reset() {
        replace(store.allActive(), key -> true);
    }

    /** New keys in first, then the ones gone out: a key that stays is never missing in between. */
    private void replace(List<TokenKey> loaded, Predicate<VerifyingKey> inScope) {
        Map<String, VerifyingKey> fresh = loaded.stream()
                .collect(Collectors.toMap(TokenKey::kid, key -> Optional.ofNullable(keys.get(key.kid()))
                        .filter(known -> known.key().equals(key)).orElseGet(() -> VerifyingKey.of(key))));
        keys.putAll(fresh);
        keys.values().removeIf(key -> inScope.test(key) && !fresh.containsKey(key.key().kid()));
    }

}
