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
 */
final class NotificationPreconditions {

    private NotificationPreconditions() {
    }

    /** The entity tag of the notification as it is, with its pending draft of changes, if any. */
    static String tag(Notification notification, Optional<NotificationStore.Draft> draft) {
        byte[] body = Json.bytes(NotificationJson.json(notification));
        return draft.map(pending -> EntityTag.of(DraftPreconditions.tag(pending), body))
                .orElseGet(() -> EntityTag.of(body));
    }

    /**
     * The request's {@code If-Match}, checked at once against the notification as read, so that a stale one is refused
     * before its body is read or its write waits for the lock; the write checks it again on what it finds.
     */
    static Optional<String> ifMatchAsRead(ServerRequest request, Notification seen, NotificationStore notifications) {
        Optional<String> ifMatch = ifMatch(request);
        if (ifMatch.isPresent()) {
            require(ifMatch, seen, notifications.draft(seen.id()));
        }
        return ifMatch;
    }

    /** The request's {@code If-Match}, if it has one. */
    static Optional<String> ifMatch(ServerRequest request) {
        return condition(request, HeaderNames.IF_MATCH);
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
        if (ifMatch.equals("*")) {
            return true;
        }
        for (String listed : ifMatch.split(",")) {
            if (listed.strip().equals(tag)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Inside the write, on the notification and the draft of changes it found.
     *
     * @throws ApiException 412 when {@code ifMatch} names neither them nor any ({@code *})
     */
    static void require(Optional<String> ifMatch, Notification current, Optional<NotificationStore.Draft> draft) {
        if (ifMatch.isEmpty() || matches(ifMatch.get(), tag(current, draft))) {
            return;
        }
        throw changedSinceRead("The notification or its draft of changes changed since it was read (updatedAt "
                + Timestamps.format(current.updatedAt())
                + draft.map(pending -> "; a draft of changes saved by " + pending.updatedBy() + " at "
                        + Timestamps.format(pending.updatedAt())).orElse("; no draft of changes")
                + "): read it again, then send the change");
    }

    /** The one answer of a precondition that failed, for the notification and its draft alike. */
    static ApiException changedSinceRead(String message) {
        return ApiException.error(Status.PRECONDITION_FAILED_412, "CHANGED_SINCE_READ", message);
    }
}
