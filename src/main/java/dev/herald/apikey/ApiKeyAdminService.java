package dev.herald.apikey;

import java.time.Clock;
import java.util.Optional;
import java.util.Set;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.PageRequest;
import dev.herald.admin.BodyFields;
import dev.herald.admin.Ids;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditDetails;
import dev.herald.audit.AuditEntry;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * API keys in the management API (docs/api.md#management-api): issue, list, change settings, revoke.
 * A revoked key stops working at once: the store announces every write, and the public API's keys in memory
 * follow before the answer is sent.
 */
public final class ApiKeyAdminService implements HttpService {

    private static final BodyFields NEW_KEY = BodyFields.of("key", "showPast", "showFuture", "orderBy", "requireUserToken")
            .readOnly("projectId", "createdAt", "revokedAt");
    /** A key's value cannot change: it is what clients hold. */
    private static final BodyFields SETTINGS = BodyFields.of("showPast", "showFuture", "orderBy", "requireUserToken")
            .readOnly("key", "projectId", "createdAt", "revokedAt");

    private static final String TARGET = "api-key";

    private final ProjectStore projects;
    private final ApiKeyStore keys;
    private final Clock clock;

    public ApiKeyAdminService(DbClient db, ApiKeyStore keys, Clock clock) {
        this.projects = new ProjectStore(db);
        this.keys = keys;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects/{projectId}/api-keys", this::create)
                .get("/projects/{projectId}/api-keys", this::list)
                .head("/projects/{projectId}/api-keys", this::list)
                .patch("/api-keys/{key}", this::update)
                .delete("/api-keys/{key}", this::revoke)
                .any("/projects/{projectId}/api-keys", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/api-keys/{key}", RouteFallbacks.methodNotAllowed("PATCH, DELETE"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        JsonObject body = AdminRequests.body(request, NEW_KEY);
        String key = AdminRequests.optionalString(body, "key").orElseGet(Ids::newApiKey);
        if (!ApiKey.isWellFormed(key)) {
            throw ApiException.validation("key", "key must be 32 to 64 letters and digits");
        }
        ApiKey created = new ApiKey(key,
                                    project.id(),
                                    AdminRequests.optionalBoolean(body, "showPast").orElse(false),
                                    AdminRequests.optionalBoolean(body, "showFuture").orElse(false),
                                    orderBy(body).orElse(OrderBy.DEFAULT),
                                    clock.millis(),
                                    null,
                                    AdminRequests.optionalBoolean(body, "requireUserToken").orElse(false));
        if (keys.find(key).isPresent()) {
            throw ApiException.error(Status.CONFLICT_409, "CONFLICT", "This key is already in use");
        }
        keys.create(created, AuditEntry.of(Actor.of(request), created.createdAt(), "api-key.created", project.id(),
                                           TARGET, key, json(created)));
        AdminResponses.created(request, response, "/api/v1/admin/api-keys/" + key, json(created));
    }

    private void list(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        AdminResponses.page(request, response, keys.listByProject(project.id(), PageRequest.of(request)),
                            ApiKeyAdminService::json);
    }

    private void update(ServerRequest request, ServerResponse response) {
        ApiKey seen = existing(request);
        JsonObject body = AdminRequests.body(request, SETTINGS);
        Optional<Boolean> showPast = AdminRequests.optionalBoolean(body, "showPast");
        Optional<Boolean> showFuture = AdminRequests.optionalBoolean(body, "showFuture");
        Optional<OrderBy> orderBy = orderBy(body);
        Optional<Boolean> requireUserToken = AdminRequests.optionalBoolean(body, "requireUserToken");
        long now = clock.millis();
        Actor actor = Actor.of(request);
        ApiKey updated = keys.updateSettings(
                seen, key -> new ApiKey(key.key(), key.projectId(), showPast.orElse(key.showPast()),
                                        showFuture.orElse(key.showFuture()), orderBy.orElse(key.orderBy()),
                                        key.createdAt(), key.revokedAt(),
                                        requireUserToken.orElse(key.requireUserToken())),
                now, (before, after) -> AuditEntry.of(actor, clock.millis(), "api-key.updated", before.projectId(),
                        TARGET, before.key(), AuditDetails.changes(json(before), json(after), Set.of())));
        AdminResponses.ok(request, response, json(updated));
    }

    private void revoke(ServerRequest request, ServerResponse response) {
        ApiKey key = existing(request);
        long now = clock.millis();
        keys.revoke(key, now, AuditEntry.of(Actor.of(request), now, "api-key.revoked", key.projectId(), TARGET,
                                            key.key(), Json.builders().createObjectBuilder().build()));
        AdminResponses.noContent(response);
    }

    private ApiKey existing(ServerRequest request) {
        return keys.find(request.path().pathParameters().get("key")).orElseThrow(() -> AdminRequests.notFound("API key"));
    }

    private static Optional<OrderBy> orderBy(JsonObject body) {
        return AdminRequests.optionalChoice(body.get("orderBy"), "orderBy", OrderBy.wireNames())
                .map(name -> OrderBy.fromWireName(name).orElseThrow());
    }

    static JsonObject json(ApiKey key) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("key", key.key())
                .add("projectId", key.projectId())
                .add("showPast", key.showPast())
                .add("showFuture", key.showFuture())
                .add("orderBy", key.orderBy().wireName())
                .add("requireUserToken", key.requireUserToken())
                .add("createdAt", Timestamps.format(key.createdAt()));
        if (key.revokedAt() == null) {
            json.addNull("revokedAt");
        } else {
            json.add("revokedAt", Timestamps.format(key.revokedAt()));
        }
        return json.build();
    }
}
