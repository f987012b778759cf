package dev.herald.apikey;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;

/**
 * The keys the public API accepts, all of them in memory: a key that is not here is unknown or revoked, and a flood
 * of made-up keys never reaches the database. Only management writes add keys, so the map grows with what
 * operators create (some 250 bytes a key), never with what clients send. Loaded at start, a project's keys again
 * after each change to it; while the change log is not fresh, every lookup goes to the database.
 */
public final class ActiveKeys implements ChangeListener {

    private final ApiKeyStore store;
    private final ChangeLog changes;
    private final boolean enabled;
    private final Map<String, ApiKey> keys = new ConcurrentHashMap<>();

    /**
     * @param enabled false: every lookup reads the database (feed.cache.enabled)
     */
    public ActiveKeys(ApiKeyStore store, ChangeLog changes, boolean enabled) {
        this.store = store;
        this.changes = changes;
        this.enabled = enabled;
        if (enabled) {
            changes.listen(this);
        }
    }

    /** The key when it exists and is not revoked. */
    public Optional<ApiKey> find(String key) {
        if (enabled && changes.isFresh()) {
            return Optional.ofNullable(keys.get(key));
        }
        return store.findActive(key);
    }

    /**
     * Synchronized with {@link #reset()}: a read and its replacement happen together, so an older read (the poller's,
     * of an earlier change) never lands after a newer one (a write's own) and takes out a key just created or puts
     * back one just revoked.
     */
    @Override
    public synchronized void changed(Change change) {
        replace(store.activeOfProject(change.projectId()), key -> key.projectId().equals(change.projectId()));
    }

    @Override
    public synchronized void reset() {
        replace(store.allActive(), key -> true);
    }

    /** New keys in first, then the ones gone out: a key that stays is never missing in between. */
    private void replace(List<ApiKey> loaded, Predicate<ApiKey> inScope) {
        Map<String, ApiKey> fresh = loaded.stream().collect(Collectors.toMap(ApiKey::key, Function.identity()));
        keys.putAll(fresh);
        keys.values().removeIf(key -> inScope.test(key) && !fresh.containsKey(key.key()));
    }
}
