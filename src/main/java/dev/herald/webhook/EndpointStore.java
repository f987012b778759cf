package dev.herald.webhook;

import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import dev.herald.admin.AdminRequests;
import dev.herald.admin.Ids;
import dev.herald.admin.OldestFirst;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.Json;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

/**
 * Webhook endpoints in the database. Every write goes through the change log: the outbox keeps in memory which event
 * types each project's enabled endpoints want, and drops a project's entry on its change, on every instance.
 */
public final class EndpointStore {

    /** The audit log's actor of what the delivery worker changes: no account's name holds a colon. */
    static final String WORKER = "herald:webhooks";

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final OldestFirst<WebhookEndpoint> PAGES = new OldestFirst<>("select-project-webhook-endpoints-page",
            EndpointStore::toEndpoint, WebhookEndpoint::createdAt, WebhookEndpoint::id,
            endpoint -> endpoint.url().length());

    private final DbClient db;
    private final ChangeLog changes;

    public EndpointStore(DbClient db, ChangeLog changes) {
        this.db = db;
        this.changes = changes;
    }

    static String newSecret() {
        return Signatures.newSecret(RANDOM);
    }

    public void create(WebhookEndpoint endpoint, AuditEntry audit) {
        changes.write(Change.ofProject(endpoint.projectId()), transaction -> {
            transaction.createNamedInsert("insert-webhook-endpoint")
                    .addParam("id", endpoint.id())
                    .addParam("projectId", endpoint.projectId())
                    .addParam("url", endpoint.url())
                    .addParam("description", endpoint.description())
                    .addParam("eventTypes", String.join(",", endpoint.eventTypes()))
                    .addParam("secret", endpoint.secret())
                    .addParam("enabled", endpoint.enabled())
                    .addParam("createdAt", endpoint.createdAt())
                    .addParam("updatedAt", endpoint.updatedAt())
                    .execute();
            writeEventTypes(transaction, endpoint);
            AuditLog.record(transaction, audit);
        });
    }

