package dev.herald.notification;

import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.EntityTag;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * A draft of changes is replaced or discarded only as its sender read it, as a PATCH changes the notification only
 * as read ({@link NotificationPreconditions}): two editors of one live announcement no longer save over each other's
 * drafts without a word (an outside security review). Its tag is a hash of what GET .../draft answers of it.
 * {@code If-Match} names the draft read ({@code *}: any there is); {@code If-None-Match: *} says the sender read
 * none, so one saved meanwhile is not replaced. Both are optional, as PATCH's {@code If-Match} is: without them a
 * write applies to whatever draft there is, as before.
 *
 * @param ifMatch     the request's {@code If-Match}, if it has one
 * @param ifNoneMatch the request's {@code If-None-Match}, if it has one
 */
record DraftPreconditions(Optional<String> ifMatch, Optional<String> ifNoneMatch) {

    static DraftPreconditions of(ServerRequest request) {
        return new DraftPreconditions(NotificationPreconditions.condition(request, HeaderNames.IF_MATCH),
                                      NotificationPreconditions.condition(request, HeaderNames.IF_NONE_MATCH));
    }

    /** The entity tag of the draft as it is. */
    static String tag(NotificationStore.Draft draft) {
        return EntityTag.of(Json.bytes(NotificationJson.draft(draft)));
    }

    /**
     * Inside the write, on the draft it found (empty: none). {@code If-Match} fails where there is none, {@code *}
     * included (RFC 9110, 13.1.1): the draft read was applied or discarded since.
     *
     * @throws ApiException 412 when a condition does not hold; nothing is written
     */
    void require(Optional<NotificationStore.Draft> current) {
        Optional<String> tag = current.map(DraftPreconditions::tag);
        if (ifMatch.isPresent() && !tag.map(found -> NotificationPreconditions.matches(ifMatch.get(), found))
                .orElse(false)) {
            throw changed(current);
        }
        if (ifNoneMatch.isPresent() && tag.isPresent()
                && NotificationPreconditions.matchesWeakly(ifNoneMatch.get(), tag.get())) {
            throw changed(current);
        }
    }

    private static ApiException changed(Optional<NotificationStore.Draft> current) {
        return NotificationPreconditions.changedSinceRead("The draft of changes changed since it was read ("
                + current.map(draft -> "saved by " + draft.updatedBy() + " at " + Timestamps.format(draft.updatedAt()))
                        .orElse("none now: applied or discarded")
                + "): read it again, then send the change");
    }
}
