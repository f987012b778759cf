package dev.herald.export;

import java.util.Arrays;
import java.util.List;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * One user's state of one notification as the export writes it: what Herald stores of it, the user as their user key
 * (a SHA-256 of the project and the token's {@code sub}: no user id is stored), each instant null until reached.
 *
 * @param changedAt 0 for a row last changed by a Herald before migration 27, written null
 */
record ExportedUserState(String userKey, String notificationId, String projectId, Long seenAt, Long readAt,
                         Long dismissedAt, Long archivedAt, long changedAt) implements ExportedRow<StatePosition> {

    /**
     * A line's bytes at most (keys of 64 characters, five instants): every row is bounded, so an answer's bound
     * counts this per row.
     */
    static final int ROW_BYTES = 512;

    static final List<String> COLUMNS = List.of("user_key", "notification_id", "project_id", "seen_at", "read_at",
                                                 "dismissed_at", "archived_at", "changed_at");

    @Override
    public StatePosition position() {
        return new StatePosition(changedAt, userKey, notificationId);
    }

    @Override
    public JsonObject json() {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("userKey", userKey)
                .add("notificationId", notificationId)
                .add("projectId", projectId);
        instant(json, "seenAt", seenAt);
        instant(json, "readAt", readAt);
        instant(json, "dismissedAt", dismissedAt);
        instant(json, "archivedAt", archivedAt);
        instant(json, "changedAt", changed());
        return json.build();
    }

    @Override
    public List<String> cells() {
        return Arrays.asList(userKey, notificationId, projectId, format(seenAt), format(readAt), format(dismissedAt),
                             format(archivedAt), format(changed()));
    }

    private Long changed() {
        return changedAt == 0 ? null : changedAt;
    }

    private static void instant(JsonObjectBuilder json, String name, Long instant) {
        if (instant == null) {
            json.addNull(name);
        } else {
            json.add(name, Timestamps.format(instant));
        }
    }

    private static String format(Long instant) {
        return instant == null ? null : Timestamps.format(instant);
    }
}
