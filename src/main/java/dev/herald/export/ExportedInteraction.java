package dev.herald.export;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * One raw interaction as an export writes it: what Herald stores of it, no more (no client address, no user: the
 * user of a token is recorded only in the per-user state, which has an export of its own).
 *
 * @param metadata the stored JSON object's text, or null
 * @param locale   null for rows recorded before migration 22
 */
record ExportedInteraction(long id, String notificationId, String projectId, String type, long occurredAt,
                           long receivedAt, String endpoint, String locale, String metadata) implements ExportedRow<ExportPosition> {

    /** A line's bytes beside its metadata, at most (ids of 64 characters): what an answer's bound counts per row. */
    static final int BYTES_BESIDE_METADATA = 384;

    static final List<String> COLUMNS = List.of("id", "notification_id", "project_id", "type", "occurred_at",
                                                 "received_at", "endpoint", "locale", "metadata");
    /** What the tracking client sent as it was sent; every other column is Herald's or checked against a set. */
    private static final Set<String> CLIENT_TEXT = Set.of("locale", "metadata");

    @Override
    public ExportPosition position() {
        return new ExportPosition(receivedAt, id);
    }

    @Override
    public JsonObject json() {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("id", id)
                .add("notificationId", notificationId)
                .add("projectId", projectId)
                .add("type", type)
                .add("occurredAt", Timestamps.format(occurredAt))
                .add("receivedAt", Timestamps.format(receivedAt))
                .add("endpoint", endpoint);
        if (locale == null) {
            json.addNull("locale");
        } else {
            json.add("locale", locale);
        }
        if (metadata == null) {
            json.addNull("metadata");
        } else {
            // Stored by Herald's own writer, so always an object; kept as text otherwise, never lost.
            Json.parseObject(metadata.getBytes(StandardCharsets.UTF_8))
                    .ifPresentOrElse(object -> json.add("metadata", object), () -> json.add("metadata", metadata));
        }
        return json.build();
    }

    @Override
    public List<String> cells() {
        return Arrays.asList(Long.toString(id), notificationId, projectId, type, Timestamps.format(occurredAt),
                             Timestamps.format(receivedAt), endpoint, locale, metadata);
    }

    @Override
    public boolean isClientText(int index) {
        return CLIENT_TEXT.contains(COLUMNS.get(index));
    }
}
