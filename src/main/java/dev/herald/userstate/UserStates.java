package dev.herald.userstate;

import java.time.Clock;

import dev.herald.feed.PublicFeedService;
import dev.herald.identity.UserTokens;
import dev.herald.storage.ServingDatabase;
import dev.herald.tracking.TrackingBatchSettings;
import dev.herald.tracking.TrackingService;

import io.helidon.webserver.http.HttpService;

/**
 * Per-user state (docs/behaviour.md#per-user-state): its store and its writer, which the running Herald keeps from
 * start to stop, and the routes that use them.
 */
public final class UserStates implements AutoCloseable {

    private final ServingDatabase database;
    private final UserStateStore store;
    private final UserStateWriter writer;

    public UserStates(ServingDatabase database, TrackingBatchSettings batch) {
        this.database = database;
        this.store = new UserStateStore(database);
        this.writer = new UserStateWriter(database, batch);
    }

    /** The public routes, under /api/v1/public. */
    public HttpService publicRoutes(PublicFeedService feed, TrackingService tracking, UserTokens users,
                                    Clock clock) {
        return new UserStateService(feed, tracking, users, store, writer, clock);
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
