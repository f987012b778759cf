package dev.herald.userstate;

import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import dev.herald.api.ApiException;
import dev.herald.api.Bodies;
import dev.herald.api.EntityTag;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;
import dev.herald.apikey.ApiKey;
import dev.herald.feed.FeedAnswer;
import dev.herald.feed.PublicFeedService;
import dev.herald.identity.UserIdentity;
import dev.herald.identity.UserTokens;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.stream.JsonGenerator;

/**
 * A signed-in user's state of the notifications of their feed (docs/api.md, /api/v1/public/{apiKey}/users/me/…):
 * read as counts for a badge and the instants of each state, written one event, up to 100, or a "mark all read" of
 * the ids the client showed. A user token is required on every route.
 */
public final class UserStateService implements HttpService {

    /** The answer is this user's: no shared cache keeps it, and a client revalidates it (its own ETag). */
    private static final Header PRIVATE = ResponseHeaders.fixed(HeaderNames.CACHE_CONTROL, "private, no-cache");
    private static final Header JSON = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, "application/json");

    private final PublicFeedService feed;
    private final UserTokens users;
    private final UserStateStore store;
    private final UserStateWriter writer;
    private final Clock clock;

    UserStateService(PublicFeedService feed, UserTokens users, UserStateStore store, UserStateWriter writer,
                     Clock clock) {
        this.feed = feed;
        this.users = users;
        this.store = store;
        this.writer = writer;
        this.clock = clock;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/{apiKey}/users/me/state", this::read)
                .head("/{apiKey}/users/me/state", this::read)
                .post("/{apiKey}/users/me/state", this::write)
                .post("/{apiKey}/users/me/read-all", this::readAll)
                .any("/{apiKey}/users/me/state", RouteFallbacks.methodNotAllowed("GET, HEAD, POST, OPTIONS"))
                .any("/{apiKey}/users/me/read-all", RouteFallbacks.methodNotAllowed("POST, OPTIONS"));
    }

    private void read(ServerRequest request, ServerResponse response) {
        ApiKey key = feed.activeKey(request.path().pathParameters().get("apiKey"));
        UserIdentity user = user(request, key);
        // In the language the feed route would answer this request in: feedTag is that answer's ETag. An answer in
        // a language the cache does not keep is counted in its budget until released.
        FeedAnswer answer = feed.answer(key, user, request, clock.millis());
        byte[] body;
        try {
            body = summary(answer, store.states(key.projectId(), user.userKey(), answer.ids()));
        } finally {
            answer.sent().run();
        }
        String tag = EntityTag.of(body);
        response.header(ResponseHeaders.of(HeaderNames.ETAG, tag));
        response.header(PRIVATE);
        PublicFeedService.varyForUser(response);
        if (EntityTag.matchesIfNoneMatch(request.headers(), tag)) {
            response.status(Status.NOT_MODIFIED_304).send();
            return;
        }
        response.header(JSON);
        Bodies.send(request, response, body);
    }

    /**
     * The seam to audiences: the ids of the feed answer this user gets, exactly as GET …/notifications answers it
     * with the same token (the same cached answer), whatever its language. The feed service decides which
     * notifications a user's token matches; this class never filters on its own.
     */
    private List<String> usersFeed(ApiKey key, UserIdentity user, long now) {
        FeedAnswer answer = feed.answer(key, Optional.of(user), now);
        answer.sent().run();
        return answer.ids();
    }

    private void write(ServerRequest request, ServerResponse response) {
        ApiKey key = feed.activeKey(request.path().pathParameters().get("apiKey"));
        UserIdentity user = user(request, key);
        List<StateBodies.Event> events = StateBodies.events(request);
        long now = clock.millis();
        Set<String> served = servedIds(key, user, now);
        // One SHA-256 per request, not one per event.
        String userKey = user.userKey();
        List<StateWrite> writes = new ArrayList<>(events.size());
        for (StateBodies.Event event : events) {
            if (served.contains(event.notificationId())) {
                writes.add(new StateWrite(key.projectId(), userKey, event.notificationId(), event.state(), now));
            }
        }
        writer.record(writes);
        response.status(Status.NO_CONTENT_204).send();
    }

    /** Exactly the ids the client showed, read: one transaction, whatever was published since it drew them. */
    private void readAll(ServerRequest request, ServerResponse response) {
        ApiKey key = feed.activeKey(request.path().pathParameters().get("apiKey"));
        UserIdentity user = user(request, key);
        List<String> ids = StateBodies.readAllIds(request);
        long now = clock.millis();
        Set<String> served = servedIds(key, user, now);
        String userKey = user.userKey();
        List<StateWrite> writes = new ArrayList<>(ids.size());
        for (String id : ids) {
            if (served.contains(id)) {
                writes.add(new StateWrite(key.projectId(), userKey, id, UserState.READ, now));
            }
        }
        writer.record(writes);
        response.status(Status.NO_CONTENT_204).send();
    }

    /**
     * The ids a write may store: those of the user's feed now, the answer the summary counts. Any other id (deleted
     * meanwhile, unpublished, a draft, targeted at others, another project's, made up) is left out, not refused: a
     * client that dismisses a notification unpublished a moment ago is not in error, and the answer does not tell
     * which ids exist or whom they target. Rows of notifications no one was served would inflate uniqueUsers.
     */
    private Set<String> servedIds(ApiKey key, UserIdentity user, long now) {
        return new HashSet<>(usersFeed(key, user, now));
    }

    private UserIdentity user(ServerRequest request, ApiKey key) {
        return users.identifyRequired(request, key);
    }

    /**
     * {@code {"unread","unseen","feedTag","notifications":{id:{seenAt,readAt,dismissedAt,archivedAt}}}}, every id of
     * the feed answer in its order; dismissed and archived ones are out of both counts.
     */
    private static byte[] summary(FeedAnswer answer, Map<String, StoredState> states) {
        long unread = 0;
        long unseen = 0;
        for (String id : answer.ids()) {
            StoredState state = states.getOrDefault(id, StoredState.NONE);
            if (state.counted()) {
                unread += state.readAt() == null ? 1 : 0;
                unseen += state.seenAt() == null ? 1 : 0;
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + 120 * answer.ids().size());
        try (JsonGenerator json = Json.generator(out)) {
            json.writeStartObject()
                    .write("unread", unread)
                    .write("unseen", unseen)
                    .write("feedTag", answer.tag())
                    .writeStartObject("notifications");
            for (String id : answer.ids()) {
                StoredState state = states.getOrDefault(id, StoredState.NONE);
                json.writeStartObject(id);
                instant(json, "seenAt", state.seenAt());
                instant(json, "readAt", state.readAt());
                instant(json, "dismissedAt", state.dismissedAt());
                instant(json, "archivedAt", state.archivedAt());
                json.writeEnd();
            }
            json.writeEnd().writeEnd();
        }
        return out.toByteArray();
    }

    private static void instant(JsonGenerator json, String name, Long instant) {
        if (instant == null) {
            json.writeNull(name);
        } else {
            json.write(name, Timestamps.format(instant));
        }
    }
}
