package dev.herald.outbox;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;

/**
 * Which event types each project's enabled endpoints want, kept in memory: asked for every batch of interactions,
 * where a query each time would cost the hot path a round trip. Endpoint writes go through the change log, which
 * drops a project's entry here (on every instance, within {@code feed.cache.max-staleness}).
 *
 * <p>Only "no" must be right: a "yes" costs one insert that finds no endpoint ({@code outbox-insert-deliveries}),
 * and writes nothing. So when the change log is not fresh, the answer is yes.
 *
 * <p>What memory does not hold is read in the caller's transaction, on its connection: a group commit's lane that
 * asked the pool for a second connection while holding one waited for the pool when every lane did so at once (the
 * change log's reset empties this map on every instance), and failed apart from its batch, which a failover
 * retries as a whole.
 */
final class Subscriptions implements ChangeListener {

    /** Projects remembered at most; past it the map starts again (a project costs a set of a few strings). */
    private static final int MAX_PROJECTS = 100_000;

    private final ChangeLog changes;
    private final boolean cached;
    private final Map<String, Set<String>> byProject = new ConcurrentHashMap<>();
    /** Moves at every change: a load that a change overtook is used once, not kept. */
    private final AtomicLong generation = new AtomicLong();

    Subscriptions(ChangeLog changes, boolean cached) {
        this.changes = changes;
        this.cached = cached;
    }

    /** @param sql the caller's transaction, which reads the project's types when memory does not hold them */
    boolean wants(OutboxSql sql, String projectId, EventType type) throws SQLException {
        if (!cached || !changes.isFresh()) {
            return true;
        }
        Set<String> types = byProject.get(projectId);
        if (types == null) {
            long before = generation.get();
            types = sql.strings("outbox-select-subscribed-types", "event_type", projectId);
            if (generation.get() == before) {
                if (byProject.size() >= MAX_PROJECTS) {
                    byProject.clear();
                }
                byProject.put(projectId, types);
            }
        }
        return types.contains(type.wireName());
    }

    @Override
    public void changed(Change change) {
        generation.incrementAndGet();
        byProject.remove(change.projectId());
    }

    @Override
    public void reset() {
        generation.incrementAndGet();
        byProject.clear();
    }
}
