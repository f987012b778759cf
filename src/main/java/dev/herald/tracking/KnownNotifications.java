package dev.herald.tracking;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;
import dev.herald.notification.NotificationStore;

/**
 * Which notifications exist, so that the unknown-notification check (docs/api.md, POST
 * /api/v1/public/track/{notificationId}, check 7) costs no database round trip in the common case: a known
 * notification is found in memory with its project, and an id no notification has (made up, or long deleted) is
 * answered 404 from memory too. Made-up ids by the thousand a second used to reach the database each, exhaust the
 * pool, and turn readiness to 503 (docs/security.md).
 * <ul>
 * <li>The projects and languages of the notifications tracked lately, bounded: when full, about a tenth of the ids
 *     go, in the map's own order (as good as random), which needs no bookkeeping on the hot path. A change of a
 *     project that names no notification (an edit of one, its translations) makes its notifications' languages
 *     stale: each is read again at its next interaction.</li>
 * <li>Every id in the database, in an {@link IdFilter} loaded at each reset of the change log and kept up by its
 *     changes. Its "no" is certain for what this instance has read of the log; for a notification another instance
 *     created since, one read of the log (shared by all the requests that wait for one) settles it.</li>
 * </ul>
 * Only while the change log is fresh; otherwise, and for the filter's "maybe", the database answers.
 */
final class KnownNotifications implements ChangeListener {

    private static final System.Logger LOGGER = System.getLogger(KnownNotifications.class.getName());
    private static final int PAGE = 10_000;
    private static final int MIN_CAPACITY = 10_000;
    private static final int LOAD_ATTEMPTS = 30;
    private static final Duration LOAD_RETRY = Duration.ofSeconds(1);
    private static final Duration RECENT = Duration.ofDays(1);

    private final NotificationStore store;
    private final TrackedNotificationStore tracked;
    private final ChangeLog changes;
    private final boolean enabled;
    private final int maxIds;
    private final Duration logReadTimeout;
    private final Clock clock;
    private final Map<String, Known> known = new ConcurrentHashMap<>();
    /** Counts the changes; a lookup that straddles one keeps nothing. */
    private final AtomicLong generation = new AtomicLong();
    /** The generation of each project's latest change that names no notification, since the last reset. */
    private final Map<String, Long> projectChanged = new ConcurrentHashMap<>();
    private final LongAdder fromMemory = new LongAdder();
    private final LongAdder fromDatabase = new LongAdder();
    /** Every id, once loaded; null while it is not, and then every id may exist. */
    private volatile IdFilter ids;
    /** The filter being loaded: changes go into it too, so that none made during the load is missed. */
    private volatile IdFilter loading;
    /** Which load is the latest: an older one that ends late is thrown away. */
    private final AtomicLong loads = new AtomicLong();

    /**
     * @param enabled        false: every check reads the database (the path before batching)
     * @param logReadTimeout the longest wait for a read of the change log before the database is asked instead
     */
    KnownNotifications(NotificationStore store, TrackedNotificationStore tracked, ChangeLog changes, boolean enabled,
                       int maxIds, Duration logReadTimeout, Clock clock) {
        this.store = store;
        this.tracked = tracked;
        this.clock = clock;
        this.changes = changes;
        this.enabled = enabled;
        this.maxIds = maxIds;
        this.logReadTimeout = logReadTimeout;
        if (enabled) {
            changes.listen(this);
        }
    }

    /** The project and languages of the notification, while it exists (any status). */
    Optional<TrackedNotification> find(String notificationId) {
        if (!enabled) {
            return fromDatabase(notificationId);
        }
        if (changes.isFresh()) {
            Known entry = known.get(notificationId);
            if (entry != null && entry.readFrom() >= projectChanged.getOrDefault(entry.notification().projectId(), 0L)) {
                fromMemory.increment();
                return Optional.of(entry.notification());
            }
            if (entry == null && isSurelyUnknown(notificationId)) {
                fromMemory.increment();
                return Optional.empty();
            }
        }
        long before = generation.get();
        Optional<TrackedNotification> found = fromDatabase(notificationId);
        // A change announced during the lookup may have come after it read the row: then keep nothing.
        if (found.isPresent() && generation.get() == before) {
            if (known.size() >= maxIds) {
                dropSome();
            }
            known.put(notificationId, new Known(found.get(), before));
        }
        return found;
    }

