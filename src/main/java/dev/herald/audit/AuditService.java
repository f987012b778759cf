package dev.herald.audit;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.herald.admin.AdminResponses;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;

import io.helidon.dbclient.DbClient;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * {@code GET /audit} (docs/api.md#audit-log): the audit log, newest first, a page at a time; all of it, a project's
 * ({@code ?projectId=}) or one resource's ({@code ?targetId=}: a project, key or notification). Viewers read it too.
 */
public final class AuditService implements HttpService {

    /** What an audit line's target or project can be: an id, a key, a kid or an account name. */
    private static final Pattern TARGET = Pattern.compile("[A-Za-z0-9._@-]{1,64}");

    private final AuditLog log;

    public AuditService(DbClient db) {
        this.log = new AuditLog(db);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/audit", this::list)
                .head("/audit", this::list)
                .any("/audit", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    private void list(ServerRequest request, ServerResponse response) {
        Optional<String> projectId = request.query().first("projectId").asOptional();
        Optional<String> targetId = request.query().first("targetId").asOptional();
        if (projectId.isPresent() && targetId.isPresent()) {
            throw ApiException.validation("targetId", "give projectId or targetId, not both");
        }
        AuditLog.Scope scope = projectId.isPresent() ? AuditLog.Scope.PROJECT
                : targetId.isPresent() ? AuditLog.Scope.TARGET : AuditLog.Scope.ALL;
        String scopeId = projectId.or(() -> targetId).orElse(null);
        PageRequest page = PageRequest.of(request);
        // No line names what nothing can be named (ids, keys, kids and account names are all of this form); asked,
        // MariaDB, which compares ignoring trailing spaces, found "{id} "'s lines (an outside test): none, as on H2.
        Page<AuditLog.Named> lines = scopeId != null && !TARGET.matcher(scopeId).matches()
                ? new Page<>(List.of(), false) : log.list(scope, scopeId, page);
        AdminResponses.page(request, response, lines, AuditService::json);
    }

    /** {@code projectName} and {@code target.label} are there while what they name exists (docs/api.md#audit-log). */
    static JsonObject json(AuditLog.Named line) {
        AuditEntry entry = line.entry();
        JsonObjectBuilder target = Json.builders().createObjectBuilder().add("type", entry.targetType());
        if (entry.targetId() == null) {
            target.addNull("id");
        } else {
            target.add("id", entry.targetId());
        }
        if (line.targetLabel() != null) {
            target.add("label", line.targetLabel());
        }
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("id", entry.seq())
                .add("occurredAt", Timestamps.format(entry.occurredAt()))
                .add("actor", entry.actor())
                .add("action", entry.action());
        if (entry.projectId() == null) {
            json.addNull("projectId");
        } else {
            json.add("projectId", entry.projectId());
        }
        if (line.projectName() != null) {
            json.add("projectName", line.projectName());
        }
        return json.add("target", target).add("details", entry.details()).build();
    }
}
