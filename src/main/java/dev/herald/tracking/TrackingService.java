package dev.herald.tracking;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

import dev.herald.admin.Ids;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.SegmentPath;
import dev.herald.changes.ChangeLog;
import dev.herald.identity.UserIdentity;
import dev.herald.identity.UserTokens;
import dev.herald.notification.NotificationStore;
import dev.herald.outbox.Outbox;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.storage.ServingDatabase;

import io.helidon.config.Config;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;

/**
 * Track Interaction, simple and enhanced (docs/api.md, POST /api/v1/public/track/{notificationId} and /enhanced).
 * Checks run in the order given there, the first failure answers; 204 only once the interaction is committed.
 */
public final class TrackingService implements HttpService, AutoCloseable {

    /**
     * Some 240 bytes an id with its project and language, up to 450 more for one of 50 translations (their tags are
     * shared): 5 MB at most, 14 MB were every one translated 50 times.
     */
    private static final int MAX_KNOWN_NOTIFICATIONS = 20_000;
    /**
     * How long the check of an id no notification has waits for a read of the change log before it answers 503: a
     * read takes milliseconds, but a JVM that has just started, flooded, took longer than the previous 250 ms, and
     * asking the database for each id instead is what took the pool (issue 33).
     */
    private static final Duration LOG_READ_TIMEOUT = Duration.ofSeconds(1);

    private final KnownNotifications notifications;
    private final InteractionWriter interactions;
    private final InteractionRetention retention;
    private final MetadataQuota.Budget metadataBudget;
    private final ClientAddresses clients;
    private final TimestampWindow timestampWindow;
    private final UserTokens users;
    private final ServedToUser served;
    private final Clock clock;

    public TrackingService(ServingDatabase database, NotificationStore notifications, ChangeLog changes,
                           Outbox outbox, TrackingBatchSettings batch, RetentionSettings retention, Config metadata,
                           ClientAddresses clients, TimestampWindow timestampWindow, UserTokens users, Clock clock) {
        InteractionStore store = new InteractionStore(database, outbox, clock);
        this.notifications = new KnownNotifications(notifications, new TrackedNotificationStore(database.client(), batch.maxWait()),
                                                    changes, batch.enabled(), MAX_KNOWN_NOTIFICATIONS, LOG_READ_TIMEOUT,
                                                    clock);
        this.interactions = batch.enabled()
                ? new BatchingInteractionWriter(database.pool(), store, batch)
                : new DirectInteractionWriter(database.pool(), store);
        this.retention = new InteractionRetention(database.client(), retention, timestampWindow.eventIdsKept(), clock);
        this.metadataBudget = MetadataQuota.from(metadata).budget(clock);
        this.clients = clients;
        this.timestampWindow = timestampWindow;
        this.users = users;
        this.served = new ServedToUser(database.client(), batch.maxWait());
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        SegmentPath simple = SegmentPath.of("/track/{notificationId}");
        SegmentPath enhanced = SegmentPath.of("/track/{notificationId}/enhanced");
        rules.route(Method.POST, simple, this::trackSimple)
                .route(Method.POST, enhanced, this::trackEnhanced)
                .route(Method.predicate(), simple, RouteFallbacks.methodNotAllowed("POST, OPTIONS"))
                .route(Method.predicate(), enhanced, RouteFallbacks.methodNotAllowed("POST, OPTIONS"));
    }

    /** Reads the settings only tracking knows, so that a wrong one ends the start before the database. */
    public static void checkSettings(Config tracking) {
        MetadataQuota.from(tracking.get("metadata"));
    }

    /** How the unknown-notification check was answered, for {@code /observe/metrics}. */
    public LookupFigures lookupFigures() {
        return notifications.figures();
    }

    /** The writer's figures, for {@code /observe/metrics}. */
    public WriterFigures writerFigures() {
        return interactions.figures();
    }

    /** Once the schema is current: starts pruning raw interactions and event ids past their retention. */
    public void start() {
        retention.start();
    }

    /** Stops taking interactions and commits every one already taken; before the pool closes. */
    @Override
    public void close() {
        retention.close();
        interactions.close();
    }

    private void trackSimple(ServerRequest request, ServerResponse response) {
        track(request, response, TrackingEndpoint.SIMPLE);
    }

    /**
     * An Authorization header that is not a bearer JWS (another scheme, a token of another kind) is ignored, as before
     * user tokens; a user token that does not verify is 401 (docs/api.md, User tokens). A valid one also records the
     * user's state (an impression: seen; a click: read).
     */
    private void trackEnhanced(ServerRequest request, ServerResponse response) {
        track(request, response, TrackingEndpoint.ENHANCED);
    }

    private void track(ServerRequest request, ServerResponse response, TrackingEndpoint endpoint) {
        String notificationId = request.path().pathParameters().get("notificationId");
        if (!Ids.isWellFormed(notificationId)) {
            throw TrackingErrors.invalidNotificationId();
        }
        // One reading of the clock: the window is measured from the time stored as received_at.
        long now = clock.millis();
        TrackingRequest tracked = tracked(request, endpoint, now);
        TrackedNotification notification = find(notificationId, response);
        String projectId = notification.projectId();
        Optional<UserIdentity> user = users.identifyForTracking(request, projectId);
        if (tracked.metadata() != null) {
            long retryAfter = metadataBudget.take(clients.clientOf(request), projectId, tracked.metadataBytes());
            if (retryAfter > 0) {
                response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, String.valueOf(retryAfter)));
                throw TrackingErrors.metadataQuotaExceeded();
            }
        }

        long occurredAt = tracked.occurredAt() == null ? now : tracked.occurredAt();
        String locale = RecordedLanguage.of(notification.languages(), tracked.locale(), request, user);
        interactions.record(new Interaction(notificationId, projectId, tracked.type(), occurredAt, now, endpoint,
                                            tracked.metadata(), stateKey(user, tracked.type(), notificationId, now),
                                            locale, tracked.eventId()));
        response.status(Status.NO_CONTENT_204).send();
    }

    /** A notification of that id, or 404; 503 when memory cannot tell yet and the database must not be asked. */
    private TrackedNotification find(String notificationId, ServerResponse response) {
        try {
            return notifications.find(notificationId).orElseThrow(TrackingErrors::notificationNotFound);
        } catch (IdsNotReady e) {
            response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, "1"));
            throw TrackingErrors.idsNotReady();
        }
    }

    /**
     * The user whose state the interaction records, or null: none without a token, for a conversion (no state), or
     * for a notification the user could not be served (a draft, targeted at others). The interaction itself is
     * recorded whatever this answers, as it was before tokens.
     */
    private String stateKey(Optional<UserIdentity> user, InteractionType type, String notificationId, long now) {
        if (user.isEmpty() || type == InteractionType.CONVERSION
                || !served.couldBeServed(notificationId, user.get(), now)) {
            return null;
        }
        return user.get().userKey();
    }

    /**
     * The request's body, read and checked. Its bytes and its JSON tree live in this method only: the request then
     * waits for its commit, and a tree can be some 15 times the body (64 KiB of small numbers, a megabyte). 128 such
     * trees held through that wait, from 8 clients within their body budget, filled the launcher's heap.
     */
    private TrackingRequest tracked(ServerRequest request, TrackingEndpoint endpoint, long now) {
        byte[] body = TrackingBody.read(request);
        TrackingBody.requireSupportedMediaType(request);
        JsonObject json = Json.parseRequestObject(body).orElseThrow(TrackingErrors::invalidBody);
        return TrackingRequest.parse(json, endpoint, timestampWindow, now);
    }
}
