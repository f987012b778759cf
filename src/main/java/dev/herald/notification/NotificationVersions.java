package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.Json;
import dev.herald.audit.AuditEntry;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

import jakarta.json.JsonObject;

/**
 * The version history of notifications (docs/api.md, GET /api/v1/admin/notifications/{id}/versions): what the content
 * of one was after each saved change that changed it, numbered 1, 2, ... Written by {@link NotificationStore} in the
 * transaction of the change, under the notification's row lock, so numbers never collide; the newest
 * {@value #KEPT} are kept (an announcement edited every day keeps three months of history, and one page of it is at
 * most {@value #KEPT} times a message).
 */
public final class NotificationVersions {

    /** Versions kept per notification; an older one is deleted as the one {@value} after it is written. */
    public static final int KEPT = 100;
    /** Who saved content that no version recorded: no one Herald knows. */
    static final String UNRECORDED = "unknown";
    /** Before the newest version: the first page of a newest-first list. */
    private static final PageRequest.Cursor NEWEST = new PageRequest.Cursor(Integer.MAX_VALUE, "0");

    private final DbClient db;

    NotificationVersions(DbClient db) {
        this.db = db;
    }

    /**
     * One version.
     *
     * @param content the content members of the admin view ({@link NotificationJson#content})
     * @param savedBy the account or token name of the change, as the audit log names it
     */
    public record Version(String notificationId, int number, JsonObject content, long savedAt, String savedBy) {
    }

    /**
     * Keeps the notification's content as its next version, unless it is the content of its newest one (a change of
     * status or a save of the same words is no new version). Content written without a version (before versions were
     * kept, or by an instance of an older Herald during a rolling upgrade) is kept first, as the version the change
     * starts from, saved by {@value #UNRECORDED}.
     *
     * @param before the notification before the change; null for a create
     * @param change the audit line of the change, for who and when
     */
    static void keep(DbExecute transaction, Notification before, Notification after, AuditEntry change) {
        JsonObject content = NotificationJson.content(after);
        Optional<Version> newest = newest(transaction, after.id());
        int next = newest.map(version -> version.number() + 1).orElse(1);
        if (newest.isPresent() && newest.get().content().equals(content)) {
            return;
        }
        JsonObject was = before == null ? null : NotificationJson.content(before);
        if (was != null && !was.equals(content) && !newest.map(Version::content).map(was::equals).orElse(false)) {
            insert(transaction, after.id(), next++, was, before.updatedAt(), UNRECORDED);
        }
        insert(transaction, after.id(), next, content, change.occurredAt(), change.actor());
        transaction.namedDelete("delete-old-notification-versions", after.id(), next - KEPT);
    }

    private static Optional<Version> newest(DbExecute transaction, String notificationId) {
        return transaction.namedGet("select-newest-notification-version", notificationId)
                .map(row -> toVersion(notificationId, row));
    }

    private static void insert(DbExecute transaction, String notificationId, int number, JsonObject content,
                               long savedAt, String savedBy) {
        transaction.createNamedInsert("insert-notification-version")
                .addParam("notificationId", notificationId)
                .addParam("version", number)
                .addParam("content", Json.write(content))
                .addParam("savedAt", savedAt)
                .addParam("savedBy", savedBy)
                .execute();
    }

    static void deleteAll(DbExecute transaction, String notificationId) {
        transaction.namedDelete("delete-notification-versions", notificationId);
    }

    /** A page of the notification's versions, newest first, bounded as every management list is ({@link Page}). */
    Page<Version> list(String notificationId, PageRequest page) {
        return Page.read(page, NEWEST, (after, limit) -> db.execute()
                .namedQuery("select-notification-versions-page", notificationId, after.createdAt(), limit)
                .map(row -> toVersion(notificationId, row))
                .map(version -> new Page.Item<>(version, new PageRequest.Cursor(version.number(), "0")))
                .toList(), version -> Json.write(version.content()).length());
    }

    Optional<Version> find(String notificationId, int number) {
        return db.execute().namedGet("select-notification-version", notificationId, number)
                .map(row -> toVersion(notificationId, row));
    }

    private static Version toVersion(String notificationId, DbRow row) {
        JsonObject content = Json.parseObject(Rows.string(row, "content").getBytes(StandardCharsets.UTF_8))
                .orElseThrow();
        return new Version(notificationId, (int) Rows.longValue(row, "version"), content,
                           Rows.longValue(row, "saved_at"), Rows.string(row, "saved_by"));
    }
}
