package dev.herald.project;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.OldestFirst;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * Projects in the database.
 */
public final class ProjectStore {

    private final DbClient db;

    public ProjectStore(DbClient db) {
        this.db = db;
    }

    public void create(Project project, AuditEntry audit) {
        Transactions.run(db, transaction -> {
            transaction.createNamedInsert("insert-project")
                    .addParam("id", project.id())
                    .addParam("name", project.name())
                    .addParam("createdAt", project.createdAt())
                    .execute();
            AuditLog.record(transaction, audit);
        });
    }

    /**
     * Renames the project as its write's transaction finds it, locked until the write commits, so that the audit
     * line tells what name the rename replaced. No cache holds a project's name: the public API never shows it.
     *
     * @param audit the line of the rename, from the project as found and as written
     * @return the project as written
     * @throws dev.herald.api.ApiException 404 when there is no such project
     */
    public Project rename(String id, String name, BiFunction<Project, Project, AuditEntry> audit) {
        AtomicReference<Project> written = new AtomicReference<>();
        Transactions.run(db, transaction -> {
            Project before = transaction.namedGet("select-project-for-update", id).map(ProjectStore::toProject)
                    .orElseThrow(() -> AdminRequests.notFound("Project"));
            Project renamed = new Project(before.id(), name, before.createdAt());
            transaction.namedUpdate("rename-project", renamed.name(), renamed.id());
            AuditLog.recordChange(transaction, audit.apply(before, renamed));
            written.set(renamed);
        });
        return written.get();
    }

    private static final OldestFirst<Project> PAGES = new OldestFirst<>("select-projects-page", ProjectStore::toProject,
            Project::createdAt, Project::id, project -> project.name().length());

    /** Oldest first. */
    public Page<Project> list(PageRequest page) {
        return PAGES.read(db, page, Map.of());
    }

    public Optional<Project> find(String id) {
        return db.execute().namedGet("select-project", id).map(ProjectStore::toProject);
    }

    private static Project toProject(DbRow row) {
        return new Project(Rows.string(row, "id"), Rows.string(row, "name"), Rows.longValue(row, "created_at"));
    }
}
