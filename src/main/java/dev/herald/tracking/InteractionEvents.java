package dev.herald.tracking;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import dev.herald.outbox.EventType;
import dev.herald.outbox.InteractionItems;
import dev.herald.outbox.Outbox;

/**
 * A group commit's interactions as events, in the batch's own transaction (docs/webhooks.md#events-and-payloads): each
 * project and type that an endpoint wants is added to its lane's open event ({@link Outbox#append}), which takes the
 * batches of a short window, so that 15,000 interactions a second become a few events a second per lane, not 15,000.
 * A batch of no project that wants them costs a lookup in memory per project and type, and no statement.
 *
 * <p>Their source is the writer lane that committed them ({@code interactions:N}, N new at each start of an
 * instance): its events are numbered in commit order. Payloads never carry the user a token named.
 *
 * <p>A group commit writes no copy of its interactions: it marks the rows its events take with a mark of the batch's
 * own and each event names them by a range a batch ({@link #mark}, migration 30), which the sender reads: a copy of
 * each (some 180 bytes an interaction) and a guarded update of the event's row a batch were most of what an endpoint
 * cost tracking (bench/webhooks.sh, docs/performance.md). Tracking without batching, where every request's
 * transaction shares one lane, copies them ({@link #write}).
 */
final class InteractionEvents {

    private final Outbox outbox;

    InteractionEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * The batch's interactions that an endpoint wants, copied into their lane's open events (a lane that transactions
     * share), after their insert.
     *
     * @param ids each row's id as its insert gave it ({@code interactions.seq}), in the batch's order
     * @return how many groups of the batch an endpoint wanted
     */
    int write(Connection connection, int writer, List<Interaction> batch, long[] ids) throws SQLException {
        int written = 0;
        String source = source(writer);
        for (Map.Entry<Group, List<Integer>> group : wantedGroups(connection, batch).entrySet()) {
            List<String> items = new ArrayList<>(group.getValue().size());
            for (int row : group.getValue()) {
                items.add(item(ids[row], batch.get(row)));
            }
            if (outbox.append(connection, source, group.getKey().projectId(), group.getKey().type(), items)) {
                written++;
            }
        }
        return written;
    }

    /**
     * The batch's interactions that an endpoint wants, added to their lane's open events as ranges of rows: which rows
     * carry the batch's mark, and the ranges to write after the insert.
     */
    Marked mark(Connection connection, int writer, List<Interaction> batch) throws SQLException {
        Map<Group, List<Integer>> groups = wantedGroups(connection, batch);
        if (groups.isEmpty()) {
            return Marked.NONE;
        }
        boolean[] taken = new boolean[batch.size()];
        List<Outbox.Range> ranges = new ArrayList<>(groups.size());
        String source = source(writer);
        for (Map.Entry<Group, List<Integer>> group : groups.entrySet()) {
            List<Integer> rows = group.getValue();
            long[] characters = new long[rows.size()];
            for (int i = 0; i < characters.length; i++) {
                Interaction interaction = batch.get(rows.get(i));
                characters[i] = InteractionItems.bound(interaction.notificationId(), interaction.type().wireName(),
                                                       interaction.locale(), interaction.metadata());
            }
            List<Outbox.Range> added = outbox.appendRows(connection, source, group.getKey().projectId(),
                                                         group.getKey().type(), characters);
            if (!added.isEmpty()) {
                ranges.addAll(added);
                for (int row : rows) {
                    taken[row] = true;
                }
            }
        }
        return ranges.isEmpty() ? Marked.NONE
                : new Marked(taken, ranges, ThreadLocalRandom.current().nextLong());
    }

    /**
     * What a batch writes for its events of ranges.
     *
     * @param taken  per row of the batch, whether an event takes it (it carries the mark); null: none
     * @param ranges the rows of {@code outbox_event_ranges} to write after the interactions' insert
     * @param batch  the batch's mark ({@code interactions.event_batch}), random: unique among batches, whatever
     *               lane or instance wrote them
     */
    record Marked(boolean[] taken, List<Outbox.Range> ranges, long batch) {
        static final Marked NONE = new Marked(null, List.of(), 0);

        boolean takes(int row) {
            return taken != null && taken[row];
        }
    }

    /**
     * The rows of the batch by project and event type, in the batch's order, of the groups an endpoint wants: a look-up
     * in memory per group, and none at all when no project wants any.
     */
    private Map<Group, List<Integer>> wantedGroups(Connection connection, List<Interaction> batch)
            throws SQLException {
        Map<Group, List<Integer>> groups = Map.of();
        Map<Group, Boolean> wanted = new HashMap<>();
        for (int row = 0; row < batch.size(); row++) {
            Interaction interaction = batch.get(row);
            Group group = new Group(interaction.projectId(), eventType(interaction.type()));
            Boolean wants = wanted.get(group);
            if (wants == null) {
                wants = outbox.wants(connection, group.projectId(), group.type());
                wanted.put(group, wants);
            }
            if (wants) {
                if (groups.isEmpty()) {
                    groups = new LinkedHashMap<>();
                }
                groups.computeIfAbsent(group, key -> new ArrayList<>()).add(row);
            }
        }
        return groups;
    }

    /** After a failed transaction of the writer's: its next batch opens new events ({@link Outbox#forgetSource}). */
    void failed(int writer) {
        outbox.forgetSource(source(writer));
    }

    private static String source(int writer) {
        return "interactions:" + writer;
    }

    /** One interaction as its event lists it ({@link InteractionItems}), by its row's id. */
    static String item(long id, Interaction interaction) {
        return InteractionItems.item(id, interaction.notificationId(), interaction.type().wireName(),
                                     interaction.occurredAt(), interaction.receivedAt(), interaction.locale(),
                                     interaction.metadata());
    }

    static EventType eventType(InteractionType type) {
        return switch (type) {
            case IMPRESSION -> EventType.INTERACTION_IMPRESSION;
            case CLICK -> EventType.INTERACTION_CLICK;
            case CONVERSION -> EventType.INTERACTION_CONVERSION;
        };
    }

    private record Group(String projectId, EventType type) {
    }
}
