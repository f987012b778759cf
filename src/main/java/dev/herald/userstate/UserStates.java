package dev.herald.userstate;

import java.time.Clock;

import dev.herald.feed.PublicFeedService;
import dev.herald.identity.UserTokens;
import dev.herald.outbox.Outbox;
import dev.herald.storage.ServingDatabase;
import dev.herald.storage.GroupCommit;

import io.helidon.webserver.http.HttpService;

/**
 * Per-user state (docs/behaviour.md#per-user-state): its store and its writer, which the running Herald keeps from
 * start to stop, and the routes that use them.
 */
public final class UserStates implements AutoCloseable {

    private final ServingDatabase database;
    private final UserStateStore store;
    private final UserStateWriter writer;

    /**
     * @param batching the group commit's settings (tracking's), or null for one transaction per request on its own
     *                 thread ({@code tracking.batch.enabled: false})
     * @param outbox   where the states users reach for the first time are written as events
     */
    public UserStates(ServingDatabase database, GroupCommit.Settings batching, Outbox outbox, Clock clock) {
        this.database = database;
        this.store = new UserStateStore(database);
        this.writer = new UserStateWriter(database, batching, new UserStateEvents(database, outbox), clock);
    }

    /** The public routes, under /api/v1/public. */
    public HttpService publicRoutes(PublicFeedService feed, UserTokens users, Clock clock) {
        return new UserStateService(feed, users, store, writer, clock);
    }

    /** The management route that erases a user, under /api/v1/admin. */
    public HttpService adminRoutes(Clock clock) {
        return new UserErasureService(database.client(), store, clock);
    }

    /** Stops taking writes and commits every one already taken; before the pool closes. */
    @Override
    public void close() {
        writer.close();
    }
}
