package dev.herald.audit;

import java.nio.charset.StandardCharsets;

import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.Json;
import dev.herald.content.MessageText;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

import jakarta.json.JsonObject;

/**
 * The audit log in the database. A line is written in the transaction of the write it tells of
 * ({@link #record}), so there is no write without its line and no line without its write. A line keeps a long value
 * as its beginning and its digest ({@link AuditBounds}), when it is written and when it is read.
 */
public final class AuditLog {

    /** Which lines a list holds: all, a project's, or one resource's. */
    public enum Scope {
        ALL("select-audit-page"),
        PROJECT("select-audit-page-by-project"),
        TARGET("select-audit-page-by-target");

        private final String statement;

        Scope(String statement) {
            this.statement = statement;
        }
    }

    private static final PageRequest.Cursor NEWEST = new PageRequest.Cursor(Long.MAX_VALUE,
                                                                            String.valueOf(Long.MAX_VALUE));

    /** A notification is named by the beginning of its words, as the console's lists name it. */
    static final int LABEL_CHARACTERS = 60;

    private final DbClient db;

    public AuditLog(DbClient db) {
        this.db = db;
    }

    public static void record(DbExecute transaction, AuditEntry entry) {
        transaction.createNamedInsert("insert-audit-entry")
                .addParam("occurredAt", entry.occurredAt())
                .addParam("actor", entry.actor())
                .addParam("action", entry.action())
                .addParam("projectId", entry.projectId())
                .addParam("targetType", entry.targetType())
                .addParam("targetId", entry.targetId())
                .addParam("details", Json.write(AuditBounds.details(entry.details())))
                .execute();
    }

    /**
     * An update's line, when it changed something: a save that changes nothing (details without a member) leaves
     * none, as a reader of the log looks for changes.
     */
    public static void recordChange(DbExecute transaction, AuditEntry entry) {
        if (!entry.details().isEmpty()) {
            record(transaction, entry);
        }
    }

    /**
     * A line as read, with what names its project and its target while they exist: the project's name, the words
     * a notification's message begins with (null for a deleted one, or a target of another type).
     */
    public record Named(AuditEntry entry, String projectName, String targetLabel) {
    }

    /** Newest first, bounded by the characters of the lines' details ({@link Page#read}). */
    public Page<Named> list(Scope scope, String scopeId, PageRequest page) {
        return Page.read(page, NEWEST, (before, limit) -> {
            var query = db.execute().createNamedQuery(scope.statement);
            if (scope != Scope.ALL) {
                query.addParam("scopeId", scopeId);
            }
            return query.addParam("occurredAt", before.createdAt())
                    .addParam("sameOccurredAt", before.createdAt())
                    .addParam("before", before.sequence())
                    .addParam("limit", limit)
                    .execute()
                    .map(row -> new Page.Item<>(toNamed(row), new PageRequest.Cursor(
                            Rows.longValue(row, "occurred_at"), String.valueOf(Rows.longValue(row, "seq")))))
                    .toList();
        }, line -> line.entry().details().toString().length());
    }

    private static Named toNamed(DbRow row) {
        AuditEntry entry = toEntry(row);
        String projectName = Rows.string(row, "project_name");
        String message = Rows.string(row, "target_message");
        String targetLabel = "project".equals(entry.targetType()) && entry.targetId() != null
                && entry.targetId().equals(entry.projectId()) ? projectName
                : message == null ? null : MessageText.excerpt(message, LABEL_CHARACTERS);
        return new Named(entry, projectName, targetLabel);
    }

    private static AuditEntry toEntry(DbRow row) {
        return new AuditEntry(Rows.longValue(row, "seq"), Rows.longValue(row, "occurred_at"), Rows.string(row, "actor"),
                              Rows.string(row, "action"), Rows.string(row, "project_id"),
                              Rows.string(row, "target_type"), Rows.string(row, "target_id"),
                              details(Rows.string(row, "details")));
    }

    /** Lines written before they were bounded may hold whole documents; one that cannot be read is shown as text. */
    private static JsonObject details(String stored) {
        return Json.parseObject(stored.getBytes(StandardCharsets.UTF_8)).map(AuditBounds::details)
                .orElseGet(() -> AuditBounds.unreadable(stored));
    }
}