    /** Lookups answered from memory and from the database, for /observe/metrics. */
    LookupFigures figures() {
        return new LookupFigures(fromMemory.sum(), fromDatabase.sum());
    }

    /**
     * No notification has this id: the filter says so, and still says so after a read of the log that started after
     * this request came (a notification created through another instance a moment ago is in it then).
     */
    private boolean isSurelyUnknown(String notificationId) {
        IdFilter filter = ids;
        if (filter == null || filter.mightContain(notificationId)) {
            return false;
        }
        if (!changes.awaitRead(logReadTimeout)) {
            return false;
        }
        filter = ids;
        return filter != null && !filter.mightContain(notificationId) && changes.isFresh();
    }

    private Optional<TrackedNotification> fromDatabase(String notificationId) {
        fromDatabase.increment();
        return tracked.find(notificationId);
    }

    /**
     * A created or deleted notification is added to the filter (a deleted one stays a "maybe": the database says
     * no). A change of a project that names no notification may be a creation by an instance of an older version,
     * which did not name it: the project's notifications created in the last day are added, so that a rolling
     * upgrade loses no interaction (a day: clocks of instances may differ; the query reads the project's index).
     */
    @Override
    public void changed(Change change) {
        String id = change.notificationId();
        if (id != null) {
            generation.incrementAndGet();
            known.remove(id);
            add(id);
        } else if (change.projectId() != null) {
            // Entries read before this generation are stale: a read after it is of what the change committed.
            projectChanged.put(change.projectId(), generation.incrementAndGet());
            if (ids != null || loading != null) {
                store.idsCreatedSince(change.projectId(), clock.millis() - RECENT.toMillis()).forEach(this::add);
            }
        }
    }

    @Override
    public void reset() {
        generation.incrementAndGet();
        known.clear();
        projectChanged.clear();
        // Changes may have been missed (a gap in the log): until the ids are loaded again, the database answers.
        ids = null;
        loadIds();
    }

    private void add(String id) {
        IdFilter filter = ids;
        if (filter != null) {
            filter.add(id);
            if (filter.claimReplacement()) {
                loadIds();
            }
        }
        IdFilter pending = loading;
        if (pending != null) {
            pending.add(id);
        }
    }

    /** In the background, by pages: a start or a reset does not wait for it, and the database answers meanwhile. */
    private void loadIds() {
        long load = loads.incrementAndGet();
        Thread.ofVirtual().name("herald-notification-ids").start(() -> {
            for (int attempt = 1; attempt <= LOAD_ATTEMPTS && loads.get() == load; attempt++) {
                try {
                    load(load);
                    return;
                } catch (RuntimeException e) {
                    if (attempt == LOAD_ATTEMPTS) {
                        LOGGER.log(Level.WARNING, "Notification ids not loaded (" + e.getMessage() + "): tracking "
                                + "checks each id with the database until the change log next resets");
                        return;
                    }
                    try {
                        Thread.sleep(LOAD_RETRY);
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        });
    }

    private void load(long load) {
        int capacity = (int) Math.min(Integer.MAX_VALUE / 16, Math.max(MIN_CAPACITY, 2 * store.count()));
        IdFilter fresh = new IdFilter(capacity);
        loading = fresh;
        String after = "";
        List<String> page;
        do {
            page = store.idsAfter(after, PAGE);
            page.forEach(fresh::add);
            if (!page.isEmpty()) {
                after = page.getLast();
            }
        } while (page.size() == PAGE && loads.get() == load);
        if (loads.get() == load) {
            ids = fresh;
            loading = null;
            LOGGER.log(Level.DEBUG, "Notification ids loaded, room for " + capacity);
        }
    }

    private void dropSome() {
        int toDrop = Math.max(1, maxIds / 10);
        Iterator<String> ids = known.keySet().iterator();
        while (toDrop-- > 0 && ids.hasNext()) {
            ids.next();
            ids.remove();
        }
    }

    /**
     * @param readFrom the generation before the row was read: the entry holds what every change up to it committed
     */
    private record Known(TrackedNotification notification, long readFrom) {
    }
}
