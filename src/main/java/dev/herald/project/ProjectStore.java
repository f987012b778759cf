package dev.herald.project;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.Ids;
import dev.herald.admin.OldestFirst;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;
import io.helidon.http.Status;

/**
 * Projects in the database.
 */
public final class ProjectStore {

    private final DbClient db;
    private final ChangeLog changes;

    /** For reads and creates; {@link #update} needs the change log. */
    public ProjectStore(DbClient db) {
        this(db, null);
    }

    public ProjectStore(DbClient db, ChangeLog changes) {
        this.db = db;
        this.changes = changes;
    }

    public void create(Project project, AuditEntry audit) {
        Transactions.run(db, transaction -> {
            transaction.createNamedInsert("insert-project")
                    .addParam("id", project.id())
                    .addParam("name", project.name())
                    .addParam("createdAt", project.createdAt())
                    .addParam("defaultLocale", project.defaultLocale())
                    .addParam("requiredLocales", requiredLocales(project))
                    .execute();
            AuditLog.record(transaction, audit);
        });
    }

    /**
     * Changes the project as its write's transaction finds it, locked until the write commits, so that the audit
     * line tells what the change replaced. Every notification write locks the project first ({@code lock-project}),
     * so a change of default language and a notification write never pass each other: the check that no notification
     * following the default has a translation in the new one (docs/api.md#languages) holds when both commit. Announced
     * through the change log: feeds serve the default language's text and say which language they served.
     *
     * @param change the request applied to the project as found
     * @param audit  the line of the change, from the project as found and as written
     * @return the project as written
     * @throws dev.herald.api.ApiException 404 when there is no such project, 409 LOCALE_CONFLICT when a notification
     *                                     following the default has a translation in the new default's language
     */
    public Project update(String id, UnaryOperator<Project> change, BiFunction<Project, Project, AuditEntry> audit) {
        AtomicReference<Project> written = new AtomicReference<>();
        changes.write(Change.ofProject(id), transaction -> {
            Project before = transaction.namedGet("select-project-for-update", id).map(ProjectStore::toProject)
                    .orElseThrow(() -> AdminRequests.notFound("Project"));
            Project after = change.apply(before);
            if (!after.defaultLocale().equals(before.defaultLocale())) {
                requireNoTranslationIn(transaction, id, after.defaultLocale());
            }
            transaction.createNamedUpdate("update-project")
                    .addParam("name", after.name())
                    .addParam("defaultLocale", after.defaultLocale())
                    .addParam("requiredLocales", requiredLocales(after))
                    .addParam("id", after.id())
                    .execute();
            AuditLog.recordChange(transaction, audit.apply(before, after));
            written.set(after);
        });
        return written.get();
    }

    /**
     * A notification that follows the project's default must not have a translation in that language: its text in
     * one language would be two. The column is JSON text written by Herald, where a member name is a quoted tag
     * followed by a colon and an object; the pattern finds the candidates (a case-insensitive collation may find
     * more) and each is read to be sure.
     */
    private static void requireNoTranslationIn(DbExecute transaction, String projectId, String locale) {
        transaction.namedQuery("select-notifications-following-default-translated", projectId,
                               "%\"" + locale + "\":{%")
                .map(row -> Map.entry(Rows.string(row, "id"), Rows.string(row, "translations")))
                .filter(row -> Json.parseObject(row.getValue().getBytes(StandardCharsets.UTF_8))
                        .map(translations -> translations.containsKey(locale)).orElse(false))
                .findFirst()
                .ifPresent(row -> {
                    throw ApiException.error(Status.CONFLICT_409, "LOCALE_CONFLICT", "Notification " + row.getKey()
                            + " follows the project's default language and has a translation in " + locale
                            + ": change its locale, or delete that translation, before making " + locale
                            + " the default");
                });
    }

    private static final OldestFirst<Project> PAGES = new OldestFirst<>("select-projects-page", ProjectStore::toProject,
            Project::createdAt, Project::id, project -> project.name().length());

    /** Oldest first. */
    public Page<Project> list(PageRequest page) {
        return PAGES.read(db, page, Map.of());
    }

    /** The project, or empty when none has this id or it cannot be one ({@link Ids#isWellFormed}). */
    public Optional<Project> find(String id) {
        if (!Ids.isWellFormed(id)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-project", id).map(ProjectStore::toProject);
    }

    private static Project toProject(DbRow row) {
        return new Project(Rows.string(row, "id"), Rows.string(row, "name"), Rows.longValue(row, "created_at"),
                           Rows.string(row, "default_locale"), requiredLocales(Rows.string(row, "required_locales")));
    }

    /** The column's tags (migration 21): comma-separated, NULL for none. */
    public static List<String> requiredLocales(String column) {
        return column == null || column.isEmpty() ? List.of() : Arrays.asList(column.split(","));
    }

    /** Comma-separated (a tag has no comma), NULL for none: the column's form (migration 21). */
    private static String requiredLocales(Project project) {
        return project.requiredLocales().isEmpty() ? null : String.join(",", project.requiredLocales());
    }
}
