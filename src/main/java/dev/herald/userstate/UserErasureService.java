package dev.herald.userstate;

import java.time.Clock;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.audit.AuditEntry;
import dev.herald.identity.UserIdentity;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * A privacy request (docs/api.md, POST /api/v1/admin/projects/{projectId}/users/erase, and DELETE …/users/{sub} for a
 * sub a path segment carries): every state row of the user in the project goes, with an audit line that names no
 * user, neither by the sub nor by its stored key (a SHA-256 of project and sub: anyone who guesses the sub finds it),
 * only how many rows went. An editor's write like any other deletion; a user with no rows is answered the same 204.
 */
final class UserErasureService implements HttpService {

    /** As the token's {@code sub} may be (docs/identity.md). */
    static final int MAX_SUB_LENGTH = 256;
    /** 256 characters outside the BMP escaped as two \\uXXXX (12 bytes each), with room for the member's name. */
    private static final int MAX_BODY_BYTES = 4096;
    private static final BodyFields ERASE = BodyFields.of("sub");

    private final ProjectStore projects;
    private final UserStateStore store;
    private final Clock clock;

    UserErasureService(DbClient db, UserStateStore store, Clock clock) {
        this.projects = new ProjectStore(db);
        this.store = store;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        // Before the path route: POST …/users/erase is this route, DELETE …/users/erase the user whose sub is "erase".
        rules.post("/projects/{projectId}/users/erase", this::eraseByBody)
                .delete("/projects/{projectId}/users/{sub}", this::eraseByPath)
                .any("/projects/{projectId}/users/erase", RouteFallbacks.methodNotAllowed("DELETE, POST"))
                .any("/projects/{projectId}/users/{sub}", RouteFallbacks.methodNotAllowed("DELETE"));
    }

    /** Any sub, and none in the access log's URL: a sub may be personal data (an email address). */
    private void eraseByBody(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        JsonObject body = AdminRequests.bodyAsSent(request, ERASE, MAX_BODY_BYTES);
        JsonValue sub = body.get("sub");
        if (!(sub instanceof JsonString text)) {
            throw invalidSub();
        }
        erase(request, response, project, text.getString());
    }

    /**
     * A sub that a path segment carries as it is ("/" never does: the router takes %2F for a separator), a raw ";"
     * included: the sub is read from the path as sent ({@link SubInPath}).
     */
    private void eraseByPath(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        erase(request, response, project, SubInPath.of(request.prologue()));
    }

    private void erase(ServerRequest request, ServerResponse response, Project project, String sub) {
        // Characters, as the token's sub is counted: an emoji is one, not two UTF-16 units.
        if (sub.isEmpty() || sub.codePointCount(0, sub.length()) > MAX_SUB_LENGTH) {
            throw invalidSub();
        }
        String userKey = UserIdentity.userKey(project.id(), sub);
        Actor actor = Actor.of(request);
        long now = clock.millis();
        store.erase(project.id(), userKey, rows -> AuditEntry.of(
                actor, now, "user.erased", project.id(), "user", null,
                Json.builders().createObjectBuilder().add("rows", rows).build()));
        AdminResponses.noContent(response);
    }

    private static ApiException invalidSub() {
        return ApiException.validation("sub", "sub must be the user's id as the token's sub claim: a string of 1 to "
                + MAX_SUB_LENGTH + " characters");
    }
}
