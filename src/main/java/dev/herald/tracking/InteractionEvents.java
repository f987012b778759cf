package dev.herald.tracking;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.outbox.EventType;
import dev.herald.outbox.Outbox;

/**
 * A group commit's interactions as events, in the batch's own transaction (docs/webhooks.md#events-and-payloads): each
 * project and type that an endpoint wants is added to its lane's open event ({@link Outbox#append}), which takes the
 * batches of a short window, so that 15,000 interactions a second become a few events a second per lane, not 15,000.
 * A batch of no project that wants them costs a lookup in memory per project and type, and no statement.
 *
 * <p>Their source is the writer lane that committed them ({@code interactions:N}, N new at each start of an
 * instance): its events are numbered in commit order. Payloads never carry the user a token named.
 */
final class InteractionEvents {

    private final Outbox outbox;

    InteractionEvents(Outbox outbox) {
        this.outbox = outbox;
    }

    /**
     * @param deferred where additions to open events go, for the start of the batch's script; null: run at once
     * @return how many groups of the batch an endpoint wanted
     */
    int write(Connection connection, Outbox.Deferred deferred, int writer, List<Interaction> batch)
            throws SQLException {
        Map<Group, List<String>> groups = null;
        Map<Group, Boolean> wanted = new HashMap<>();
        for (Interaction interaction : batch) {
            Group group = new Group(interaction.projectId(), eventType(interaction.type()));
            Boolean wants = wanted.get(group);
            if (wants == null) {
                wants = outbox.wants(connection, group.projectId(), group.type());
                wanted.put(group, wants);
            }
            if (wants) {
                if (groups == null) {
                    groups = new LinkedHashMap<>();
                }
                groups.computeIfAbsent(group, key -> new ArrayList<>()).add(item(interaction));
            }
        }
        if (groups == null) {
            return 0;
        }
        int written = 0;
        String source = source(writer);
        for (Map.Entry<Group, List<String>> group : groups.entrySet()) {
            if (outbox.append(connection, deferred, source, group.getKey().projectId(), group.getKey().type(),
                              group.getValue())) {
                written++;
            }
        }
        return written;
    }

    /** After a failed transaction of the writer's: its next batch opens new events ({@link Outbox#forgetSource}). */
    void failed(int writer) {
        outbox.forgetSource(source(writer));
    }

    private static String source(int writer) {
        return "interactions:" + writer;
    }

    /**
     * The interaction with its event item written now up to its metadata, on the request's thread, when an endpoint
     * of its project may want it (memory does not know that none does): the writer's lane is one thread that every
     * batch waits for, and writing the items there took 30 % of its samples with an endpoint (bench/webhooks.sh,
     * JFR). Without an endpoint it costs a look-up in memory.
     */
    static Interaction withItemHead(Outbox outbox, Interaction interaction) {
        return outbox.mayWant(interaction.projectId(), eventType(interaction.type()))
                ? interaction.withEventItemHead(itemHead(interaction)) : interaction;
    }

    /**
     * One interaction as its event lists it: never the user a token named. Written as text, in the order and escaping
     * of the JSON-P writer, with the metadata as the request's parse wrote it: a tree built and written, and the
     * metadata parsed again, for every interaction cost the tracking commit with an endpoint (bench/webhooks.sh).
     */
    static String item(Interaction interaction) {
        String head = interaction.eventItemHead() != null ? interaction.eventItemHead() : itemHead(interaction);
        String metadata = interaction.metadata() == null ? "null" : interaction.metadata();
        return new StringBuilder(head.length() + metadata.length() + 1).append(head).append(metadata).append('}')
                .toString();
    }

    /** The item up to its metadata's value: every member of it that the request knows. */
    static String itemHead(Interaction interaction) {
        StringBuilder json = new StringBuilder(192).append("{\"notificationId\":");
        Json.appendString(json, interaction.notificationId()).append(",\"type\":");
        Json.appendString(json, interaction.type().wireName()).append(",\"occurredAt\":");
        Json.appendString(json, Timestamps.format(interaction.occurredAt())).append(",\"receivedAt\":");
        Json.appendString(json, Timestamps.format(interaction.receivedAt())).append(",\"locale\":");
        Json.appendString(json, interaction.locale() == null ? "" : interaction.locale()).append(",\"metadata\":");
        return json.toString();
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
