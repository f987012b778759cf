package dev.herald.tracking;

import java.time.Duration;

import dev.herald.audience.Audience;
import dev.herald.identity.UserIdentity;
import dev.herald.storage.FailoverRead;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * Whether a notification is one a user could be served: published, and for everyone or targeted at an audience the
 * user's token matches. Tracking with a token records the user's state only then (docs/behaviour.md#per-user-state):
 * a state row of a draft, or of a notification targeted at others, would count as a user reached. Tracking carries no
 * API key, so no key's feed answers this; one read by primary key, made only for the interactions that record state
 * (with a token: an impression or a click), never on the path without a token.
 */
final class ServedToUser {

    private final DbClient db;
    private final Duration within;

    /** @param within how long a read that a database node's failover interrupts is tried again: a request's wait */
    ServedToUser(DbClient db, Duration within) {
        this.db = db;
        this.within = within;
    }

    boolean couldBeServed(String notificationId, UserIdentity user, long now) {
        return FailoverRead.run(() -> db.execute().namedGet("select-notification-served-to", notificationId), within)
                .filter(row -> "PUBLISHED".equals(Rows.string(row, "status")))
                .map(row -> Rows.string(row, "audience"))
                .map(audience -> audience.isEmpty() || Audience.stored(audience).matches(user, notificationId, now))
                .orElse(false);
    }
}