    /** The endpoint, or empty when none has this id or it cannot be one ({@link Ids#isWellFormed}). */
    public Optional<WebhookEndpoint> find(String id) {
        if (!Ids.isWellFormed(id)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-webhook-endpoint", id).map(EndpointStore::toEndpoint);
    }

    public Page<WebhookEndpoint> listByProject(String projectId, PageRequest page) {
        return PAGES.read(db, page, Map.of("projectId", projectId));
    }

    /**
     * Changes the endpoint as its write's transaction finds it, locked until the write commits.
     *
     * @return the endpoint as written
     */
    public WebhookEndpoint update(WebhookEndpoint seen, UnaryOperator<WebhookEndpoint> change,
                                  BiFunction<WebhookEndpoint, WebhookEndpoint, AuditEntry> audit) {
        AtomicReference<WebhookEndpoint> written = new AtomicReference<>();
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            WebhookEndpoint before = locked(transaction, seen.id());
            WebhookEndpoint after = change.apply(before);
            transaction.createNamedUpdate("update-webhook-endpoint")
                    .addParam("id", after.id())
                    .addParam("url", after.url())
                    .addParam("description", after.description())
                    .addParam("eventTypes", String.join(",", after.eventTypes()))
                    .addParam("enabled", after.enabled())
                    .addParam("disabledReason", after.disabledReason())
                    .addParam("failingSince", after.failingSince())
                    .addParam("updatedAt", after.updatedAt())
                    .execute();
            if (!before.eventTypes().equals(after.eventTypes())) {
                transaction.namedDelete("delete-webhook-endpoint-events", after.id());
                writeEventTypes(transaction, after);
            }
            if (after.enabled() && !before.enabled()) {
                transaction.namedUpdate("webhook-endpoint-deliveries-due", after.updatedAt(), after.id(),
                                        after.updatedAt());
            }
            AuditLog.recordChange(transaction, audit.apply(before, after));
            written.set(after);
        });
        return written.get();
    }

    /**
     * A new secret; the one it replaces keeps signing until {@code previousUntil}, so a receiver has that long to take
     * the new one. A rotation within another's window ends the older secret at once: two sign, never three.
     *
     * @return the endpoint with its new secret
     */
    public WebhookEndpoint rotate(WebhookEndpoint seen, long now, long previousUntil, AuditEntry audit) {
        AtomicReference<WebhookEndpoint> written = new AtomicReference<>();
        String secret = newSecret();
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            WebhookEndpoint before = locked(transaction, seen.id());
            transaction.createNamedUpdate("rotate-webhook-endpoint-secret")
                    .addParam("id", before.id())
                    .addParam("secret", secret)
                    .addParam("previousSecret", before.secret())
                    .addParam("previousSecretUntil", previousUntil)
                    .addParam("updatedAt", now)
                    .execute();
            AuditLog.record(transaction, audit);
            written.set(new WebhookEndpoint(before.id(), before.projectId(), before.url(), before.description(),
                    before.eventTypes(), secret, before.secret(), previousUntil, before.enabled(),
                    before.disabledReason(), before.failingSince(), before.createdAt(), now));
        });
        return written.get();
    }

    /** With its deliveries; the events stay for the project's other endpoints until retention. */
    public void delete(WebhookEndpoint seen, AuditEntry audit) {
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            locked(transaction, seen.id());
            transaction.namedDelete("delete-webhook-endpoint-events", seen.id());
            transaction.namedDelete("delete-webhook-endpoint-deliveries", seen.id());
            transaction.namedDelete("delete-webhook-endpoint", seen.id());
            AuditLog.record(transaction, audit);
        });
    }

    /**
     * The worker's: disables an endpoint still enabled, saying why; announced like a person's change, so that no
     * instance writes events for it any more, and in the audit log as {@link #WORKER}'s.
     */
    /** @return whether this call disabled it: false when it was disabled already (another delivery, or instance) */
    boolean disable(String projectId, String endpointId, String reason, long now) {
        AtomicBoolean disabled = new AtomicBoolean();
        changes.write(Change.ofProject(projectId), transaction -> {
            // Only the worker whose update disabled it writes the line: another finds it disabled already.
            if (transaction.namedUpdate("disable-webhook-endpoint", reason, now, endpointId) == 1) {
                AuditLog.record(transaction, new AuditEntry(0, now, WORKER, "webhook.disabled", projectId,
                        "webhook-endpoint", endpointId, Json.builders().createObjectBuilder()
                                .add("disabledReason", reason).build()));
                disabled.set(true);
            }
        });
        return disabled.get();
    }

    private static void writeEventTypes(DbExecute transaction, WebhookEndpoint endpoint) {
        for (String type : endpoint.eventTypes()) {
            transaction.namedInsert("insert-webhook-endpoint-event", endpoint.projectId(), type, endpoint.id());
        }
    }

    private static WebhookEndpoint locked(DbExecute transaction, String id) {
        return transaction.namedGet("select-webhook-endpoint-for-update", id).map(EndpointStore::toEndpoint)
                .orElseThrow(() -> AdminRequests.notFound("Webhook endpoint"));
    }

    static WebhookEndpoint toEndpoint(DbRow row) {
        String types = Rows.string(row, "event_types");
        List<String> eventTypes = types.isEmpty() ? List.of() : Arrays.asList(types.split(","));
        return new WebhookEndpoint(Rows.string(row, "id"), Rows.string(row, "project_id"), Rows.string(row, "url"),
                                   Rows.string(row, "description"), eventTypes, Rows.string(row, "secret"),
                                   Rows.string(row, "previous_secret"), Rows.nullableLong(row, "previous_secret_until"),
                                   Rows.bool(row, "enabled"), Rows.string(row, "disabled_reason"),
                                   Rows.nullableLong(row, "failing_since"), Rows.longValue(row, "created_at"),
                                   Rows.longValue(row, "updated_at"));
    }
}
