package dev.herald.audience;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.identity.UserIdentity;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Who a notification is for (docs/api.md#audience): a tree of all / any / not, conditions on a user token's claims
 * and percentage rollouts, checked when it is written and parsed once where it is evaluated. Only the server ever
 * reads one: no public answer carries it.
 */
public final class Audience {

    private final JsonObject json;
    private final Rule root;

    private Audience(JsonObject json, Rule root) {
        this.json = json;
        this.root = root;
    }

    /**
     * A request's {@code audience} member: null (JSON null) for everyone, or a checked tree.
     *
     * @param path the member's name in the request, the start of every path a mistake names
     * @throws ApiException 400 VALIDATION_ERROR naming the path of the first mistake
     */
    public static Audience parse(JsonValue value, String path) {
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        Rule root = AudienceParser.parse(value, path);
        return new Audience((JsonObject) value, root);
    }

    /**
     * A stored tree ({@link #text()}); null for null (everyone). One that no longer passes the rules (written past the
     * management API, or by a later Herald with an operator this one does not know) reaches no one, never everyone,
     * and is shown as stored under {@code unreadable}.
     */
    public static Audience stored(String text) {
        if (text == null) {
            return null;
        }
        try {
            Optional<JsonObject> json = Json.parseObject(text.getBytes(StandardCharsets.UTF_8));
            if (json.isPresent()) {
                return new Audience(json.get(), AudienceParser.parse(json.get(), "audience"));
            }
        } catch (RuntimeException e) { // ApiException: a rule this version refuses
            // Reaches no one, below.
        }
        return new Audience(Json.builders().createObjectBuilder().add("unreadable", text).build(),
                            new Rule.Rollout("audience", 0));
    }

    /** The tree as stored and as the management API shows it. */
    public JsonObject json() {
        return json;
    }

    public String text() {
        return Json.write(json);
    }

    public boolean matches(UserIdentity user, String notificationId, long now) {
        return root.matches(user, notificationId, now);
    }

    /**
     * Every node's outcome for the user, children before the node that holds them, the root last: what "would this
     * user see it?" shows.
     */
    public List<Outcome> explain(UserIdentity user, String notificationId, long now) {
        List<Outcome> outcomes = new ArrayList<>();
        root.explain(user, notificationId, now, outcome -> outcomes.add(new Outcome(outcome.path(), outcome.matches())));
        return outcomes;
    }

    /** @param path where the node is in the notification's {@code audience} */
    public record Outcome(String path, boolean matches) {
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Audience audience && audience.json.equals(json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return text();
    }
}
