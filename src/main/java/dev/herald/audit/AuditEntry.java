package dev.herald.audit;

import dev.herald.admin.Actor;

import jakarta.json.JsonObject;

/**
 * One line of the audit log (docs/api.md#audit-log): who did what to which resource, when, and what changed.
 *
 * @param seq        its place in the order of writing; 0 before it is written
 * @param action     {@code project.created}, {@code notification.published}, … (docs/api.md#audit-log)
 * @param projectId  the project it belongs to; null for a sign-in or sign-out
 * @param targetType {@code project}, {@code api-key}, {@code notification}, {@code session}, {@code account},
 *                   {@code user} or {@code backup}
 * @param targetId   the resource's id (a key's value); null for a change to several
 * @param details    the fields written; for an update, only the changed ones as {@code {"from": …, "to": …}}
 */
public record AuditEntry(long seq, long occurredAt, String actor, String action, String projectId,
                         String targetType, String targetId, JsonObject details) {

    public static AuditEntry of(Actor actor, long now, String action, String projectId, String targetType,
                                String targetId, JsonObject details) {
        return new AuditEntry(0, now, actor.name(), action, projectId, targetType, targetId, details);
    }
}
