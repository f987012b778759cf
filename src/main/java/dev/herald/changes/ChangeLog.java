package dev.herald.changes;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.herald.storage.ExactlyOnceCommit;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

/**
 * The one way management writes announce what they changed, and the one way caches learn of it.
 *
 * <p>A write runs in a transaction that also records its change in {@code change_log}; the listeners on this
 * instance hear of it before the write returns, so the next request here sees it. The other instances on the same
 * database read the log every quarter of {@code maxStaleness}. A cache may answer from memory only while
 * {@link #isFresh()}: the last read of the log started less than {@code maxStaleness} ago. When the database does
 * not answer, nothing is fresh and every request goes to the database, which is what the bound promises.
 *
 * <p>Versions come from a one-row counter that every write updates in its transaction: its row lock makes versions
 * commit in order and without gaps, so reading "after version v" never skips a change that commits late.
 */
public final class ChangeLog implements AutoCloseable {

    private static final System.Logger LOGGER = System.getLogger(ChangeLog.class.getName());
    /** Older log rows are deleted; an instance that fell further behind than this finds a gap and resets. */
    static final Duration RETENTION = Duration.ofHours(1);
    private static final Duration PRUNE_EVERY = Duration.ofMinutes(1);
    private static final int PAGE = 1000;

    private final DbClient db;
    private final Clock clock;
    private final long maxStalenessNanos;
    private final List<ChangeListener> listeners = new CopyOnWriteArrayList<>();
    private final Thread poller;
    /** A permit asks the poller to read now rather than at its next interval. */
    private final Semaphore readNow = new Semaphore(0);
    /** Notified after each successful read, for {@link #awaitRead}. */
    private final Object reads = new Object();

    /** The newest version this instance has applied; only the poller thread changes it after start. */
    private long seenVersion;
    /** System.nanoTime() at which the last successful read of the log started. */
    private volatile long freshSince;
    /** No read of the log that started before this counts as fresh (a change this instance failed to apply). */
    private volatile long notFreshBefore;
    /** Past this, a write waiting for its turn answers as if the database had not: a burst is slowed, not refused. */
    static final Duration WRITE_TURN_WAIT = Duration.ofSeconds(10);
    /**
     * A turn that loses certification, or whose connection is lost during its commit, runs again this long: it holds
     * many writers, each waiting for it.
     */
    private static final Duration TURN_CONFLICTS_RETRIED = Duration.ofSeconds(10);
    private final GroupedWrites writes;
    private volatile boolean started;
    private volatile boolean closed;
    private long lastPrune;

    public ChangeLog(DbClient db, Clock clock, Duration maxStaleness) {
        this(db, clock, maxStaleness, WRITE_TURN_WAIT);
    }

    ChangeLog(DbClient db, Clock clock, Duration maxStaleness, Duration writeTurnWait) {
        this.db = db;
        this.writes = new GroupedWrites(this::writeAndRecord, writeTurnWait);
        this.clock = clock;
        this.maxStalenessNanos = maxStaleness.toNanos();
        this.poller = Thread.ofPlatform().name("herald-changes").daemon().unstarted(this::pollUntilClosed);
        // nanoTime may be negative: the comparison in isFresh() needs a reference taken before any read.
        this.notFreshBefore = System.nanoTime();
    }

    /** Before {@link #start()}. */
    public void listen(ChangeListener listener) {
        listeners.add(listener);
    }

    /**
     * Runs a management write and records its change in one transaction, then tells this instance's listeners.
     * The write is committed when this returns, and nothing cached here still shows what it replaced. Writes that
     * wait meanwhile are committed together ({@link GroupedWrites}); each is its own change, in the order they came.
     */
    public void write(Change change, Consumer<DbExecute> work) {
        writes.run(new GroupedWrites.Write(change, work));
        announce(change);
    }

    /** Writes waiting for a turn; for tests. */
    int waitingWrites() {
        return writes.waiting();
    }

    private void writeAndRecord(List<GroupedWrites.Write> group) {
        ExactlyOnceCommit.run(db, TURN_CONFLICTS_RETRIED, transaction -> {
            group.forEach(write -> write.applyIn(transaction));
            // Last, so that the counter's lock, which every write waits for, is held for the least time.
            transaction.createNamedUpdate("advance-change-version").addParam("count", group.size()).execute();
            long version = transaction.namedGet("select-change-version")
                    .map(row -> Rows.longValue(row, "version"))
                    .orElseThrow(() -> new IllegalStateException("change_counter has no row")) - group.size();
            long changedAt = clock.millis();
            for (GroupedWrites.Write write : group) {
                transaction.createNamedInsert("insert-change")
                        .addParam("version", ++version)
                        .addParam("projectId", write.change().projectId())
                        .addParam("notificationId", write.change().notificationId())
                        .addParam("changedAt", changedAt)
                        .execute();
            }
        });
    }

