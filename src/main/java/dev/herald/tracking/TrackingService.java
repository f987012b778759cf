package dev.herald.tracking;

import java.time.Clock;
import java.util.regex.Pattern;

import dev.herald.notification.NotificationStore;
import dev.herald.web.Json;
import dev.herald.web.RouteFallbacks;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;

/**
 * Track Interaction, simple and enhanced (public-api.md §4.2, §4.3). Checks run in the order of decisions §1,
 * the first failure answers; 204 only once the interaction is committed.
 */
public final class TrackingService implements HttpService {

    private static final Pattern NOTIFICATION_ID = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private final NotificationStore notifications;
    private final InteractionStore interactions;
    private final Clock clock;

    public TrackingService(DbClient db, Clock clock) {
        this.notifications = new NotificationStore(db);
        this.interactions = new InteractionStore(db);
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/track/{notificationId}", this::trackSimple)
                .post("/track/{notificationId}/enhanced", this::trackEnhanced)
                .any("/track/{notificationId}", RouteFallbacks.methodNotAllowed("POST, OPTIONS"))
                .any("/track/{notificationId}/enhanced", RouteFallbacks.methodNotAllowed("POST, OPTIONS"));
    }

    private void trackSimple(ServerRequest request, ServerResponse response) {
        track(request, response, TrackingEndpoint.SIMPLE);
    }

    /** Any Authorization header (a bearer token or other) is accepted and ignored: tracking never answers 401. */
    private void trackEnhanced(ServerRequest request, ServerResponse response) {
        track(request, response, TrackingEndpoint.ENHANCED);
    }

    private void track(ServerRequest request, ServerResponse response, TrackingEndpoint endpoint) {
        String notificationId = request.path().pathParameters().get("notificationId");
        if (!NOTIFICATION_ID.matcher(notificationId).matches()) {
            throw TrackingErrors.invalidNotificationId();
        }
        byte[] body = TrackingBody.read(request);
        TrackingBody.requireSupportedMediaType(request);
        JsonObject json = Json.parseObject(body).orElseThrow(TrackingErrors::invalidBody);
        TrackingRequest tracked = TrackingRequest.parse(json, endpoint);
        String projectId = notifications.projectOf(notificationId).orElseThrow(TrackingErrors::notificationNotFound);

        long now = clock.millis();
        long occurredAt = tracked.occurredAt() == null ? now : tracked.occurredAt();
        interactions.record(new Interaction(notificationId, projectId, tracked.type(), occurredAt, now, endpoint,
                                            tracked.metadata()));
        response.status(Status.NO_CONTENT_204).send();
    }
}
