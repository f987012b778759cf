package dev.herald.project;

import java.util.Optional;

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

    /** No cache holds a project's name: the public API never shows it. */
    public void rename(Project project, AuditEntry audit) {
        Transactions.run(db, transaction -> {
            transaction.namedUpdate("rename-project", project.name(), project.id());
            AuditLog.record(transaction, audit);
        });
    }

    /** Oldest first. */
    public Page<Project> list(PageRequest page) {
        return Page.read(page, new PageRequest.Cursor(-1, "-"), (after, limit) -> db.execute()
                .createNamedQuery("select-projects-page")
                .addParam("createdAt", after.createdAt())
                .addParam("sameCreatedAt", after.createdAt())
                .addParam("after", after.tiebreak())
                .addParam("limit", limit)
                .execute()
                .map(ProjectStore::toProject)
                .map(project -> new Page.Item<>(project, new PageRequest.Cursor(project.createdAt(), project.id())))
                .toList(), project -> project.name().length());
    }

    public Optional<Project> find(String id) {
        return db.execute().namedGet("select-project", id).map(ProjectStore::toProject);
    }

    private static Project toProject(DbRow row) {
        return new Project(Rows.string(row, "id"), Rows.string(row, "name"), Rows.longValue(row, "created_at"));
    }
}
