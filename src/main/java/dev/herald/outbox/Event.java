package dev.herald.outbox;

import java.util.Objects;
import java.util.function.Supplier;

import jakarta.json.JsonObject;

/**
 * One event, before it is written.
 *
 * @param id        the {@code webhook-id}; null makes a new one. An event that must be written once whoever finds it
 *                  (a start that passed) has an id made from what it is
 * @param source    what its sequence numbers: {@code notification:ID} for a notification's life,
 *                  {@code interactions:N} for the interactions one writer lane committed
 * @param data      the payload's {@code data}, built only when an endpoint wants the event
 */
public record Event(String id, String projectId, EventType type, String source, Supplier<JsonObject> data) {

    public Event {
        Objects.requireNonNull(projectId, "projectId");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(data, "data");
    }

    public static Event of(String projectId, EventType type, String source, Supplier<JsonObject> data) {
        return new Event(null, projectId, type, source, data);
    }

    public static String notificationSource(String notificationId) {
        return "notification:" + notificationId;
    }
}
