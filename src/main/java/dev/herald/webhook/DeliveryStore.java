package dev.herald.webhook;

import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

import dev.herald.admin.Ids;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * Deliveries in the database: what the worker claims and records, what the API lists and replays. Each of the
 * worker's statements stands alone (auto-commit): a claim is one conditional UPDATE, which on Galera two nodes cannot
 * both win; a replay is one with its audit line.
 */
public final class DeliveryStore {

    /** After the newest delivery: a newest-first list's first page. */
    private static final PageRequest.Cursor NEWEST = new PageRequest.Cursor(Long.MAX_VALUE, "~");

    private final DbClient db;

    public DeliveryStore(DbClient db) {
        this.db = db;
    }

    DbClient client() {
        return db;
    }

    /** An endpoint with deliveries due, and its project. */
    record DueEndpoint(String endpointId, String projectId) {
    }

    /** What a claimed delivery sends. */
    record Claimed(String endpointId, String eventId, String projectId, int attempts, String payload,
                   WebhookEndpoint endpoint) {
    }

    List<DueEndpoint> dueEndpoints(long now) {
        return db.execute().createNamedQuery("select-webhook-due-endpoints")
                .addParam("now", now).addParam("leaseNow", now)
                .execute()
                .map(row -> new DueEndpoint(Rows.string(row, "endpoint_id"), Rows.string(row, "project_id")))
                .toList();
    }

    List<String> dueEvents(String endpointId, long now, int limit) {
        return db.execute().createNamedQuery("select-webhook-due-deliveries")
                .addParam("endpointId", endpointId).addParam("now", now).addParam("leaseNow", now)
                .addParam("limit", limit)
                .execute()
                .map(row -> Rows.string(row, "event_id"))
                .toList();
    }

    /** @return whether this worker now holds the delivery until {@code leaseUntil}; another worker may have won it */
    boolean claim(String endpointId, String eventId, String worker, long now, long leaseUntil) {
        try {
            return db.execute().createNamedUpdate("claim-webhook-delivery")
                    .addParam("worker", worker).addParam("leaseUntil", leaseUntil)
                    .addParam("endpointId", endpointId).addParam("eventId", eventId)
                    .addParam("now", now).addParam("leaseNow", now)
                    .execute() == 1;
        } catch (RuntimeException e) {
            // Galera: another node's claim of the same row won certification. Not ours.
            return false;
        }
    }

    Optional<Claimed> claimed(String endpointId, String eventId, String worker) {
        return db.execute().namedGet("select-webhook-claimed-delivery", endpointId, eventId, worker)
                .map(row -> toClaimed(endpointId, eventId, row));
    }

    /** @return whether it was still this worker's (a lease that expired may have gone to another) */
    boolean record(String endpointId, String eventId, String worker, String status, Long nextAttemptAt,
                   long attemptAt, Attempt attempt) {
        return db.execute().createNamedUpdate("record-webhook-attempt")
                .addParam("status", status)
                .addParam("nextAttemptAt", nextAttemptAt)
                .addParam("attemptAt", attemptAt)
                .addParam("lastStatus", attempt.status())
                .addParam("latency", attempt.latency().toMillis())
                .addParam("detail", shortDetail(attempt.detail()))
                .addParam("endpointId", endpointId)
                .addParam("eventId", eventId)
                .addParam("worker", worker)
                .execute() == 1;
    }

    void release(String endpointId, String eventId, String worker) {
        db.execute().namedUpdate("release-webhook-claim", endpointId, eventId, worker);
    }

    void releaseAll(String worker) {
        db.execute().namedUpdate("release-webhook-claims", worker);
    }

    void succeeded(String endpointId) {
        db.execute().namedUpdate("webhook-endpoint-succeeded", endpointId);
    }

    /** Notes the first failure of a run; @return when the run of failures began */
    long failed(String endpointId, long now) {
        db.execute().namedUpdate("webhook-endpoint-failed", now, endpointId);
        return db.execute().namedGet("select-webhook-endpoint-failing-since", endpointId)
                .map(row -> Rows.nullableLong(row, "failing_since"))
                .map(since -> since == null ? now : since)
                .orElse(now);
    }

