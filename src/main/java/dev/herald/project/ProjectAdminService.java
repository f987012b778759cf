package dev.herald.project;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
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
import dev.herald.api.TextLength;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditDetails;
import dev.herald.audit.AuditEntry;
import dev.herald.changes.ChangeLog;
import dev.herald.locale.LanguageTag;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * Projects in the management API (docs/api.md#management-api).
 */
public final class ProjectAdminService implements HttpService {

    static final int MAX_NAME_LENGTH = 200;
    /** A project's required languages: as many as a notification may have translations, and one more (its own). */
    static final int MAX_REQUIRED_LOCALES = 50;
    /** The column's width (migration 21): tags and the commas between them. */
    private static final int MAX_REQUIRED_LOCALES_CHARACTERS = 1000;
    private static final BodyFields NEW_PROJECT = BodyFields.of("name", "defaultLocale", "requiredLocales")
            .readOnly("id", "createdAt");
    private static final String TARGET = "project";

    private final ProjectStore projects;
    private final Clock clock;

    public ProjectAdminService(DbClient db, ChangeLog changes, Clock clock) {
        this.projects = new ProjectStore(db, changes);
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects", this::create)
                .get("/projects", this::list)
                .head("/projects", this::list)
                .get("/projects/{projectId}", this::get)
                .head("/projects/{projectId}", this::get)
                .patch("/projects/{projectId}", this::update)
                .any("/projects", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/projects/{projectId}", RouteFallbacks.methodNotAllowed("GET, HEAD, PATCH"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        JsonObject body = AdminRequests.body(request, NEW_PROJECT);
        Project project = new Project(Ids.newId(), name(body), clock.millis(),
                                      defaultLocale(body).orElse(Project.DEFAULT_LOCALE),
                                      requiredLocales(body).orElse(List.of()));
        projects.create(project, AuditEntry.of(Actor.of(request), project.createdAt(), "project.created",
                                               project.id(), TARGET, project.id(), json(project)));
        AdminResponses.created(request, response, "/api/v1/admin/projects/" + project.id(), json(project));
    }

    /**
     * Its name and languages; a member the body leaves out keeps its value. A change of required languages
     * unpublishes nothing: it applies to the next publishing (docs/api.md#languages).
     */
    private void update(ServerRequest request, ServerResponse response) {
        Project seen = existing(projects, request.path().pathParameters().get("projectId"));
        JsonObject body = AdminRequests.body(request, NEW_PROJECT);
        Optional<String> name = body.containsKey("name") ? Optional.of(name(body)) : Optional.empty();
        Optional<String> defaultLocale = defaultLocale(body);
        Optional<List<String>> requiredLocales = requiredLocales(body);
        Actor actor = Actor.of(request);
        // The time of the write, read in its transaction: the log's order by time is the order of the changes.
        Project updated = projects.update(seen.id(), before -> new Project(
                before.id(), name.orElse(before.name()), before.createdAt(), defaultLocale.orElse(before.defaultLocale()),
                requiredLocales.orElse(before.requiredLocales())), (before, after) -> AuditEntry.of(
                actor, clock.millis(), updateAction(before, after), before.id(), TARGET, before.id(),
                AuditDetails.changes(json(before), json(after), Set.of())));
        AdminResponses.ok(request, response, json(updated));
    }

    /** A change of name alone is a rename, as it was when the name was all a project had that could change. */
    private static String updateAction(Project before, Project after) {
        boolean languages = !before.defaultLocale().equals(after.defaultLocale())
                || !before.requiredLocales().equals(after.requiredLocales());
        return languages ? "project.updated" : "project.renamed";
    }

    private static Optional<String> defaultLocale(JsonObject body) {
        String field = "defaultLocale";
        return AdminRequests.optionalString(body.get(field) == JsonValue.NULL ? null : body.get(field), field)
                .map(tag -> LanguageTag.parseStored(tag).orElseThrow(() -> malformedTag(field)));
    }

    /** Canonical, each once, in the order given; null or [] for none. */
    private static Optional<List<String>> requiredLocales(JsonObject body) {
        String field = "requiredLocales";
        JsonValue value = body.get(field);
        if (value == null) {
            return Optional.empty();
        }
        if (value == JsonValue.NULL) {
            return Optional.of(List.of());
        }
        if (!(value instanceof JsonArray tags)) {
            throw ApiException.validation(field, field + " must be an array of BCP 47 language tags");
        }
        if (tags.size() > MAX_REQUIRED_LOCALES) {
            throw ApiException.validation(field, field + " holds at most " + MAX_REQUIRED_LOCALES + " tags");
        }
        Set<String> canonical = new LinkedHashSet<>();
        for (int i = 0; i < tags.size(); i++) {
            // Each named by its place: "FR, de-at, xx-invalid-tag-123456789" said only that one was wrong.
            String entry = field + "[" + i + "]";
            if (!(tags.get(i) instanceof JsonString text)) {
                throw malformedTag(entry);
            }
            canonical.add(LanguageTag.parseStored(text.getString()).orElseThrow(() -> ApiException.validation(
                    entry, entry + " is " + quoted(text.getString()) + "; " + malformedTag(field).getMessage())));
        }
        if (String.join(",", canonical).length() > MAX_REQUIRED_LOCALES_CHARACTERS) {
            throw ApiException.validation(field, field + " holds at most " + MAX_REQUIRED_LOCALES_CHARACTERS
                    + " characters of tags and commas");
        }
        return Optional.of(new ArrayList<>(canonical));
    }

    /** A tag as written, cut where it could not be one: the reader finds it in what they sent. */
    private static String quoted(String tag) {
        return Json.appendString(new StringBuilder(), tag.length() > 40 ? tag.substring(0, 40) + "…" : tag).toString();
    }

    private static ApiException malformedTag(String field) {
        return ApiException.validation(field, field + " must hold BCP 47 language tags of language, script, region"
                + " and variants (en, pt-BR, zh-Hant-TW), at most " + LanguageTag.MAX_LENGTH + " characters each");
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
                .add("defaultLocale", project.defaultLocale())
                .add("requiredLocales", Json.builders().createArrayBuilder(project.requiredLocales()))
                .add("createdAt", Timestamps.format(project.createdAt()))
                .build();
    }

}
