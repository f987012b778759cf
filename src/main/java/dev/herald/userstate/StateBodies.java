package dev.herald.userstate;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;

import io.helidon.webserver.http.ServerRequest;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * The bodies of the state writes (docs/api.md, POST /api/v1/public/{apiKey}/users/me/state and /read-all), read within
 * their bounds and checked: each mistake a 400 VALIDATION_ERROR whose {@code details.field} is its path
 * ({@code events[3].state}), and a member a route does not take refused by name.
 */
final class StateBodies {

    static final int MAX_EVENTS = 100;
    static final int MAX_READ_ALL_IDS = 1000;
    /** 100 events of 64-character ids, with room for spaces. */
    static final int MAX_STATE_BYTES = 64 * 1024;
    /** 1000 ids of 64 characters, quoted and separated: some 67 KB. */
    static final int MAX_READ_ALL_BYTES = 128 * 1024;
    private static final int MAX_ID_LENGTH = 64;
    /** As tracking takes a notification id (docs/api.md, POST /api/v1/public/track/{notificationId}). */
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1," + MAX_ID_LENGTH + "}");

    private static final BodyFields STATE = BodyFields.of("notificationId", "state", "events");
    private static final BodyFields EVENT = BodyFields.of("notificationId", "state");
    private static final BodyFields READ_ALL = BodyFields.of("ids");

    /** One event of a state write, before its instant and user are known. */
    record Event(String notificationId, UserState state) {
    }

    private StateBodies() {
    }

    /** {@code {"notificationId","state"}} or {@code {"events":[…]}}: the events, in order. */
    static List<Event> events(ServerRequest request) {
        JsonObject body = AdminRequests.body(request, STATE, MAX_STATE_BYTES);
        if (!body.containsKey("events")) {
            return List.of(event(body, ""));
        }
        if (body.containsKey("notificationId") || body.containsKey("state")) {
            throw ApiException.validation("events", "Send either notificationId and state, or events, not both");
        }
        if (!(body.get("events") instanceof JsonArray events) || events.isEmpty() || events.size() > MAX_EVENTS) {
            throw ApiException.validation("events", "events must be an array of 1 to " + MAX_EVENTS
                    + " objects {\"notificationId\",\"state\"}");
        }
        List<Event> parsed = new ArrayList<>(events.size());
        for (int i = 0; i < events.size(); i++) {
            String path = "events[" + i + "]";
            if (!(events.get(i) instanceof JsonObject event)) {
                throw ApiException.validation(path, path + " must be an object {\"notificationId\",\"state\"}");
            }
            parsed.add(event(EVENT.at(path).requireKnown(event), path + "."));
        }
        return parsed;
    }

    /** {@code {"ids":[…]}}: the ids the client showed, at most 1000, duplicates once. */
    static List<String> readAllIds(ServerRequest request) {
        JsonObject body = AdminRequests.body(request, READ_ALL, MAX_READ_ALL_BYTES);
        if (!(body.get("ids") instanceof JsonArray ids) || ids.size() > MAX_READ_ALL_IDS) {
            throw ApiException.validation("ids", "ids must be an array of at most " + MAX_READ_ALL_IDS
                    + " notification ids: those the client showed");
        }
        List<String> parsed = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            parsed.add(id(ids.get(i), "ids[" + i + "]"));
        }
        return parsed.stream().distinct().toList();
    }

    private static Event event(JsonObject event, String prefix) {
        String id = id(event.get("notificationId"), prefix + "notificationId");
        JsonValue state = event.get("state");
        String stateField = prefix + "state";
        if (state == null) {
            throw ApiException.validation(stateField, stateField + " is required: one of "
                    + String.join(", ", UserState.WIRE_NAMES), UserState.WIRE_NAMES);
        }
        String name = AdminRequests.optionalChoice(state, stateField, UserState.WIRE_NAMES).orElseThrow();
        return new Event(id, UserState.fromWireName(name).orElseThrow());
    }

    /** A notification id as tracking takes one: {@code ^[A-Za-z0-9_-]{1,64}$}. */
    private static String id(JsonValue value, String field) {
        if (value == null) {
            throw ApiException.validation(field, field + " is required");
        }
        if (!(value instanceof JsonString text) || !ID.matcher(text.getString()).matches()) {
            throw ApiException.validation(field, field + " must be a notification id: 1 to " + MAX_ID_LENGTH
                    + " letters, digits, _ or -");
        }
        return text.getString();
    }
}