    Page<DeliveryRecord> recent(String endpointId, PageRequest page) {
        return Page.read(page, NEWEST, (after, limit) -> db.execute().createNamedQuery("select-webhook-deliveries-page")
                .addParam("endpointId", endpointId)
                .addParam("createdAt", after.createdAt())
                .addParam("sameCreatedAt", after.createdAt())
                .addParam("id", after.tiebreak())
                .addParam("limit", limit)
                .execute()
                .map(DeliveryStore::toRecord)
                .map(record -> new Page.Item<>(record, new PageRequest.Cursor(record.createdAt(), record.eventId())))
                .toList(), record -> record.lastDetail() == null ? 0 : record.lastDetail().length());
    }

    /**
     * Sends a delivery again, its audit line in the same transaction: a replay sends events (interactions' metadata
     * among them) to wherever the endpoint's URL now points, so it is a write the log names like any other.
     *
     * @return whether there was such a delivery not in flight (none: nothing written, no line)
     */
    boolean replay(String endpointId, String eventId, long now, AuditEntry audit) {
        if (!Ids.isWellFormed(eventId)) {
            return false;
        }
        boolean[] replayed = new boolean[1];
        Transactions.run(db, transaction -> {
            replayed[0] = transaction.namedUpdate("replay-webhook-delivery", now, endpointId, eventId) == 1;
            if (replayed[0]) {
                AuditLog.record(transaction, audit);
            }
        });
        return replayed[0];
    }

    /**
     * Sends again every delivery of the endpoint since an instant, its audit line (with how many) in the same
     * transaction, even for none: it was asked for.
     *
     * @param audit the line, given how many deliveries were replayed
     */
    long replaySince(String endpointId, long since, long now, LongFunction<AuditEntry> audit) {
        long[] replayed = new long[1];
        Transactions.run(db, transaction -> {
            replayed[0] = transaction.namedUpdate("replay-webhook-deliveries-since", now, endpointId, since);
            AuditLog.record(transaction, audit.apply(replayed[0]));
        });
        return replayed[0];
    }

    /** What waits: how many deliveries, and when the oldest of them was written (null when none). */
    record Backlog(long pending, Long oldestCreatedAt) {
    }

    Backlog backlog() {
        return db.execute().namedGet("count-webhook-pending")
                .map(row -> new Backlog(Rows.longValue(row, "pending"), Rows.nullableLong(row, "oldest")))
                .orElse(new Backlog(0, null));
    }

    /**
     * Deletes up to {@code batch} finished deliveries and events (each with its items, what it sends) written before
     * {@code cutoff}; an event goes only once no delivery of it waits, its ranges with it (the interactions they
     * name are the raw interactions' retention's).
     */
    long prune(long cutoff, int batch) {
        long deleted = db.execute().namedDelete("delete-webhook-deliveries-before", cutoff, batch);
        List<String> events = db.execute().namedQuery("select-outbox-events-before", cutoff, batch)
                .map(row -> Rows.string(row, "id")).toList();
        for (String event : events) {
            // Items and ranges first: an event whose delete is cut short keeps none behind it, and is found again.
            db.execute().namedDelete("outbox-delete-event-items", event);
            db.execute().namedDelete("outbox-delete-event-ranges", event);
            deleted += db.execute().namedDelete("delete-outbox-event", event);
        }
        return deleted;
    }

    /** One line, at most 300 characters: never a receiver's whole body. */
    static String shortDetail(String detail) {
        String line = detail.replaceAll("[\\r\\n\\t]+", " ");
        return line.length() <= 300 ? line : line.substring(0, 297) + "...";
    }

    private static Claimed toClaimed(String endpointId, String eventId, DbRow row) {
        WebhookEndpoint endpoint = new WebhookEndpoint(endpointId, "", Rows.string(row, "url"), null, List.of(),
                Rows.string(row, "secret"), Rows.string(row, "previous_secret"),
                Rows.nullableLong(row, "previous_secret_until"), Rows.bool(row, "enabled"), null, null, 0, 0);
        return new Claimed(endpointId, eventId, "", (int) Rows.longValue(row, "attempts"), Rows.string(row, "payload"),
                           endpoint);
    }

    private static DeliveryRecord toRecord(DbRow row) {
        Long lastStatus = Rows.nullableLong(row, "last_status");
        return new DeliveryRecord(Rows.string(row, "event_id"), Rows.string(row, "event_type"),
                                  Rows.string(row, "status"), (int) Rows.longValue(row, "attempts"),
                                  Rows.nullableLong(row, "next_attempt_at"), Rows.nullableLong(row, "last_attempt_at"),
                                  lastStatus == null ? null : lastStatus.intValue(),
                                  Rows.nullableLong(row, "last_latency_ms"), Rows.string(row, "last_detail"),
                                  Rows.longValue(row, "created_at"));
    }
}