    /**
     * Waits, at most {@code timeout}, for a read of the log that starts after this call and succeeds: whatever any
     * instance committed before the call has then been applied here. The poller reads at once when asked, and every
     * caller waiting meanwhile shares that read, so a flood of callers costs the database one query at a time.
     *
     * @return whether such a read completed in time
     */
    public boolean awaitRead(Duration timeout) {
        long asked = System.nanoTime();
        long deadline = asked + timeout.toNanos();
        readNow.release();
        synchronized (reads) {
            while (freshSince - asked < 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || closed) {
                    return false;
                }
                try {
                    reads.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
        }
        return true;
    }

    /** Whether memory may answer instead of the database: the log was read less than maxStaleness ago. */
    public boolean isFresh() {
        long since = freshSince;
        return started && since - notFreshBefore >= 0 && System.nanoTime() - since <= maxStalenessNanos;
    }

    /**
     * After the schema is up to date: notes the current version, has every listener load afresh, and starts reading
     * the log. If the database does not answer now, nothing is fresh until the poller's first successful read.
     */
    public void start() {
        long readStarted = System.nanoTime();
        try {
            seenVersion = currentVersion();
            listeners.forEach(ChangeListener::reset);
            freshSince = readStarted;
        } catch (RuntimeException e) {
            seenVersion = -1;
            LOGGER.log(Level.WARNING, "Caches start cold, the database did not answer: " + e.getMessage());
        }
        started = true;
        poller.start();
    }

    @Override
    public void close() {
        closed = true;
        poller.interrupt();
        try {
            poller.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One read of the log; the poller calls it, and tests that do not want to wait. */
    void poll() {
        long readStarted = System.nanoTime();
        if (seenVersion < 0) {
            seenVersion = currentVersion();
            listeners.forEach(ChangeListener::reset);
        }
        List<DbRow> rows;
        do {
            rows = db.execute().namedQuery("select-changes-after", seenVersion).toList();
            apply(rows);
        } while (rows.size() == PAGE);
        freshSince = readStarted;
        synchronized (reads) {
            reads.notifyAll();
        }
        prune();
    }

    private void apply(List<DbRow> rows) {
        for (DbRow row : rows) {
            long version = Rows.longValue(row, "version");
            if (version != seenVersion + 1) {
                // The rows in between were pruned: what they changed is unknown.
                LOGGER.log(Level.INFO, "Change log read after a gap (" + seenVersion + " to " + version
                        + "): caches dropped");
                listeners.forEach(ChangeListener::reset);
            } else {
                Change change = new Change(Rows.string(row, "project_id"), Rows.string(row, "notification_id"));
                listeners.forEach(listener -> listener.changed(change));
            }
            seenVersion = version;
        }
    }

    private void announce(Change change) {
        try {
            listeners.forEach(listener -> listener.changed(change));
        } catch (RuntimeException e) {
            // The write is committed; the poller will read it from the log and apply it again. Until then nothing
            // cached may answer.
            notFreshBefore = System.nanoTime();
            LOGGER.log(Level.WARNING, "A cache could not apply a change yet: " + e.getMessage());
        }
    }

    private long currentVersion() {
        return db.execute().namedGet("select-change-version")
                .map(row -> Rows.longValue(row, "version"))
                .orElseThrow(() -> new IllegalStateException("change_counter has no row"));
    }

    /** Keeps the newest row whatever its age, so that an instance far behind sees a gap rather than nothing. */
    private void prune() {
        long now = clock.millis();
        if (now - lastPrune < PRUNE_EVERY.toMillis()) {
            return;
        }
        lastPrune = now;
        db.execute().namedDelete("delete-changes-before", now - RETENTION.toMillis());
    }

    private void pollUntilClosed() {
        long interval = Math.max(1, maxStalenessNanos / 4 / 1_000_000);
        while (!closed) {
            try {
                readNow.tryAcquire(interval, TimeUnit.MILLISECONDS);
                readNow.drainPermits();
                poll();
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOGGER.log(Level.DEBUG, "Change log not read: " + e.getMessage());
            }
        }
    }
}
