package dev.herald.notification;

import java.util.List;
import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.EntityTag;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;

/**
 * A change sent with {@code If-Match} applies only to the notification as its sender read it (RFC 9110, 13.1.1): two
 * tabs of the console that opened the same announcement no longer save over each other without a word (a product
 * manager's trial). A notification's entity tag is a hash of what GET answers of it: any write changes it, even two
 * in one millisecond (updatedAt alone would not tell those apart). It covers its pending draft of changes too, by the
 * draft's own tag ({@link DraftPreconditions}), since a PATCH deletes that draft: one who read the notification
 * before a colleague saved a draft can no longer delete it unseen (an outside security review). Without a draft the
 * tag is what it was before drafts counted, so a tag kept across an upgrade still names the notification.
 * <p>
 * {@code If-None-Match} is evaluated too (RFC 9110, 13.1.2), on the same target: it was ignored, so a write its
 * sender asked for only if the target had none, or was no longer as named, went through (an outside security review).
 * The target is the notification, which exists, so {@code *} always fails; only a translation's PUT creates something,
 * and there {@code *} names that translation.
 *
 * @param ifMatch     the request's {@code If-Match}, if it has one
 * @param ifNoneMatch the request's {@code If-None-Match}, if it has one
 * @param creating    the language of the translation a PUT writes, which {@code If-None-Match: *} asks to be none;
 *                    empty: {@code *} names the notification
 */
record NotificationPreconditions(Optional<String> ifMatch, Optional<String> ifNoneMatch, Optional<String> creating) {

    /** The entity tag of the notification as it is, with its pending draft of changes, if any. */
    static String tag(Notification notification, Optional<NotificationStore.Draft> draft) {
        byte[] body = Json.bytes(NotificationJson.tagged(notification));
        return draft.map(pending -> EntityTag.of(DraftPreconditions.tag(pending), body))
                .orElseGet(() -> EntityTag.of(body));
    }

    /**
     * The request's conditions, checked at once against the notification as read, so that one that fails is refused
     * before its body is read or its write waits for the lock; the write checks them again on what it finds.
     */
    static NotificationPreconditions asRead(ServerRequest request, Notification seen, NotificationStore notifications) {
        return asRead(request, seen, notifications, Optional.empty());
    }

    /**
     * As {@link #asRead(ServerRequest, Notification, NotificationStore)}, for a write that may create the translation
     * in {@code creating}.
     */
    static NotificationPreconditions asRead(ServerRequest request, Notification seen, NotificationStore notifications,
                                            Optional<String> creating) {
        NotificationPreconditions preconditions = new NotificationPreconditions(
                condition(request, HeaderNames.IF_MATCH), condition(request, HeaderNames.IF_NONE_MATCH), creating);
        if (preconditions.ifMatch.isPresent() || preconditions.ifNoneMatch.isPresent()) {
            preconditions.require(seen, notifications.draft(seen.id()));
        }
        return preconditions;
    }

    /**
     * A precondition header of a write, if the request has one.
     *
     * @throws ApiException 400 when it is neither {@code *} nor a list of quoted entity tags: one that can match
     *                      nothing is the sender's mistake, never a condition that holds or fails by accident
     */
    static Optional<String> condition(ServerRequest request, HeaderName name) {
        // A list header (RFC 9110, 13.1.1): its lines are one list, so a tag on a second line is never passed over.
        List<String> lines = request.headers().all(name, List::of);
        Optional<String> value = lines.isEmpty() ? Optional.empty()
                : Optional.of(String.join(", ", lines).strip());
        if (value.isPresent() && !EntityTag.isConditionList(value.get())) {
            throw ApiException.validation(name.defaultCase(), name.defaultCase() + " must be * or entity tags as an"
                    + " ETag gave them, quoted (\"…\"), separated by commas");
        }
        return value;
    }

    /** Whether {@code ifMatch} ({@code *} or a list of tags) names {@code tag}: strong comparison, as RFC 9110 asks. */
    static boolean matches(String ifMatch, String tag) {
        return names(ifMatch, tag, false);
    }

    /**
     * Whether {@code ifNoneMatch} ({@code *} or a list of tags) names {@code tag}: weak comparison, as RFC 9110 asks
     * of it, so a sender's {@code W/"…"} names the tag it weakened. Herald's own tags are all strong.
     */
    static boolean matchesWeakly(String ifNoneMatch, String tag) {
        return names(ifNoneMatch, tag, true);
    }

    private static boolean names(String condition, String tag, boolean weak) {
        if (condition.equals("*")) {
            return true;
        }
        for (String listed : condition.split(",")) {
            String candidate = listed.strip();
            if (weak && candidate.startsWith("W/")) {
                candidate = candidate.substring(2);
            }
            if (candidate.equals(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inside the write, on the notification and the draft of changes it found. Both conditions must hold, If-Match
     * checked first (RFC 9110, 13.2.2).
     *
     * @throws ApiException 412 when {@code ifMatch} names neither them nor any ({@code *}), or when
     *                      {@code ifNoneMatch} names them, or is {@code *} (for a translation's PUT: and the
     *                      translation exists)
     */
    void require(Notification current, Optional<NotificationStore.Draft> draft) {
        if (ifMatch.isEmpty() && ifNoneMatch.isEmpty()) {
            return;
        }
        String tag = tag(current, draft);
        if (ifMatch.isPresent() && !matches(ifMatch.get(), tag)) {
            throw changedSinceRead("The notification or its draft of changes changed since it was read ("
                    + asFound(current, draft) + "): read it again, then send the change");
        }
        if (ifNoneMatch.isEmpty()) {
            return;
        }
        if (ifNoneMatch.get().equals("*")) {
            if (creating.isEmpty()) {
                throw changedSinceRead("If-None-Match: * asks that there be none, and the notification exists: send"
                        + " If-Match with the ETag read instead");
            }
            if (current.translations().containsKey(creating.get())) {
                throw changedSinceRead("The notification has a translation in " + creating.get() + " (" + asFound(
                        current, draft) + "), and If-None-Match: * asks that there be none: read it, then send the"
                        + " change");
            }
        } else if (matchesWeakly(ifNoneMatch.get(), tag)) {
            throw changedSinceRead("The notification and its draft of changes are as If-None-Match names them ("
                    + asFound(current, draft) + "): nothing is written");
        }
    }

    private static String asFound(Notification current, Optional<NotificationStore.Draft> draft) {
        return "updatedAt " + Timestamps.format(current.updatedAt())
                + draft.map(pending -> "; a draft of changes saved by " + pending.updatedBy() + " at "
                        + Timestamps.format(pending.updatedAt())).orElse("; no draft of changes");
    }

    /** The one answer of a precondition that failed, for the notification and its draft alike. */
    static ApiException changedSinceRead(String message) {
        return ApiException.error(Status.PRECONDITION_FAILED_412, "CHANGED_SINCE_READ", message);
    }
}
