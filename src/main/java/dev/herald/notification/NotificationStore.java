package dev.herald.notification;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.Ids;
import dev.herald.admin.Page;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.audience.Audience;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeLog;
import dev.herald.feed.FeedBound;
import dev.herald.outbox.Outbox;
import dev.herald.project.Project;
import dev.herald.project.ProjectStore;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementDml;
import io.helidon.dbclient.DbStatementQuery;

import jakarta.json.JsonObject;

/**
 * Notifications in the database. Every write is announced through the change log: the public API serves the feed
 * and checks tracked ids from memory. A write that can make the project's feed answers larger is refused when they
 * could exceed {@code limits.feed-bytes} ({@link FeedBound}); one that cannot (unpublishing, deleting, shrinking) is
 * never refused, so a project over a lowered limit can always be brought back under it.
 */
public final class NotificationStore {

    /** Before the newest notification: the first page of a newest-first list. */
    private static final PageRequest.Cursor NEWEST = new PageRequest.Cursor(Long.MAX_VALUE,
                                                                            String.valueOf(Long.MAX_VALUE));

    private final DbClient db;
    private final ChangeLog changes;
    private final FeedBound feedBound;
    private final NotificationEvents events;

    public NotificationStore(DbClient db, ChangeLog changes, FeedBound feedBound, Outbox outbox) {
        this.db = db;
        this.changes = changes;
        this.feedBound = feedBound;
        this.events = new NotificationEvents(outbox);
    }

    /** @throws dev.herald.api.ApiException 409 when a published one would make the feed too large */
    public void create(Notification created, AuditEntry audit) {
        int feedBytes = FeedBound.entryBytes(created);
        changes.write(Change.createdNotification(created.projectId(), created.id()), transaction -> {
            AuditLog.record(transaction, audit);
            feedBound.lockProject(transaction, created.projectId());
            Project languages = projectLanguages(transaction, created.projectId());
            Notification notification = created.inProjectLocale(languages.defaultLocale());
            requireLanguages(notification, languages);
            withFields(transaction.createNamedInsert("insert-notification"), notification, feedBytes)
                    .addParam("projectId", notification.projectId())
                    .addParam("createdAt", notification.createdAt())
                    .execute();
            if (notification.status() == NotificationStatus.PUBLISHED) {
                feedBound.require(transaction, notification.projectId(), notification.updatedAt());
            }
            NotificationVersions.keep(transaction, null, notification, audit);
            events.created(transaction, notification);
        });
    }

