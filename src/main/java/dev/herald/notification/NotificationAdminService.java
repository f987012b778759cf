package dev.herald.notification;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.Ids;
import dev.herald.admin.PageRequest;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditDetails;
import dev.herald.audit.AuditEntry;
import dev.herald.content.MessageText;
import dev.herald.project.Project;
import dev.herald.project.ProjectAdminService;
import dev.herald.project.ProjectStore;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Notifications in the management API (docs/api.md#management-api). Every change is visible to the public API on its
 * next request: the store announces it, and what the public API holds in memory follows before the answer is sent.
 */
public final class NotificationAdminService implements HttpService {

    private static final String TARGET = "notification";
    /** Written by the server at every update: no one's change. */
    private static final Set<String> UNAUDITED = Set.of("updatedAt");
    /** A change of message is kept as the words removed and added too (docs/api.md#audit-log). */
    private static final Map<String, UnaryOperator<String>> WORDS = Map.of("message", MessageText::of);

    private final ProjectStore projects;
    private final NotificationStore notifications;
    private final NotificationVersions versions;
    private final AudienceCheck audienceCheck;
    private final TranslationRoutes translations;
    private final int maxMessageBytes;
    private final Clock clock;

    public NotificationAdminService(DbClient db, NotificationStore notifications, NotificationLimits limits, Clock clock) {
        this.projects = new ProjectStore(db);
        this.notifications = notifications;
        this.versions = new NotificationVersions(db);
        this.audienceCheck = new AudienceCheck(notifications, clock);
        this.maxMessageBytes = limits.messageBytes();
        this.clock = clock;
        this.translations = new TranslationRoutes(notifications, this::existing, maxMessageBytes, clock);
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/projects/{projectId}/notifications/archive", this::archive)
                .any("/projects/{projectId}/notifications/archive", RouteFallbacks.methodNotAllowed("POST"))
                .post("/projects/{projectId}/notifications", this::create)
                .get("/projects/{projectId}/notifications", this::list)
                .head("/projects/{projectId}/notifications", this::list)
                .get("/notifications/{id}", this::get)
                .head("/notifications/{id}", this::get)
                .patch("/notifications/{id}", this::update)
                .delete("/notifications/{id}", this::delete)
                .put("/notifications/{id}/draft", this::saveDraft)
                .get("/notifications/{id}/draft", this::draft)
                .head("/notifications/{id}/draft", this::draft)
                .delete("/notifications/{id}/draft", this::discardDraft)
                .any("/notifications/{id}/draft", RouteFallbacks.methodNotAllowed("GET, HEAD, PUT, DELETE"))
                .post("/notifications/{id}/duplicate", this::duplicate)
                .any("/notifications/{id}/duplicate", RouteFallbacks.methodNotAllowed("POST"))
                .post("/notifications/{id}/audience-check", audienceCheck::answer)
                .any("/notifications/{id}/audience-check", RouteFallbacks.methodNotAllowed("POST"))
                .post("/notifications/{id}/unpublish", this::unpublish)
                .any("/notifications/{id}/unpublish", RouteFallbacks.methodNotAllowed("POST"))
                .get("/notifications/{id}/versions", this::versions)
                .head("/notifications/{id}/versions", this::versions)
                .any("/notifications/{id}/versions", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .get("/notifications/{id}/versions/{version}", this::version)
                .head("/notifications/{id}/versions/{version}", this::version)
                .any("/notifications/{id}/versions/{version}", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .get("/notifications/{id}/translations", translations::list)
                .head("/notifications/{id}/translations", translations::list)
                .any("/notifications/{id}/translations", RouteFallbacks.methodNotAllowed("GET, HEAD"))
                .put("/notifications/{id}/translations/{locale}", translations::put)
                .patch("/notifications/{id}/translations/{locale}", translations::patch)
                .delete("/notifications/{id}/translations/{locale}", translations::delete)
                .any("/notifications/{id}/translations/{locale}", RouteFallbacks.methodNotAllowed("PUT, PATCH, DELETE"))
                .post("/notifications/{id}/versions/{version}/restore", this::restore)
                .any("/notifications/{id}/versions/{version}/restore", RouteFallbacks.methodNotAllowed("POST"))
                .any("/projects/{projectId}/notifications", RouteFallbacks.methodNotAllowed("GET, HEAD, POST"))
                .any("/notifications/{id}", RouteFallbacks.methodNotAllowed("GET, HEAD, PATCH, DELETE"));
    }

    private void create(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        long now = clock.millis();
        NotificationChanges.Applied applied = NotificationChanges.apply(
                AdminRequests.body(request, NotificationChanges.FIELDS),
                NotificationChanges.draft(Ids.newId(), project.id(), project.defaultLocale(), now), now, maxMessageBytes);
        Notification created = applied.notification();
        notifications.create(created, AuditEntry.of(Actor.of(request), now, "notification.created", project.id(),
                                                    TARGET, created.id(), NotificationJson.json(created)));
        warnIfEnded(response, created, now);
        AdminResponses.created(request, response, "/api/v1/admin/notifications/" + created.id(),
                               NotificationJson.json(created, applied.removed()));
    }

    /**
     * Archives every notification of the project in a state at once: {@code ?state=ended} (the only one so far),
     * those whose end is past. They leave every feed but those of keys with {@code showPast}, and stop counting
     * against {@code limits.feed-bytes} for any key. A year of expired announcements otherwise took one PATCH each.
     */
    private void archive(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        String state = request.query().first("state").asOptional()
                .orElseThrow(() -> ApiException.validation("state", "state is required: ended"));
        if (!state.equals(NotificationState.ENDED.wireName())) {
            throw AdminRequests.notOneOf("state", List.of(NotificationState.ENDED.wireName()));
        }
        int archived = notifications.archiveEnded(project.id(), clock.millis(), Actor.of(request));
        AdminResponses.ok(request, response, Json.builders().createObjectBuilder().add("archived", archived).build());
    }

    /** Newest first, a page at a time; {@code ?status=} (DRAFT, PUBLISHED, ARCHIVED) or {@code ?state=}. */
    private void list(ServerRequest request, ServerResponse response) {
        Project project = ProjectAdminService.existing(projects, request.path().pathParameters().get("projectId"));
        PageRequest page = PageRequest.of(request);
        AdminResponses.page(request, response,
                            notifications.listByProject(project.id(), filter(request), page, clock.millis()),
                            NotificationJson::json);
    }

    private static NotificationStore.ListFilter filter(ServerRequest request) {
        Optional<String> status = request.query().first("status").asOptional();
        Optional<String> state = request.query().first("state").asOptional();
        if (status.isPresent() && state.isPresent()) {
            throw ApiException.validation("state", "give status or state, not both");
        }
        if (state.isPresent()) {
            if (!NotificationState.NAMES.contains(state.get())) {
                throw AdminRequests.notOneOf("state", NotificationState.NAMES);
            }
            return NotificationStore.ListFilter.state(NotificationState.valueOf(state.get().toUpperCase(Locale.ROOT)));
        }
        return status.map(NotificationChanges::status).map(NotificationStore.ListFilter::status)
                .orElse(NotificationStore.ListFilter.ALL);
    }

    private void get(ServerRequest request, ServerResponse response) {
        Notification notification = existing(request);
        response.header(ResponseHeaders.of(HeaderNames.ETAG, NotificationPreconditions.tag(
                notification, notifications.draft(notification.id()))));
        AdminResponses.ok(request, response, NotificationJson.json(notification));
    }

    /**
     * The body is checked against the notification as read here; it applies to the one its write finds. The write
     * deletes the draft of changes: with If-Match, only the one its sender read (the tag covers it).
     */
    private void update(ServerRequest request, ServerResponse response) {
        Notification seen = existing(request);
        NotificationPreconditions preconditions = NotificationPreconditions.asRead(request, seen, notifications);
        NotificationChanges.Patch patch = NotificationChanges.read(
                AdminRequests.body(request, NotificationChanges.FIELDS), false, maxMessageBytes);
        // Dates that do not fit together are refused here; the write applies the body again to what it finds.
        patch.applyTo(seen, clock.millis());
        Actor actor = Actor.of(request);
        // The time of the write, read in its transaction: the log's order by time is the order of the changes.
        NotificationChanges.Applied applied = notifications.update(
                seen, (current, draft) -> {
                    preconditions.require(current, draft);
                    return patch.applyTo(current, clock.millis());
                },
                (before, after) -> AuditEntry.of(actor, after.updatedAt(), updateAction(before, after),
                        before.projectId(), TARGET, before.id(), changes(before, after)));
        Notification updated = applied.notification();
        // Its draft of changes went in the same write: the tag of the notification without one.
        response.header(ResponseHeaders.of(HeaderNames.ETAG,
                                           NotificationPreconditions.tag(updated, Optional.empty())));
        warnIfEnded(response, updated, updated.updatedAt());
        AdminResponses.ok(request, response, NotificationJson.json(updated, applied.removed()));
    }

    /**
     * Nothing brings a deleted notification back: with If-Match, only the one its sender read goes, never one a
     * colleague changed or gave a draft of changes since (the tag covers it).
     */
    private void delete(ServerRequest request, ServerResponse response) {
        Notification seen = existing(request);
        NotificationPreconditions preconditions = NotificationPreconditions.asRead(request, seen, notifications);
        Actor actor = Actor.of(request);
        notifications.delete(seen, preconditions::require, before -> AuditEntry.of(actor, clock.millis(),
                "notification.deleted", before.projectId(), TARGET, before.id(), NotificationJson.json(before)));
        AdminResponses.noContent(response);
    }

    /**
     * Keeps the body as the notification's pending change, apart from it: its feeds go on serving it as it is until
     * a PATCH applies the change (docs/api.md). Checked as a PATCH body is, status excepted; it replaces only the
     * draft its sender read, when it names it ({@link DraftPreconditions}).
     */
    private void saveDraft(ServerRequest request, ServerResponse response) {
        Notification seen = existing(request);
        DraftPreconditions preconditions = DraftPreconditions.of(request);
        NotificationChanges.Patch patch = NotificationChanges.read(
                AdminRequests.body(request, NotificationChanges.DRAFT_FIELDS), false, maxMessageBytes);
        Actor actor = Actor.of(request);
        NotificationStore.Draft saved = notifications.saveDraft(seen, (current, replaced) -> {
            preconditions.require(replaced);
            long now = clock.millis();
            patch.applyTo(current, now);
            return new NotificationStore.Draft(current.id(), patch.asStored(), now, actor.name());
        }, (current, draft) -> AuditEntry.of(actor, draft.updatedAt(), "notification.draft-saved", seen.projectId(),
                                             TARGET, seen.id(),
                                             changes(current, patch.applyTo(current, draft.updatedAt()).notification())));
        response.header(ResponseHeaders.of(HeaderNames.ETAG, DraftPreconditions.tag(saved)));
        AdminResponses.ok(request, response, NotificationJson.draft(saved));
    }

    private void draft(ServerRequest request, ServerResponse response) {
        Notification notification = existing(request);
        NotificationStore.Draft draft = notifications.draft(notification.id())
                .orElseThrow(() -> AdminRequests.notFound("Draft"));
        response.header(ResponseHeaders.of(HeaderNames.ETAG, DraftPreconditions.tag(draft)));
        AdminResponses.ok(request, response, NotificationJson.draft(draft));
    }

    private void discardDraft(ServerRequest request, ServerResponse response) {
        Actor actor = Actor.of(request);
        Notification seen = existing(request);
        DraftPreconditions preconditions = DraftPreconditions.of(request);
        notifications.discardDraft(seen, draft -> preconditions.require(Optional.of(draft)),
                before -> AuditEntry.of(actor, clock.millis(), "notification.draft-discarded", seen.projectId(), TARGET,
                                        seen.id(), before.body()));
        AdminResponses.noContent(response);
    }

    /**
     * A new draft in the same project with the content of the notification as stored (its draft of changes, if any,
     * is not copied): title, message, image and its description, action, preset, locale and translations, without its
     * dates, which belonged to the original's campaign. Its history starts at version 1.
     */
    private void duplicate(ServerRequest request, ServerResponse response) {
        Notification source = existing(request);
        long now = clock.millis();
        Notification copy = new Notification(Ids.newId(), source.projectId(), NotificationStatus.DRAFT, source.title(),
                                             source.message(), source.image(), source.imageAlt(), source.action(),
                                             source.preset(), null, null, now, now, source.audience(), source.locale(),
                                             source.translations(), source.projectLocale());
        JsonObject details = Json.builders().createObjectBuilder(NotificationJson.json(copy))
                .add("duplicateOf", source.id()).build();
        notifications.create(copy, AuditEntry.of(Actor.of(request), now, "notification.duplicated",
                                                 copy.projectId(), TARGET, copy.id(), details));
        AdminResponses.created(request, response, "/api/v1/admin/notifications/" + copy.id(),
                               NotificationJson.json(copy));
    }

    /**
     * A published notification back to DRAFT: out of every feed on the next request. Its pending draft of changes,
     * if any, becomes its content, so that what was being prepared is what the draft now holds (the live content
     * stays in its versions). 409 for one that is not published, read in the write's transaction; the draft applied
     * is the one that write finds and deletes, never one saved meanwhile and deleted unread.
     */
    private void unpublish(ServerRequest request, ServerResponse response) {
        Notification seen = existing(request);
        NotificationPreconditions preconditions = NotificationPreconditions.asRead(request, seen, notifications);
        Actor actor = Actor.of(request);
        NotificationChanges.Applied applied = notifications.update(seen, (current, draft) -> {
            preconditions.require(current, draft);
            if (current.status() != NotificationStatus.PUBLISHED) {
                throw ApiException.error(Status.CONFLICT_409, "NOT_PUBLISHED", "The notification is "
                        + current.status() + ", not PUBLISHED: only a published one can be unpublished");
            }
            JsonObject changes = Json.builders().createObjectBuilder(draft.map(NotificationStore.Draft::body)
                            .orElse(JsonValue.EMPTY_JSON_OBJECT))
                    .add("status", NotificationStatus.DRAFT.name()).build();
            return NotificationChanges.read(changes, false, maxMessageBytes).applyTo(current, clock.millis());
        }, (before, after) -> AuditEntry.of(actor, after.updatedAt(), "notification.unpublished", before.projectId(),
                                            TARGET, before.id(), changes(before, after)));
        response.header(ResponseHeaders.of(HeaderNames.ETAG,
                                           NotificationPreconditions.tag(applied.notification(), Optional.empty())));
        AdminResponses.ok(request, response, NotificationJson.json(applied.notification()));
    }

    /** Newest first, a page at a time (docs/api.md, GET /api/v1/admin/notifications/{id}/versions). */
    private void versions(ServerRequest request, ServerResponse response) {
        Notification notification = existing(request);
        AdminResponses.page(request, response, versions.list(notification.id(), PageRequest.of(request)),
                            NotificationAdminService::versionJson);
    }

    private void version(ServerRequest request, ServerResponse response) {
        AdminResponses.ok(request, response, versionJson(existingVersion(request, existing(request))));
    }

    /**
     * A version's content as the notification's draft: of a DRAFT, its content (as a PATCH would, a new version);
     * of a published or archived one, its draft of changes (as PUT .../draft would), so that nothing reaches users
     * without a PATCH that says so. The answer is what the write gives: the notification, or the draft of changes.
     */
    private void restore(ServerRequest request, ServerResponse response) {
        Notification seen = existing(request);
        NotificationVersions.Version version = existingVersion(request, seen);
        NotificationPreconditions preconditions = NotificationPreconditions.asRead(request, seen, notifications);
        NotificationChanges.Patch patch = NotificationChanges.read(everyoneUnlessTargeted(version.content()), false,
                                                                   maxMessageBytes);
        Actor actor = Actor.of(request);
        if (seen.status() == NotificationStatus.DRAFT) {
            NotificationChanges.Applied applied = notifications.update(seen, (current, draft) -> {
                preconditions.require(current, draft);
                if (current.status() != NotificationStatus.DRAFT) {
                    throw ApiException.error(Status.CONFLICT_409, "NOT_DRAFT", "The notification was "
                            + current.status() + " meanwhile: restore again to keep the version as a draft of changes");
                }
                return NotificationChanges.restored(current, patch.applyTo(current, clock.millis()));
            }, (before, after) -> AuditEntry.of(actor, after.updatedAt(), "notification.version-restored",
                    before.projectId(), TARGET, before.id(), restored(changes(before, after), version)));
            response.header(ResponseHeaders.of(HeaderNames.ETAG, NotificationPreconditions.tag(
                    applied.notification(), Optional.empty())));
            AdminResponses.ok(request, response, NotificationJson.json(applied.notification()));
            return;
        }
        // Replacing any draft of changes, as documented: a restore is asked for whatever the notification is now;
        // with If-Match, only the draft its sender read (the notification's tag covers it).
        NotificationStore.Draft saved = notifications.saveDraft(seen, (current, replaced) -> {
            preconditions.require(current, replaced);
            long now = clock.millis();
            patch.applyTo(current, now);
            return new NotificationStore.Draft(current.id(), patch.asStored(), now, actor.name());
        }, (current, draft) -> AuditEntry.of(actor, draft.updatedAt(), "notification.version-restored",
                seen.projectId(), TARGET, seen.id(),
                restored(changes(current, patch.applyTo(current, draft.updatedAt()).notification()), version)));
        response.header(ResponseHeaders.of(HeaderNames.ETAG, DraftPreconditions.tag(saved)));
        AdminResponses.ok(request, response, NotificationJson.draft(saved));
    }

    /**
     * A version without an audience was for everyone, one without a locale followed the project's default, one
     * without translations had none, one without an image description had none: restoring it makes the notification
     * so again.
     */
    private static JsonObject everyoneUnlessTargeted(JsonObject content) {
        var restored = Json.builders().createObjectBuilder(content);
        for (String member : List.of("imageAlt", "audience", "locale", "translations")) {
            if (!content.containsKey(member)) {
                restored.addNull(member);
            }
        }
        return restored.build();
    }

    /** A restore's line: what it changes (of a draft of changes: what publishing it would), and which version. */
    private static JsonObject restored(JsonObject changes, NotificationVersions.Version version) {
        return Json.builders().createObjectBuilder(changes).add("version", version.number()).build();
    }

    private NotificationVersions.Version existingVersion(ServerRequest request, Notification notification) {
        String number = request.path().pathParameters().get("version");
        return (number.matches("[1-9][0-9]{0,8}") ? versions.find(notification.id(), Integer.parseInt(number))
                : Optional.<NotificationVersions.Version>empty())
                .orElseThrow(() -> AdminRequests.notFound("Version"));
    }

    private static JsonObject versionJson(NotificationVersions.Version version) {
        return Json.builders().createObjectBuilder()
                .add("version", version.number())
                .add("savedAt", Timestamps.format(version.savedAt()))
                .add("savedBy", version.savedBy())
                .add("content", version.content())
                .build();
    }

    /**
     * What an update changed; for a draft of changes, what publishing it would change (docs/api.md#audit-log), so that
     * its line reads as an update's does.
     */
    static JsonObject changes(Notification before, Notification after) {
        return AuditDetails.changes(NotificationJson.audited(before), NotificationJson.audited(after), UNAUDITED,
                                    WORDS);
    }

    /** A change of status is what a reader of the audit log looks for first: it names the action. */
    private static String updateAction(Notification before, Notification after) {
        if (before.status() == after.status()) {
            return "notification.updated";
        }
        return switch (after.status()) {
            case PUBLISHED -> "notification.published";
            case ARCHIVED -> "notification.archived";
            case DRAFT -> "notification.unpublished";
        };
    }

    /**
     * A published notification whose end is already past when it is saved is shown by no key but those with
     * {@code showPast}: most likely a mistaken date, so the answer says so (a {@code Warning} header, RFC 7234's
     * 299, so that the body stays the Notification a client may send back).
     */
    private static void warnIfEnded(ServerResponse response, Notification notification, long now) {
        if (NotificationState.of(notification, now) == NotificationState.ENDED) {
            response.header(ResponseHeaders.of(HeaderNames.WARNING, "299 - \"endDate "
                    + Timestamps.format(notification.endAt()) + " is past: the notification is ended as it is saved, and only keys with showPast show it\""));
        }
    }

    private Notification existing(ServerRequest request) {
        return notifications.find(request.path().pathParameters().get("id"))
                .orElseThrow(() -> AdminRequests.notFound("Notification"));
    }
}
