package dev.herald.webhook;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.admin.Ids;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.TextLength;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditDetails;
import dev.herald.audit.AuditEntry;
import dev.herald.outbox.EventType;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Webhook endpoints in the management API (docs/webhooks.md#endpoints-deliveries-and-replay): create, list, read,
 * change, delete, rotate the secret, list recent deliveries, replay. The secret is in two answers only: the create's
 * and a rotation's.
 */
public final class WebhookAdminService implements HttpService {

    static final int MAX_URL_LENGTH = 2048;
    static final int MAX_DESCRIPTION_LENGTH = 200;
    private static final int MAX_PORT = 65535;
    private static final BodyFields NEW_ENDPOINT = BodyFields.of("url", "eventTypes", "description", "enabled")
            .readOnly("id", "projectId", "secret", "disabledReason", "failingSince", "createdAt", "updatedAt");
    private static final BodyFields CHANGES = BodyFields.of("url", "eventTypes", "description", "enabled")
            .readOnly("id", "projectId", "secret", "disabledReason", "failingSince", "createdAt", "updatedAt");
    private static final BodyFields REPLAY = BodyFields.of("since");
    /** A rotation makes its secret: one sent ({@code {"secret":…}}) is refused, never ignored. */
    private static final BodyFields NO_BODY = BodyFields.of();
    private static final String TARGET = "webhook-endpoint";

    private final ProjectStore projects;
    private final EndpointStore endpoints;
    private final DeliveryStore deliveries;
    private final WebhookSettings settings;
    private final Clock clock;

    public WebhookAdminService(DbClient db, EndpointStore endpoints, WebhookSettings settings, Clock clock) {
        this.projects = new ProjectStore(db);
        this.endpoints = endpoints;
        this.deliveries = new DeliveryStore(db);
        this.settings = settings;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects/{projectId}/webhooks", this::create)
                .get("/projects/{projectId}/webhooks", this::list)
                .head("/projects/{projectId}/webhooks", this::list)
                .get("/webhooks/{endpointId}", this::get)
                .head("/webhooks/{endpointId}", this::get)
                .patch("/webhooks/{endpointId}", this::update)
                .delete("/webhooks/{endpointId}", this::delete)
                .post("/webhooks/{endpointId}/rotate-secret", this::rotate)
                .get("/webhooks/{endpointId}/deliveries", this::recentDeliveries)
                .head("/webhooks/{endpointId}/deliveries", this::recentDeliveries)
                .post("/webhooks/{endpointId}/deliveries/{eventId}/replay", this::replayOne)
                .post("/webhooks/{endpointId}/replay", this::replaySince)
                .any("/projects/{projectId}/webhooks", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/webhooks/{endpointId}", RouteFallbacks.methodNotAllowed("GET, HEAD, PATCH, DELETE"))
                .any("/webhooks/{endpointId}/rotate-secret", RouteFallbacks.methodNotAllowed("POST"))
                .any("/webhooks/{endpointId}/deliveries", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .any("/webhooks/{endpointId}/deliveries/{eventId}/replay", RouteFallbacks.methodNotAllowed("POST"))
                .any("/webhooks/{endpointId}/replay", RouteFallbacks.methodNotAllowed("POST"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        JsonObject body = AdminRequests.body(request, NEW_ENDPOINT);
        String url = url(AdminRequests.optionalString(body, "url")
                                 .orElseThrow(() -> ApiException.validation("url", "url is required")));
        List<String> types = eventTypes(Optional.ofNullable(body.get("eventTypes")))
                .orElseThrow(() -> ApiException.validation("eventTypes", "eventTypes is required: a list of "
                        + String.join(", ", EventType.wireNames())));
        long now = clock.millis();
        WebhookEndpoint endpoint = new WebhookEndpoint(Ids.newId(), project.id(), url, description(body), types,
                EndpointStore.newSecret(), null, null, AdminRequests.optionalBoolean(body, "enabled").orElse(true),
                null, null, now, now);
        endpoints.create(endpoint, AuditEntry.of(Actor.of(request), now, "webhook.created", project.id(), TARGET,
                                                 endpoint.id(), json(endpoint)));
        AdminResponses.created(request, response, "/api/v1/admin/webhooks/" + endpoint.id(),
                               withSecret(endpoint).build());
    }

    private void list(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        AdminResponses.page(request, response, endpoints.listByProject(project.id(), PageRequest.of(request)),
                            WebhookAdminService::json);
    }

    private void get(ServerRequest request, ServerResponse response) {
        AdminResponses.ok(request, response, json(existing(request)));
    }

    private void update(ServerRequest request, ServerResponse response) {
        WebhookEndpoint seen = existing(request);
        JsonObject body = AdminRequests.body(request, CHANGES);
        Optional<String> url = AdminRequests.optionalString(body, "url").map(WebhookAdminService::url);
        Optional<List<String>> types = eventTypes(Optional.ofNullable(body.get("eventTypes")));
        Optional<String> description = body.containsKey("description") ? Optional.ofNullable(description(body))
                : Optional.empty();
        boolean clearsDescription = body.containsKey("description") && description.isEmpty();
        Optional<Boolean> enabled = AdminRequests.optionalBoolean(body, "enabled");
        long now = clock.millis();
        Actor actor = Actor.of(request);
        WebhookEndpoint updated = endpoints.update(seen, before -> {
            boolean enable = enabled.orElse(before.enabled());
            // Enabled again by a person: its run of failures starts afresh, its reason goes.
            boolean reenabled = enable && !before.enabled();
            String reason = enable ? null : before.enabled() ? "Disabled by " + actor.name() : before.disabledReason();
            return new WebhookEndpoint(before.id(), before.projectId(), url.orElse(before.url()),
                    clearsDescription ? null : description.orElse(before.description()),
                    types.orElse(before.eventTypes()), before.secret(), before.previousSecret(),
                    before.previousSecretUntil(), enable, reason, reenabled ? null : before.failingSince(),
                    before.createdAt(), now);
        }, (before, after) -> AuditEntry.of(actor, now, "webhook.updated", before.projectId(), TARGET, before.id(),
                AuditDetails.changes(json(before), json(after), Set.of("updatedAt"))));
        AdminResponses.ok(request, response, json(updated));
    }

    private void delete(ServerRequest request, ServerResponse response) {
        WebhookEndpoint endpoint = existing(request);
        long now = clock.millis();
        endpoints.delete(endpoint, AuditEntry.of(Actor.of(request), now, "webhook.deleted", endpoint.projectId(),
                                                 TARGET, endpoint.id(), json(endpoint)));
        AdminResponses.noContent(response);
    }

    private void rotate(ServerRequest request, ServerResponse response) {
        WebhookEndpoint seen = existing(request);
        AdminRequests.body(request, NO_BODY);
        long now = clock.millis();
        long previousUntil = now + settings.rotationOverlap().toMillis();
        WebhookEndpoint rotated = endpoints.rotate(seen, now, previousUntil, AuditEntry.of(Actor.of(request), now,
                "webhook.secret-rotated", seen.projectId(), TARGET, seen.id(), Json.builders().createObjectBuilder()
                        .add("previousSecretExpiresAt", Timestamps.format(previousUntil)).build()));
        AdminResponses.ok(request, response, withSecret(rotated).build());
    }

    private void recentDeliveries(ServerRequest request, ServerResponse response) {
        WebhookEndpoint endpoint = existing(request);
        AdminResponses.page(request, response, deliveries.recent(endpoint.id(), PageRequest.of(request)),
                            WebhookAdminService::json);
    }

    private void replayOne(ServerRequest request, ServerResponse response) {
        WebhookEndpoint endpoint = enabled(existing(request));
        AdminRequests.body(request, NO_BODY);
        String eventId = request.path().pathParameters().get("eventId");
        long now = clock.millis();
        if (!deliveries.replay(endpoint.id(), eventId, now, AuditEntry.of(Actor.of(request), now, "webhook.replayed",
                endpoint.projectId(), TARGET, endpoint.id(), Json.builders().createObjectBuilder()
                        .add("eventId", eventId).add("url", endpoint.url()).add("replayed", 1).build()))) {
            throw ApiException.error(Status.NOT_FOUND_404, "NOT_FOUND", "Delivery not found, or being attempted now");
        }
        AdminResponses.accepted(request, response, Json.builders().createObjectBuilder().add("replayed", 1).build());
    }

    private void replaySince(ServerRequest request, ServerResponse response) {
        WebhookEndpoint endpoint = enabled(existing(request));
        JsonObject body = AdminRequests.body(request, REPLAY);
        long since = AdminRequests.instant(AdminRequests.optionalString(body, "since").orElseThrow(
                () -> ApiException.validation("since", "since is required: an ISO 8601 date-time with a zone")),
                "since");
        long now = clock.millis();
        Actor actor = Actor.of(request);
        long replayed = deliveries.replaySince(endpoint.id(), since, now, count -> AuditEntry.of(actor, now,
                "webhook.replayed", endpoint.projectId(), TARGET, endpoint.id(), Json.builders().createObjectBuilder()
                        .add("since", Timestamps.format(since)).add("url", endpoint.url()).add("replayed", count)
                        .build()));
        AdminResponses.accepted(request, response, Json.builders().createObjectBuilder().add("replayed", replayed)
                .build());
    }

    /** Only an enabled endpoint's deliveries are sent: a replay on a disabled one would queue what nothing sends. */
    private static WebhookEndpoint enabled(WebhookEndpoint endpoint) {
        if (!endpoint.enabled()) {
            throw ApiException.error(Status.CONFLICT_409, "ENDPOINT_DISABLED", "The webhook endpoint is disabled ("
                    + endpoint.disabledReason() + "): enable it (PATCH {\"enabled\": true}) to replay; its pending"
                    + " deliveries are sent then");
        }
        return endpoint;
    }

    private WebhookEndpoint existing(ServerRequest request) {
        return endpoints.find(request.path().pathParameters().get("endpointId"))
                .orElseThrow(() -> AdminRequests.notFound("Webhook endpoint"));
    }

    /**
     * An absolute http or https URL without credentials, with a port from 1 to 65535 if any; where it points is
     * checked at each attempt (SSRF). A URL no attempt could call is refused here, not at each delivery, where its
     * failures would count towards disabling the endpoint.
     */
    static String url(String text) {
        if (text.length() > MAX_URL_LENGTH) {
            throw ApiException.validation("url", "url must be at most " + MAX_URL_LENGTH + " characters");
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(java.util.Locale.ROOT);
            if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                throw ApiException.validation("url", "url must be an absolute http or https URL with a host, without"
                        + " credentials or fragment");
            }
            // An empty port ("host:/x") is -1 to URI, as no port is.
            if (uri.getPort() == 0 || uri.getPort() > MAX_PORT || uri.getRawAuthority().endsWith(":")) {
                throw ApiException.validation("url", "url must have a port from 1 to " + MAX_PORT + ", or none");
            }
            return text;
        } catch (URISyntaxException e) {
            throw ApiException.validation("url", "url must be an absolute http or https URL: " + e.getReason());
        }
    }

    private static String description(JsonObject body) {
        JsonValue value = body.get("description");
        if (value == null || value == JsonValue.NULL) {
            return null;
        }
        return TextLength.requireAtMost(AdminRequests.optionalString(value, "description").orElseThrow(),
                                        MAX_DESCRIPTION_LENGTH, "description");
    }

    /** A non-empty list of known event types, each once, in the order of {@link EventType}. */
    private static Optional<List<String>> eventTypes(Optional<JsonValue> value) {
        if (value.isEmpty()) {
            return Optional.empty();
        }
        List<String> known = EventType.wireNames();
        if (!(value.get() instanceof JsonArray array) || array.isEmpty()) {
            throw ApiException.validation("eventTypes", "eventTypes must be a non-empty list of "
                    + String.join(", ", known), known);
        }
        List<String> wanted = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            if (!(array.get(i) instanceof JsonString type) || !known.contains(type.getString())) {
                throw ApiException.validation("eventTypes[" + i + "]", "eventTypes[" + i + "] must be one of "
                        + String.join(", ", known), known);
            }
            wanted.add(type.getString());
        }
        return Optional.of(known.stream().filter(wanted::contains).toList());
    }

    private static JsonObjectBuilder withSecret(WebhookEndpoint endpoint) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder(json(endpoint)).add("secret", endpoint.secret());
        if (endpoint.previousSecretUntil() != null) {
            json.add("previousSecretExpiresAt", Timestamps.format(endpoint.previousSecretUntil()));
        }
        return json;
    }

    static JsonObject json(WebhookEndpoint endpoint) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("id", endpoint.id())
                .add("projectId", endpoint.projectId())
                .add("url", endpoint.url())
                .add("eventTypes", Json.builders().createArrayBuilder(endpoint.eventTypes()))
                .add("enabled", endpoint.enabled());
        nullable(json, "description", endpoint.description());
        nullable(json, "disabledReason", endpoint.disabledReason());
        instant(json, "failingSince", endpoint.failingSince());
        return json.add("createdAt", Timestamps.format(endpoint.createdAt()))
                .add("updatedAt", Timestamps.format(endpoint.updatedAt()))
                .build();
    }

    static JsonObject json(DeliveryRecord delivery) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("eventId", delivery.eventId())
                .add("status", delivery.status())
                .add("attempts", delivery.attempts());
        nullable(json, "eventType", delivery.eventType());
        instant(json, "nextAttemptAt", delivery.nextAttemptAt());
        instant(json, "lastAttemptAt", delivery.lastAttemptAt());
        if (delivery.lastStatus() == null) {
            json.addNull("lastStatus");
        } else {
            json.add("lastStatus", delivery.lastStatus());
        }
        if (delivery.lastLatencyMillis() == null) {
            json.addNull("lastLatencyMillis");
        } else {
            json.add("lastLatencyMillis", delivery.lastLatencyMillis());
        }
        nullable(json, "lastDetail", delivery.lastDetail());
        return json.add("createdAt", Timestamps.format(delivery.createdAt())).build();
    }

    private static void nullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }

    private static void instant(JsonObjectBuilder json, String name, Long millis) {
        if (millis == null) {
            json.addNull(name);
        } else {
            json.add(name, Timestamps.format(millis));
        }
    }
}
