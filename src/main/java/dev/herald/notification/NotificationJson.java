package dev.herald.notification;

import java.util.List;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The admin view of a notification (docs/api.md#objects).
 */
final class NotificationJson {

    private NotificationJson() {
    }

    /** The admin view, as answered. */
    static JsonObject json(Notification notification) {
        return view(notification).build();
    }

    /**
     * The admin view without what a notification's own changes make of its translations ({@code outdated}): what a
     * change is found in (an audit line's changes, an event's {@code changed}), which names the translations only
     * when they were written. Otherwise a typo fixed in the notification's own message would put all its
     * translations, up to 8 × {@code limits.message-bytes}, twice in its audit line.
     */
    static JsonObject compared(Notification notification) {
        return view(notification, Form.COMPARED).build();
    }

    /**
     * What an audit line's changes compare: {@link #compared}, and the tags of the translations to read again
     * ({@code outdatedTranslations}, empty for none), so that the write that left some so, and a translation marked
     * up to date, each say it in a few bytes.
     */
    static JsonObject audited(Notification notification) {
        JsonObject compared = compared(notification);
        JsonArrayBuilder outdated = Json.builders().createArrayBuilder();
        notification.translations().forEach((tag, translation) -> {
            if (Translations.outdated(notification, translation)) {
                outdated.add(tag);
            }
        });
        return Json.builders().createObjectBuilder(compared).add("outdatedTranslations", outdated).build();
    }

    /** An entry of a list: the admin view, and {@code draftOfChanges} when a draft of changes is pending. */
    static JsonObject json(NotificationStore.Listed listed) {
        JsonObjectBuilder json = view(listed.notification());
        listed.draft().ifPresent(draft -> json.add("draftOfChanges", Json.builders().createObjectBuilder()
                .add("updatedAt", Timestamps.format(draft.updatedAt()))
                .add("updatedBy", draft.updatedBy())));
        return json.build();
    }

    /** A draft of changes as GET, PUT and a restore answer it (docs/api.md, PUT .../notifications/{id}/draft). */
    static JsonObject draft(NotificationStore.Draft draft) {
        return Json.builders().createObjectBuilder()
                .add("notificationId", draft.notificationId())
                .add("changes", draft.body())
                .add("updatedAt", Timestamps.format(draft.updatedAt()))
                .add("updatedBy", draft.updatedBy())
                .build();
    }

    /**
     * The answer to a create or an update: the admin view, and {@code removed}, what of the message the content
     * allow-list did not keep (docs/api.md#message-content), when it did not keep everything. Without it the answer is
     * the admin view, which a client may send back as it is.
     */
    static JsonObject json(Notification notification, List<JsonObject> removed) {
        if (removed.isEmpty()) {
            return json(notification);
        }
        JsonArrayBuilder removals = Json.builders().createArrayBuilder();
        removed.forEach(removals::add);
        return view(notification).add("removed", removals).build();
    }

    /**
     * What its entity tag hashes: the admin view, {@code imageAlt} named only where set (its own, its translations'),
     * so that an instance of the version before the member (in a rolling upgrade) gives every notification without
     * one the same tag, and an editor whose read and write reach instances of both is not refused for a change no one
     * made.
     */
    static JsonObject tagged(Notification notification) {
        return view(notification, Form.TAGGED).build();
    }

    /**
     * What a version keeps of a notification (docs/api.md, GET /api/v1/admin/notifications/{id}/versions): the
     * members of the admin view that a PATCH body may carry but its status, so that it can be sent back as one;
     * {@code audience} only when there is one; {@code locale} only when it has its own (null in a PATCH body: the
     * project's default) and {@code translations} only when it has some.
     */
    static JsonObject content(Notification notification) {
        JsonObjectBuilder json = withContent(Json.builders().createObjectBuilder(), notification, false);
        // Only when set, as the audience: the content of a notification without languages is what versions kept
        // before them, so a change of status does not make a new version of every notification.
        if (notification.locale() != null) {
            json.add("locale", notification.locale());
        }
        if (!notification.translations().isEmpty()) {
            json.add("translations", Translations.kept(notification.translations()));
        }
        return json.build();
    }

    /**
     * The forms of the view: as answered; as compared (every member, no {@code outdated}); as {@link #tagged} hashes
     * it ({@code imageAlt} only where set, no {@code outdated}).
     */
    private enum Form { ANSWERED, COMPARED, TAGGED }

    private static JsonObjectBuilder view(Notification notification) {
        return view(notification, Form.ANSWERED);
    }

    private static JsonObjectBuilder view(Notification notification, Form form) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("id", notification.id())
                .add("projectId", notification.projectId())
                .add("status", notification.status().name());
        withContent(json, notification, form != Form.TAGGED);
        if (notification.audience() == null) {
            json.addNull("audience");
        }
        json.add("locale", notification.effectiveLocale())
                .add("translations", switch (form) {
                    case ANSWERED -> Translations.view(notification);
                    case COMPARED -> Translations.json(notification.translations());
                    case TAGGED -> Translations.kept(notification.translations());
                });
        return json.add("createdAt", Timestamps.format(notification.createdAt()))
                .add("updatedAt", Timestamps.format(notification.updatedAt()));
    }

    /** @param everyMember the admin view, which names every member: a version names {@code imageAlt} only when set */
    private static JsonObjectBuilder withContent(JsonObjectBuilder json, Notification notification,
                                                 boolean everyMember) {
        nullable(json, "title", notification.title());
        json.add("message", notification.message());
        nullable(json, "image", notification.image());
        // Only when set in a version, as the audience below: restore reads an absent one as null.
        if (everyMember || notification.imageAlt() != null) {
            nullable(json, "imageAlt", notification.imageAlt());
        }
        json.add("action", action(notification.action()))
                .add("preset", notification.preset());
        nullable(json, "startDate", notification.startAt() == null ? null : Timestamps.format(notification.startAt()));
        nullable(json, "endDate", notification.endAt() == null ? null : Timestamps.format(notification.endAt()));
        // Only when set in a version: the content of one for everyone is what versions kept before audiences, so a
        // change of status does not make a new version of every notification (restore reads an absent one as null).
        if (notification.audience() != null) {
            json.add("audience", notification.audience().json());
        }
        return json;
    }

    static JsonObject action(Action action) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder().add("type", action.type().name());
        if (action.type() == Action.Type.LINK) {
            JsonObjectBuilder data = Json.builders().createObjectBuilder().add("url", action.url())
                    .add("target", action.target());
            // Absent, not null, when unset: the feed's shape, so that the view is the feed's object with more members.
            if (action.label() != null) {
                data.add("label", action.label());
            }
            json.add("data", data);
        } else {
            json.addNull("data");
        }
        return json.build();
    }

    private static void nullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }
}
