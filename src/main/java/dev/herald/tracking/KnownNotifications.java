package dev.herald.tracking;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;
import dev.herald.notification.NotificationStore;

/**
 * Which notifications exist, so that the unknown-notification check (docs/api.md, POST
 * /api/v1/public/track/{notificationId}, check 8) costs no database round trip in the common case: a known
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
 * The first list answers only while the change log is fresh; otherwise, and for the filter's "maybe", the database
 * answers. While the ids
 * load (after a start, or a reset of the log), a lookup that is not in the first list waits for the load rather than
 * ask the database: right after a start, a flood of made-up ids took every connection of the pool before the load
 * ended (80 answers 500 of 68,092 in the first second, readiness 503 three times; issue 33). Nor does a "no" of the
 * filter go to the database when the log is stale (a cold JVM's poller starved of CPU): it waits for one read of the
 * log instead. A load that outlasts {@link #LOAD_WAIT}, or a read that does not end in time, answers
 * {@link IdsNotReady}; a load that failed for good leaves the database to answer.
 */
final class KnownNotifications implements ChangeListener {

    private static final System.Logger LOGGER = System.getLogger(KnownNotifications.class.getName());
    private static final int PAGE = 10_000;
    private static final int MIN_CAPACITY = 10_000;
    private static final int LOAD_ATTEMPTS = 30;
    private static final Duration LOAD_RETRY = Duration.ofSeconds(1);
    private static final Duration RECENT = Duration.ofDays(1);
    /** The longest a lookup waits for the ids to load: a load of a million ids takes about a second. */
    static final Duration LOAD_WAIT = Duration.ofSeconds(5);

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
    /** Counted down when the latest load ends, loaded or given up; lookups that need the ids wait on it. */
    private volatile CountDownLatch loadEnded = new CountDownLatch(0);

    /**
     * @param enabled        false: every check reads the database (the path before batching)
     * @param logReadTimeout the longest wait for a read of the change log before an id the filter lacks is 503
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
        Known entry = changes.isFresh() ? known.get(notificationId) : null;
        if (entry != null && entry.readFrom() >= projectChanged.getOrDefault(entry.notification().projectId(), 0L)) {
            fromMemory.increment();
            return Optional.of(entry.notification());
        }
        if (entry == null && isSurelyUnknown(notificationId)) {
            fromMemory.increment();
            return Optional.empty();
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
     * this request came (a notification created through another instance a moment ago is in it then). That read
     * makes the "no" certain whether or not the log was fresh before.
     *
     * @throws IdsNotReady when the ids are still loading, or no read of the log ends in time: asking the database
     *                     instead, for each id of a flood, is what took the pool (issue 33)
     */
    private boolean isSurelyUnknown(String notificationId) {
        IdFilter filter = loadedIds();
        if (filter == null || filter.mightContain(notificationId)) {
            return false;
        }
        if (!changes.awaitRead(logReadTimeout)) {
            throw new IdsNotReady();
        }
        filter = ids;
        return filter != null && !filter.mightContain(notificationId) && changes.isFresh();
    }

    /**
     * The ids, once a load in progress ends; null when none are loaded nor loading (a load failed for good).
     *
     * @throws IdsNotReady when the load outlasts {@link #LOAD_WAIT}
     */
    private IdFilter loadedIds() {
        IdFilter filter = ids;
        CountDownLatch ended = loadEnded;
        if (filter != null || ended.getCount() == 0) {
            return filter;
        }
        try {
            if (!ended.await(LOAD_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IdsNotReady();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IdsNotReady();
        }
        return ids;
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

    /**
     * In the background, by pages: a start or a reset does not wait for it; lookups of ids not tracked lately wait
     * for it. Loads that overlap share one latch, which the latest counts down.
     */
    private synchronized void loadIds() {
        long load = loads.incrementAndGet();
        if (loadEnded.getCount() == 0) {
            loadEnded = new CountDownLatch(1);
        }
        CountDownLatch ended = loadEnded;
        Thread.ofVirtual().name("herald-notification-ids").start(() -> {
            try {
                loadWithRetries(load);
            } finally {
                if (loads.get() == load) {
                    ended.countDown();
                }
            }
        });
    }

    private void loadWithRetries(long load) {
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
