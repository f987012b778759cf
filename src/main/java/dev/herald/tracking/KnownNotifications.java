package dev.herald.tracking;

import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;
import dev.herald.notification.NotificationStore;

/**
 * The project of each notification tracked lately, so that the unknown-notification check
 * (docs/api.md, POST /api/v1/public/track/{notificationId}, check 7) costs a known notification no round trip. Only ids
 * found in the database are kept; a deletion, here or on another instance, drops its id within the change log's bound.
 * Bounded: when full, about a tenth of the ids go, in the map's own order (as good as random), which needs no
 * bookkeeping on the hot path.
 */
final class KnownNotifications implements ChangeListener {

    private final NotificationStore store;
    private final ChangeLog changes;
    private final boolean enabled;
    private final int maxIds;
    private final Map<String, String> projects = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();

    /**
     * @param enabled false: every check reads the database (the path before batching)
     */
    KnownNotifications(NotificationStore store, ChangeLog changes, boolean enabled, int maxIds) {
        this.store = store;
        this.changes = changes;
        this.enabled = enabled;
        this.maxIds = maxIds;
        if (enabled) {
            changes.listen(this);
        }
    }

    /** The project of the notification, while it exists (any status). */
    Optional<String> projectOf(String notificationId) {
        if (!enabled) {
            return store.projectOf(notificationId);
        }
        if (changes.isFresh()) {
            String project = projects.get(notificationId);
            if (project != null) {
                return Optional.of(project);
            }
        }
        long before = generation.get();
        Optional<String> found = store.projectOf(notificationId);
        // A deletion announced during the lookup may have come after it read the row: then keep nothing.
        if (found.isPresent() && generation.get() == before) {
            if (projects.size() >= maxIds) {
                dropSome();
            }
            projects.put(notificationId, found.get());
        }
        return found;
    }

    @Override
    public void changed(Change change) {
        if (change.notificationId() != null) {
            generation.incrementAndGet();
            projects.remove(change.notificationId());
        }
    }

    @Override
    public void reset() {
        generation.incrementAndGet();
        projects.clear();
    }

    private void dropSome() {
        int toDrop = Math.max(1, maxIds / 10);
        Iterator<String> ids = projects.keySet().iterator();
        while (toDrop-- > 0 && ids.hasNext()) {
            ids.next();
            ids.remove();
        }
    }
}
