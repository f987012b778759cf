package dev.herald.project;

import java.time.Clock;
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
import dev.herald.api.TextLength;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditDetails;
import dev.herald.audit.AuditEntry;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;

/**
 * Projects in the management API (docs/api.md#management-api).
 */
public final class ProjectAdminService implements HttpService {

    static final int MAX_NAME_LENGTH = 200;
    private static final BodyFields NEW_PROJECT = BodyFields.of("name").readOnly("id", "createdAt");
    private static final String TARGET = "project";

    private final ProjectStore projects;
    private final Clock clock;

    public ProjectAdminService(DbClient db, Clock clock) {
        this.projects = new ProjectStore(db);
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects", this::create)
                .get("/projects", this::list)
                .get("/projects/{projectId}", this::get)
                .patch("/projects/{projectId}", this::rename)
                .any("/projects", RouteFallbacks.methodNotAllowed("GET, POST"))
                .any("/projects/{projectId}", RouteFallbacks.methodNotAllowed("GET, PATCH"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        String name = name(AdminRequests.body(request, NEW_PROJECT));
        Project project = new Project(Ids.newId(), name, clock.millis());
        projects.create(project, AuditEntry.of(Actor.of(request), project.createdAt(), "project.created",
                                               project.id(), TARGET, project.id(), json(project)));
        AdminResponses.created(request, response, "/api/v1/admin/projects/" + project.id(), json(project));
    }

    /** The name is all a project has that can change. */
    private void rename(ServerRequest request, ServerResponse response) {
        Project seen = existing(projects, request.path().pathParameters().get("projectId"));
        String name = name(AdminRequests.body(request, NEW_PROJECT));
        Actor actor = Actor.of(request);
        // The time of the write, read in its transaction: the log's order by time is the order of the renames.
        Project renamed = projects.rename(seen.id(), name, (before, after) -> AuditEntry.of(
                actor, clock.millis(), "project.renamed", before.id(), TARGET, before.id(),
                AuditDetails.changes(json(before), json(after), Set.of())));
        AdminResponses.ok(request, response, json(renamed));
    }

    private static String name(JsonObject body) {
        String name = AdminRequests.optionalString(body, "name").map(String::strip).orElse("");
        if (name.isEmpty()) {
            throw ApiException.validation("name", "name is required: 1 to " + MAX_NAME_LENGTH + " characters, not blank");
        }
        TextLength.requireAtMost(name, MAX_NAME_LENGTH, "name");
        return name;
    }

    private void list(ServerRequest request, ServerResponse response) {
        AdminResponses.page(request, response, projects.list(PageRequest.of(request)), ProjectAdminService::json);
    }

    private void get(ServerRequest request, ServerResponse response) {
        Project project = existing(projects, request.path().pathParameters().get("projectId"));
        AdminResponses.ok(request, response, json(project));
    }

    /** The project, or 404: every route under a project starts here. */
    public static Project existing(ProjectStore projects, String projectId) {
        return projects.find(projectId).orElseThrow(() -> AdminRequests.notFound("Project"));
    }

    static JsonObject json(Project project) {
        return Json.builders().createObjectBuilder()
                .add("id", project.id())
                .add("name", project.name())
                .add("createdAt", Timestamps.format(project.createdAt()))
                .build();
    }

}
