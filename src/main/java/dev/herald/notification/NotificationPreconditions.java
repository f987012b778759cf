package dev.herald.notification;

import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.EntityTag;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;

/**
 * A change sent with {@code If-Match} applies only to the notification as its sender read it (RFC 9110, 13.1.1): two
 * tabs of the console that opened the same announcement no longer save over each other without a word (a product
 * manager's trial). A notification's entity tag is a hash of what GET answers of it: any write changes it, even two
 * in one millisecond (updatedAt alone would not tell those apart).
 */
final class NotificationPreconditions {

    private NotificationPreconditions() {
    }

    /** The entity tag of the notification as it is. */
    static String tag(Notification notification) {
        return EntityTag.of(Json.bytes(NotificationJson.json(notification)));
    }

    /** The request's {@code If-Match}, if it has one. */
    static Optional<String> ifMatch(ServerRequest request) {
        return request.headers().first(HeaderNames.IF_MATCH).map(String::strip);
    }

    /**
     * Inside the write, on the notification it found.
     *
     * @throws ApiException 412 when {@code ifMatch} names neither it nor any ({@code *})
     */
    static void require(Optional<String> ifMatch, Notification current) {
        if (ifMatch.isEmpty() || ifMatch.get().equals("*")) {
            return;
        }
        String tag = tag(current);
        for (String listed : ifMatch.get().split(",")) {
            if (listed.strip().equals(tag)) {
                return;
            }
        }
        throw ApiException.error(Status.PRECONDITION_FAILED_412, "CHANGED_SINCE_READ", "The notification changed"
                + " since it was read (updatedAt " + Timestamps.format(current.updatedAt()) + "): read it again, then send"
                + " the change");
    }
}
