package dev.herald.userstate;

import java.time.Clock;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminResponses;
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

/**
 * A privacy request (docs/api.md, DELETE /api/v1/admin/projects/{projectId}/users/{sub}): every state row of the
 * user in the project goes, with an audit line that names the user by its stored key, never by the sub. An editor's
 * write like any other deletion; a user with no rows is answered the same 204.
 */
final class UserErasureService implements HttpService {

    /** As the token's {@code sub} may be (docs/identity.md). */
    static final int MAX_SUB_LENGTH = 256;

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
        rules.delete("/projects/{projectId}/users/{sub}", this::erase)
                .any("/projects/{projectId}/users/{sub}", RouteFallbacks.methodNotAllowed("DELETE"));
    }

    private void erase(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        String sub = request.path().pathParameters().get("sub");
        if (sub.isEmpty() || sub.length() > MAX_SUB_LENGTH) {
            throw ApiException.validation("sub", "sub must be the user's id as the token's sub claim: 1 to "
                    + MAX_SUB_LENGTH + " characters");
        }
        String userKey = UserIdentity.userKey(project.id(), sub);
        long now = clock.millis();
        store.erase(project.id(), userKey, AuditEntry.of(Actor.of(request), now, "user.erased", project.id(), "user",
                                                         userKey, Json.builders().createObjectBuilder().build()));
        AdminResponses.noContent(response);
    }
}
