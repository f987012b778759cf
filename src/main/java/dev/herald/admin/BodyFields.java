package dev.herald.admin;

import java.util.Arrays;
import java.util.List;

import dev.herald.api.ApiException;
import dev.herald.text.NearestName;

import jakarta.json.JsonObject;

/**
 * The members a management API body, or an object inside one, may carry. Any other member is refused before a value
 * is read: ignored, a misspelt field ({@code "stauts"}) let the request succeed without doing what its sender meant.
 * A member that answers carry but a request cannot set (an id, a time) is refused as read-only, so a client that sends
 * back what it read learns why.
 *
 * @param path     where the object is in the body ({@code action.data}), empty for the body itself
 * @param writable the members a request may send, in the order an error lists them
 * @param readOnly the members answers carry that a request cannot set
 */
public record BodyFields(String path, List<String> writable, List<String> readOnly) {

    public BodyFields {
        writable = List.copyOf(writable);
        readOnly = List.copyOf(readOnly);
    }

    /** The members of the body itself. */
    public static BodyFields of(String... writable) {
        return new BodyFields("", Arrays.asList(writable), List.of());
    }

    public BodyFields readOnly(String... members) {
        return new BodyFields(path, writable, Arrays.asList(members));
    }

    /** The same members in an object at {@code path} of the body: errors name them by their whole path. */
    public BodyFields at(String objectPath) {
        return new BodyFields(objectPath, writable, readOnly);
    }

    /** @return the object, when every member is writable */
    public JsonObject requireKnown(JsonObject object) {
        for (String member : object.keySet()) {
            if (!writable.contains(member)) {
                throw refusal(member);
            }
        }
        return object;
    }

    private ApiException refusal(String member) {
        List<String> allowed = writable.stream().map(this::named).toList();
        String field = named(member);
        if (readOnly.contains(member)) {
            return ApiException.validation(field, "field \"" + field + "\" is read-only; writable fields: "
                    + String.join(", ", allowed), allowed);
        }
        if (writable.isEmpty()) {
            return ApiException.validation(field, "unknown field \"" + field + "\": this route takes no body", allowed);
        }
        String message = NearestName.among(member, writable)
                .map(nearest -> "unknown field \"" + field + "\"; did you mean \"" + named(nearest) + "\"?")
                .orElse("unknown field \"" + field + "\"; writable fields: " + String.join(", ", allowed));
        return ApiException.validation(field, message, allowed);
    }

    private String named(String member) {
        return path.isEmpty() ? member : path + "." + member;
    }
}
