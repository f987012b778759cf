package dev.herald.feed;

import java.util.List;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Action;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * The query behind Get Notifications.
 */
final class FeedStore {

    private final DbClient db;

    FeedStore(DbClient db) {
        this.db = db;
    }

    /**
     * The newest {@code limit} published notifications of the key's project that the key may see at {@code now},
     * newest first (public-api.md §4.1 rules 1-4 and 6).
     */
    List<FeedEntry> visible(ApiKey key, long now, int limit) {
        return db.execute().createNamedQuery("select-visible-notifications")
                .addParam("projectId", key.projectId())
                .addParam("now", now)
                .addParam("showPast", key.showPast())
                .addParam("showFuture", key.showFuture())
                .addParam("limit", limit)
                .execute()
                .map(FeedStore::toEntry)
                .toList();
    }

    private static FeedEntry toEntry(DbRow row) {
        Action action = new Action(Action.Type.valueOf(Rows.string(row, "action_type")),
                                   Rows.string(row, "action_url"),
                                   Rows.string(row, "action_target"));
        return new FeedEntry(Rows.string(row, "id"),
                             Rows.string(row, "message"),
                             Rows.string(row, "image"),
                             action,
                             Rows.string(row, "preset"),
                             Rows.nullableLong(row, "start_at"),
                             Rows.nullableLong(row, "end_at"),
                             Rows.longValue(row, "created_at"),
                             Rows.longValue(row, "seq"));
    }
}
