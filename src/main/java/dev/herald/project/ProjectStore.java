package dev.herald.project;

import java.util.List;
import java.util.Optional;

import dev.herald.storage.Rows;

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

    public void create(Project project) {
        db.execute().createNamedInsert("insert-project")
                .addParam("id", project.id())
                .addParam("name", project.name())
                .addParam("createdAt", project.createdAt())
                .execute();
    }

    public List<Project> list() {
        return db.execute().namedQuery("select-projects").map(ProjectStore::toProject).toList();
    }

    public Optional<Project> find(String id) {
        return db.execute().namedGet("select-project", id).map(ProjectStore::toProject);
    }

    private static Project toProject(DbRow row) {
        return new Project(Rows.string(row, "id"), Rows.string(row, "name"), Rows.longValue(row, "created_at"));
    }
}
