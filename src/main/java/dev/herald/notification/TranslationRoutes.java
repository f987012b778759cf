package dev.herald.notification;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.audit.AuditEntry;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * A notification's translations one at a time (docs/api.md, /api/v1/admin/notifications/{id}/translations): each
 * write is a change of the notification, as a PATCH of its {@code translations} would be (its time, version, audit
 * line, feed size and publishing rules), so that two people writing two languages at once do not undo each other.
 */
final class TranslationRoutes {

    private final NotificationStore notifications;
    private final Function<ServerRequest, Notification> existing;
    private final int maxMessageBytes;
    private final Clock clock;

    TranslationRoutes(NotificationStore notifications, Function<ServerRequest, Notification> existing,
                      int maxMessageBytes, Clock clock) {
        this.notifications = notifications;
        this.existing = existing;
        this.maxMessageBytes = maxMessageBytes;
        this.clock = clock;
    }

    void list(ServerRequest request, ServerResponse response) {
        AdminResponses.ok(request, response, Translations.view(existing.apply(request)));
    }

    /** Creates (201) or replaces (200) the translation: a member the body leaves out is the notification's own. */
    void put(ServerRequest request, ServerResponse response) {
        Notification seen = existing.apply(request);
        String tag = tag(request);
        JsonObject body = AdminRequests.body(request, NotificationChanges.TRANSLATION_FIELDS.at("translations." + tag));
        if (!body.containsKey("message") || body.isNull("message")) {
            throw ApiException.validation("translations." + tag + ".message", "translations." + tag
                    + ".message is required");
        }
        List<JsonObject> removed = new ArrayList<>();
        Translation translation = NotificationChanges.translation(body, tag, null, maxMessageBytes, removed);
        boolean[] created = new boolean[1];
        Notification written = write(request, response, seen, tag, true, current -> {
            created[0] = !current.containsKey(tag);
            return translation;
        }, removed);
        JsonObject answer = answer(written, tag, removed);
        if (created[0]) {
            AdminResponses.created(request, response, "/api/v1/admin/notifications/" + seen.id() + "/translations/"
                    + tag, answer);
        } else {
            AdminResponses.ok(request, response, answer);
        }
    }

    /** Changes the members the body gives; 404 TRANSLATION_NOT_FOUND when the notification has none in the language. */
    void patch(ServerRequest request, ServerResponse response) {
        Notification seen = existing.apply(request);
        String tag = tag(request);
        requireNotOwn(seen, tag);
        JsonObject body = AdminRequests.body(request, NotificationChanges.TRANSLATION_FIELDS.at("translations." + tag));
        List<JsonObject> removed = new ArrayList<>();
        // Read once against what the request saw, so that a bad body is a 400 before the write; applied to what
        // the write finds.
        NotificationChanges.translation(body, tag, present(seen.translations(), tag), maxMessageBytes, new ArrayList<>());
        Notification written = write(request, response, seen, tag, false, current -> {
            // A write may run again when its transaction is retried: what it removed is counted once.
            removed.clear();
            return NotificationChanges.translation(body, tag, present(current, tag), maxMessageBytes, removed);
        }, removed);
        AdminResponses.ok(request, response, answer(written, tag, removed));
    }

    void delete(ServerRequest request, ServerResponse response) {
        Notification seen = existing.apply(request);
        String tag = tag(request);
        requireNotOwn(seen, tag);
        present(seen.translations(), tag);
        write(request, response, seen, tag, false, current -> {
            present(current, tag);
            return null;
        }, List.of());
        AdminResponses.noContent(response);
    }

    /**
     * The notification with the translation in {@code tag} as {@code change} gives it from the current ones (null:
     * none), written as an update: checked as one, and refused when {@code tag} is its own language. As an update it
     * deletes the draft of changes, so it takes the notification's If-Match and If-None-Match as a PATCH does (the tag
     * covers the draft), and answers the notification's new ETag. Only a PUT ({@code creates}) may create what it
     * writes: its {@code If-None-Match: *} asks for no translation in {@code tag} yet.
     */
    private Notification write(ServerRequest request, ServerResponse response, Notification seen, String tag,
                               boolean creates, Function<SortedMap<String, Translation>, Translation> change,
                               List<JsonObject> removed) {
        Actor actor = Actor.of(request);
        NotificationPreconditions preconditions = NotificationPreconditions.asRead(
                request, seen, notifications, creates ? Optional.of(tag) : Optional.empty());
        Notification written = notifications.update(seen, (current, draft) -> {
            preconditions.require(current, draft);
            requireNotOwn(current, tag);
            SortedMap<String, Translation> translations = new TreeMap<>(current.translations());
            Translation translation = change.apply(current.translations());
            if (translation == null) {
                translations.remove(tag);
            } else {
                translations.put(tag, translation);
            }
            // Written through its own route, the translation is up to date, its text changed or not: a PATCH of
            // nothing is how a translator says that it still says what the notification says.
            return NotificationChanges.withTranslations(current, translations, clock.millis(), removed,
                                                        maxMessageBytes, translation == null ? null : tag);
        }, (before, after) -> AuditEntry.of(actor, after.updatedAt(), "notification.updated", before.projectId(),
                                            "notification", before.id(),
                                            NotificationAdminService.changes(before, after))).notification();
        response.header(ResponseHeaders.of(HeaderNames.ETAG, NotificationPreconditions.tag(written, Optional.empty())));
        return written;
    }

    /** 400 for the notification's own language, which no translation route writes. */
    private static void requireNotOwn(Notification notification, String tag) {
        if (tag.equals(notification.effectiveLocale())) {
            throw ApiException.validation("locale", tag + " is the notification's own language: change the"
                    + " notification itself (PATCH /api/v1/admin/notifications/" + notification.id() + ")");
        }
    }

    private static Translation present(SortedMap<String, Translation> translations, String tag) {
        Translation translation = translations.get(tag);
        if (translation == null) {
            throw ApiException.error(Status.NOT_FOUND_404, "TRANSLATION_NOT_FOUND", "The notification has no"
                    + " translation in " + tag);
        }
        return translation;
    }

    private static String tag(ServerRequest request) {
        // Helidon drops a segment's parameters (es;q=1 is es): such a path names no tag, and must not act on one.
        if (request.prologue().uriPath().rawPath().indexOf(';') >= 0) {
            throw NotificationChanges.notATag("locale");
        }
        return NotificationChanges.translationTag(request.path().pathParameters().get("locale"), "locale");
    }

    private static JsonObject answer(Notification written, String tag, List<JsonObject> removed) {
        JsonObject json = Translations.view(written, tag);
        if (removed.isEmpty()) {
            return json;
        }
        JsonArrayBuilder removals = Json.builders().createArrayBuilder();
        removed.forEach(removals::add);
        JsonObjectBuilder answer = Json.builders().createObjectBuilder(json);
        return answer.add("removed", removals).build();
    }
}