    /**
     * Changes the notification as its write's transaction finds it, locked until the write commits: the change
     * applies to what the writes before it committed, and its audit line tells from what to what.
     *
     * @param seen   the notification as the request found it, for its id and project (neither changes)
     * @param change the request applied to the notification as found and the draft of changes the write found, read
     *               under the notification's lock (every draft write takes it): the draft the write deletes is the one
     *               the change saw, so it can apply it or refuse to delete one its sender never read
     * @param audit  the line of the change, from the notification as found and as written
     * @return the notification as written
     * @throws dev.herald.api.ApiException 404 when it was deleted meanwhile, 409 when the change would make the feed
     *                                     too large, 400 when the change does not apply to it as found
     */
    public NotificationChanges.Applied update(Notification seen,
                                              BiFunction<Notification, Optional<Draft>, NotificationChanges.Applied>
                                                      change,
                                              BiFunction<Notification, Notification, AuditEntry> audit) {
        AtomicReference<NotificationChanges.Applied> written = new AtomicReference<>();
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            feedBound.lockProject(transaction, seen.projectId());
            Project languages = projectLanguages(transaction, seen.projectId());
            Notification before = locked(transaction, seen.id()).inProjectLocale(languages.defaultLocale());
            NotificationChanges.Applied applied = change.apply(before, pendingDraft(transaction, seen.id()));
            Notification notification = applied.notification();
            requireLanguages(notification, languages);
            int feedBytes = FeedBound.entryBytes(notification);
            boolean grows = feedBound.grows(transaction, notification, feedBytes);
            withFields(transaction.createNamedUpdate("update-notification"), notification, feedBytes).execute();
            AuditEntry line = audit.apply(before, notification);
            // An update that changes nothing leaves no line, and no version either (keep compares the content).
            AuditLog.recordChange(transaction, line);
            NotificationVersions.keep(transaction, before, notification, line);
            if (grows) {
                feedBound.require(transaction, notification.projectId(), notification.updatedAt());
            }
            events.updated(transaction, before, notification);
            // Whatever was pending is superseded: a PATCH is how a draft is published, or replaced by other words.
            transaction.namedDelete("delete-notification-draft", seen.id());
            written.set(applied);
        });
        return written.get();
    }

    /**
     * Archives the project's published notifications whose end is before {@code now}, in one transaction and one
     * change; never refused, since it only makes feeds smaller.
     *
     * @return how many were archived
     */
    public int archiveEnded(String projectId, long now, Actor actor) {
        AtomicLong archived = new AtomicLong();
        changes.write(Change.ofProject(projectId), transaction -> {
            feedBound.lockProject(transaction, projectId);
            // Their dates too: their events have the shape of a PATCH's that archives one (docs/webhooks.md).
            List<DbRow> ending = events.wantsArchived(projectId)
                    ? transaction.namedQuery("select-ended-published-notifications", projectId, now).toList()
                    : List.of();
            archived.set(transaction.createNamedUpdate("archive-ended-notifications")
                                 .addParam("projectId", projectId)
                                 .addParam("now", now)
                                 .addParam("updatedAt", now)
                                 .execute());
            AuditLog.record(transaction, AuditEntry.of(actor, now, "notifications.ended-archived", projectId,
                    "project", projectId, Json.builders().createObjectBuilder().add("archived", archived.get())
                            .build()));
            ending.forEach(row -> events.archivedEnded(transaction, projectId, Rows.string(row, "id"),
                    Rows.nullableLong(row, "start_at"), Rows.nullableLong(row, "end_at")));
        });
        return (int) archived.get();
    }

    /**
     * Deletes the notification as its write's transaction finds it, with its draft of changes and its versions; its
     * interactions stay (they have no foreign key to it), so the project's totals still count them. Of two deletes at
     * once, one deletes it and the other finds it gone.
     *
     * @param check what the request asks of the notification and its draft of changes as the write finds them (its
     *              preconditions), under the notification's lock: nothing is deleted when it throws
     * @param audit the line of the deletion, from the notification as it was
     * @throws dev.herald.api.ApiException 404 when it was deleted meanwhile
     */
    public void delete(Notification seen, BiConsumer<Notification, Optional<Draft>> check,
                       Function<Notification, AuditEntry> audit) {
        changes.write(Change.deletedNotification(seen.projectId(), seen.id()), transaction -> {
            // The project first, as every notification write locks it: two writes never wait for each other's locks.
            feedBound.lockProject(transaction, seen.projectId());
            Notification before = locked(transaction, seen.id())
                    .inProjectLocale(projectLanguages(transaction, seen.projectId()).defaultLocale());
            check.accept(before, pendingDraft(transaction, seen.id()));
            transaction.namedDelete("delete-notification", seen.id());
            transaction.namedDelete("delete-notification-draft", seen.id());
            NotificationVersions.deleteAll(transaction, seen.id());
            AuditLog.record(transaction, audit.apply(before));
            events.deleted(transaction, before);
        });
    }

    /**
     * A notification's pending change: an update body kept apart from it, in no feed, until a PATCH applies it.
     *
     * @param body the update body, status excepted, its message in the content allow-list's form
     */
    public record Draft(String notificationId, JsonObject body, long updatedAt, String updatedBy) {
    }

    /**
     * Keeps a draft as the notification's pending change, replacing the one before; the notification and its
     * feeds do not change, so no feed bound applies. Saved again as it was, it leaves no audit line.
     *
     * @param draft the request applied to the notification and the draft it replaces (none: empty) as its write finds
     *              them (the dates must fit together; a precondition on the draft replaced is checked here)
     * @param audit the line of the draft, from the notification as found and the draft as written
     * @return the draft as written
     * @throws dev.herald.api.ApiException 404 when the notification was deleted meanwhile
     */
    public Draft saveDraft(Notification seen, BiFunction<Notification, Optional<Draft>, Draft> draft,
                           BiFunction<Notification, Draft, AuditEntry> audit) {
        AtomicReference<Draft> written = new AtomicReference<>();
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            feedBound.lockProject(transaction, seen.projectId());
            Notification current = locked(transaction, seen.id())
                    .inProjectLocale(projectLanguages(transaction, seen.projectId()).defaultLocale());
            Optional<Draft> replaced = pendingDraft(transaction, seen.id());
            Draft pending = draft.apply(current, replaced);
            Optional<JsonObject> previous = replaced.map(Draft::body);
            transaction.namedDelete("delete-notification-draft", seen.id());
            transaction.createNamedInsert("insert-notification-draft")
                    .addParam("notificationId", seen.id())
                    .addParam("body", Json.write(pending.body()))
                    .addParam("updatedAt", pending.updatedAt())
                    .addParam("updatedBy", pending.updatedBy())
                    .execute();
            if (!previous.equals(Optional.of(pending.body()))) {
                AuditLog.recordChange(transaction, audit.apply(current, pending));
            }
            written.set(pending);
        });
        return written.get();
    }

    public Optional<Draft> draft(String notificationId) {
        return db.execute().namedGet("select-notification-draft", notificationId)
                .map(row -> toDraft(notificationId, row));
    }

    /**
     * Deletes the notification's pending change; the notification stays as it is.
     *
     * @param precondition checked on the draft as the write finds it, before it is deleted
     * @param audit        the line of the discarding, from the draft as it was
     * @throws dev.herald.api.ApiException 404 when the notification or its draft is gone
     */
    public void discardDraft(Notification seen, Consumer<Draft> precondition, Function<Draft, AuditEntry> audit) {
        changes.write(Change.ofProject(seen.projectId()), transaction -> {
            feedBound.lockProject(transaction, seen.projectId());
            locked(transaction, seen.id());
            Draft before = pendingDraft(transaction, seen.id()).orElseThrow(() -> AdminRequests.notFound("Draft"));
            precondition.accept(before);
            transaction.namedDelete("delete-notification-draft", seen.id());
            AuditLog.record(transaction, audit.apply(before));
        });
    }

    /** The notification's draft of changes as the write's transaction finds it, after it locked the notification. */
    private static Optional<Draft> pendingDraft(DbExecute transaction, String notificationId) {
        return transaction.namedGet("select-notification-draft", notificationId)
                .map(row -> toDraft(notificationId, row));
    }

    private static Draft toDraft(String notificationId, DbRow row) {
        JsonObject body = Json.parseObject(Rows.string(row, "body").getBytes(StandardCharsets.UTF_8)).orElseThrow();
        return new Draft(notificationId, body, Rows.longValue(row, "updated_at"), Rows.string(row, "updated_by"));
    }

    /**
     * The project's languages as the write's transaction finds them, after {@link FeedBound#lockProject}: a change of
     * them waits for the write, or the write for it (project.ProjectStore#update).
     */
    private static Project projectLanguages(DbExecute transaction, String projectId) {
        return transaction.namedGet("select-project-languages", projectId)
                .map(row -> new Project(projectId, "", 0, Rows.string(row, "default_locale"),
                                        ProjectStore.requiredLocales(Rows.string(row, "required_locales"))))
                .orElseThrow(() -> AdminRequests.notFound("Project"));
    }

    /**
     * Checked again with the project as the write finds it: its default may have changed since the request read it,
     * and what makes or keeps the notification published must cover the languages the project requires now.
     *
     * @throws dev.herald.api.ApiException 400 naming the translation in the notification's own language, or the
     *                                     required languages it has no text in ({@code details.missing})
     */
    private static void requireLanguages(Notification notification, Project languages) {
        NotificationChanges.requireLanguages(notification, false);
        NotificationChanges.requirePublishable(notification);
        if (notification.status() != NotificationStatus.PUBLISHED) {
            return;
        }
        List<String> missing = languages.requiredLocales().stream()
                .filter(tag -> !tag.equals(notification.effectiveLocale())
                        && Optional.ofNullable(notification.translations().get(tag))
                        .map(Translation::message).isEmpty())
                .toList();
        if (!missing.isEmpty()) {
            throw ApiException.missing("translations", "The project requires a text in " + String.join(", ", missing)
                    + " before a notification is published: add a translation with a message for each", missing);
        }
    }

    /** The notification as the transaction finds it, locked until it ends, or 404 when it is gone. */
    private static Notification locked(DbExecute transaction, String id) {
        return transaction.namedGet("select-notification-for-update", id).map(NotificationStore::toNotification)
                .orElseThrow(() -> AdminRequests.notFound("Notification"));
    }

    /** The notification, or empty when none has this id or it cannot be one ({@link Ids#isWellFormed}). */
    public Optional<Notification> find(String id) {
        if (!Ids.isWellFormed(id)) {
            return Optional.empty();
        }
        return db.execute().namedGet("select-notification", id)
                .map(row -> toNotification(row).inProjectLocale(Rows.string(row, "project_locale")));
    }

    /**
     * A page of the project's notifications, newest first: all of them, those of one status, or those in one state
     * at {@code now}, read a chunk at a time and bounded by the characters of their messages ({@link Page#read}).
     */
    public Page<Listed> listByProject(String projectId, ListFilter filter, PageRequest page, long now) {
        return Page.read(page, NEWEST, (after, limit) -> chunk(projectId, filter, after, limit, now).stream()
                                 .map(row -> new Page.Item<>(toListed(row), new PageRequest.Cursor(
                                         Rows.longValue(row, "created_at"), String.valueOf(Rows.longValue(row, "seq")))))
                                 .toList(),
                         listed -> listed.notification().message().length()
                                   + translationsLength(listed.notification()));
    }

    /** A notification as a list shows it: with when and by whom its pending draft of changes was saved, if any. */
    public record Listed(Notification notification, Optional<PendingDraft> draft) {
    }

    /** That a draft of changes is pending, without its body: what a list says of it. */
    public record PendingDraft(long updatedAt, String updatedBy) {
    }

    private static Listed toListed(DbRow row) {
        Optional<PendingDraft> draft = Optional.ofNullable(Rows.string(row, "draft_updated_by"))
                .map(by -> new PendingDraft(Rows.longValue(row, "draft_updated_at"), by));
        return new Listed(toNotification(row).inProjectLocale(Rows.string(row, "project_locale")), draft);
    }

    /** What a list's page counts of a notification's translations: their messages, as it counts its own. */
    private static int translationsLength(Notification notification) {
        int length = 0;
        for (Translation translation : notification.translations().values()) {
            length += translation.message() == null ? 0 : translation.message().length();
        }
        return length;
    }

    private List<DbRow> chunk(String projectId, ListFilter filter, PageRequest.Cursor after, int limit, long now) {
        DbStatementQuery query = db.execute().createNamedQuery("select-project-notifications-page" + filter.suffix)
                .addParam("projectId", projectId)
                .addParam("createdAt", after.createdAt())
                .addParam("sameCreatedAt", after.createdAt())
                .addParam("seq", after.sequence())
                .addParam("limit", limit);
        filter.status.ifPresent(status -> query.addParam("status", status.name()));
        if (filter.byTime) {
            query.addParam("now", now);
        }
        return query.execute().toList();
    }

    /** Which notifications a list holds: all, one status's, or one state's. */
    public record ListFilter(String suffix, Optional<NotificationStatus> status, boolean byTime) {

        public static final ListFilter ALL = new ListFilter("", Optional.empty(), false);

        public static ListFilter status(NotificationStatus status) {
            return new ListFilter("-by-status", Optional.of(status), false);
        }

        public static ListFilter state(NotificationState state) {
            return switch (state) {
                case DRAFT -> status(NotificationStatus.DRAFT);
                case ARCHIVED -> status(NotificationStatus.ARCHIVED);
                case SCHEDULED, LIVE, ENDED -> new ListFilter("-" + state.wireName(), Optional.empty(), true);
            };
        }
    }

    /** How many notifications the database holds, of every project and status. */
    public long count() {
        return db.execute().namedGet("count-notifications")
                .map(row -> Rows.longValue(row, "notifications"))
                .orElse(0L);
    }

    /** The ids of the project's notifications created at or after {@code since} (epoch milliseconds). */
    public List<String> idsCreatedSince(String projectId, long since) {
        return db.execute().namedQuery("select-project-notification-ids-since", projectId, since)
                .map(row -> Rows.string(row, "id"))
                .toList();
    }

    /** Up to {@code limit} ids after {@code after} in id order ({@code ""}: from the first). */
    public List<String> idsAfter(String after, int limit) {
        return db.execute().namedQuery("select-notification-ids-after", after, limit)
                .map(row -> Rows.string(row, "id"))
                .toList();
    }

    /** The project a notification belongs to, while the notification exists (any status). */
    public Optional<String> projectOf(String notificationId) {
        return db.execute().namedGet("select-notification-project", notificationId)
                .map(row -> Rows.string(row, "project_id"));
    }

    private static DbStatementDml withFields(DbStatementDml statement, Notification notification, int feedBytes) {
        return statement.addParam("id", notification.id())
                .addParam("status", notification.status().name())
                .addParam("title", notification.title())
                .addParam("message", notification.message())
                .addParam("image", notification.image())
                .addParam("imageAlt", notification.imageAlt())
                .addParam("actionType", notification.action().type().name())
                .addParam("actionUrl", notification.action().url())
                .addParam("actionTarget", notification.action().target())
                .addParam("actionLabel", notification.action().label())
                .addParam("preset", notification.preset())
                .addParam("startAt", notification.startAt())
                .addParam("endAt", notification.endAt())
                .addParam("updatedAt", notification.updatedAt())
                .addParam("feedBytes", feedBytes)
                .addParam("audience", notification.audience() == null ? null : notification.audience().text())
                .addParam("locale", notification.locale())
                .addParam("translations", Translations.stored(notification.translations()));
    }

    private static Notification toNotification(DbRow row) {
        return new Notification(Rows.string(row, "id"),
                                Rows.string(row, "project_id"),
                                NotificationStatus.valueOf(Rows.string(row, "status")),
                                Rows.string(row, "title"),
                                Rows.string(row, "message"),
                                Rows.string(row, "image"),
                                Rows.string(row, "image_alt"),
                                new Action(Action.Type.valueOf(Rows.string(row, "action_type")),
                                           Rows.string(row, "action_url"),
                                           Rows.string(row, "action_target"),
                                           Rows.string(row, "action_label")),
                                Rows.string(row, "preset"),
                                Rows.nullableLong(row, "start_at"),
                                Rows.nullableLong(row, "end_at"),
                                Rows.longValue(row, "created_at"),
                                Rows.longValue(row, "updated_at"),
                                Audience.stored(Rows.string(row, "audience")),
                                Rows.string(row, "locale"),
                                Translations.parseStored(Rows.string(row, "translations")),
                                null);
    }
}
