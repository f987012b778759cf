package dev.herald.notification;

import java.time.Clock;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.api.Json;
import dev.herald.audience.Audience;
import dev.herald.audience.PastedClaims;
import dev.herald.identity.UserIdentity;

import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;

/**
 * "Would this user see it?" (docs/api.md, POST /api/v1/admin/notifications/{id}/audience-check): the notification's
 * audience as stored, evaluated now against claims the team pastes, each node's outcome by its path. A question, not
 * a change: a viewer may ask it, and nothing of the claims is stored or logged.
 */
final class AudienceCheck {

    private static final BodyFields FIELDS = BodyFields.of("claims");

    private final NotificationStore notifications;
    private final Clock clock;

    AudienceCheck(NotificationStore notifications, Clock clock) {
        this.notifications = notifications;
        this.clock = clock;
    }

    void answer(ServerRequest request, ServerResponse response) {
        Notification notification = notifications.find(request.path().pathParameters().get("id"))
                .orElseThrow(() -> AdminRequests.notFound("Notification"));
        JsonObject body = AdminRequests.body(request, FIELDS);
        long now = clock.millis();
        UserIdentity user = PastedClaims.identity(body.get("claims"), "claims", notification.projectId(), now);
        Audience audience = notification.audience();
        JsonArrayBuilder conditions = Json.builders().createArrayBuilder();
        boolean matches = true;
        if (audience != null) {
            for (Audience.Outcome outcome : audience.explain(user, notification.id(), now)) {
                conditions.add(Json.builders().createObjectBuilder().add("path", outcome.path())
                                       .add("matches", outcome.matches()));
                matches = outcome.matches();
            }
        }
        AdminResponses.ok(request, response, Json.builders().createObjectBuilder()
                .add("matches", matches)
                .add("conditions", conditions)
                .build());
    }
}
