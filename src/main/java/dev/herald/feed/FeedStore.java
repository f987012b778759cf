package dev.herald.feed;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import dev.herald.apikey.ApiKey;
import dev.herald.audience.Audience;
import dev.herald.content.ServedMessages;
import dev.herald.locale.LanguageTag;
import dev.herald.logging.LogThrottle;
import dev.herald.notification.Action;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbRow;

/**
 * The queries behind Get Notifications: what a key sees now, and until when that holds.
 */
final class FeedStore {

    private static final System.Logger LOGGER = System.getLogger(FeedStore.class.getName());
    private static final LogThrottle NOT_IN_FORM = new LogThrottle(Duration.ofMinutes(1));

    /** projects.default_locale's default (migration 21). */
    private static final String FALLBACK_LOCALE = "en";

    private final DbClient db;

    FeedStore(DbClient db) {
        this.db = db;
    }

    /**
     * The newest {@code limit} published notifications of the key's project that the key may see at {@code now},
     * newest first (docs/api.md, GET /api/v1/public/{apiKey}/notifications, rules 1 to 3).
     */
    List<FeedEntry> visible(ApiKey key, String defaultLocale, long now, int limit) {
        return visible(key.showPast() ? "select-feed-with-past" : "select-feed-without-past", key, now, limit)
                .map(row -> toEntry(row, defaultLocale))
                .toList();
    }

    /**
     * The newest {@code limit} published notifications with an audience that the key may see at {@code now}, newest
     * first, each with its rules parsed: once per load, never per request.
     */
    List<KeyFeed.Targeted> targeted(ApiKey key, String defaultLocale, long now, int limit) {
        return visible(key.showPast() ? "select-targeted-feed-with-past" : "select-targeted-feed-without-past", key,
                       now, limit)
                .map(row -> new KeyFeed.Targeted(toEntry(row, defaultLocale),
                                                 Audience.stored(Rows.string(row, "audience"))))
                .toList();
    }

    /**
     * The language of the project's notifications that name none, and of answers to readers who name none it has. A
     * tag that is not a canonical one was written past the management API: the default of migration 21 stands in.
     */
    String defaultLocale(ApiKey key) {
        return db.execute().namedGet("select-project-default-locale", key.projectId())
                .map(FeedStore::defaultLocale)
                .orElse(FALLBACK_LOCALE);
    }

    /** A row's {@code default_locale}, as {@link #defaultLocale(ApiKey)} reads it (no row: migration 21's default). */
    static String defaultLocale(DbRow row) {
        String stored = row == null ? null : Rows.string(row, "default_locale");
        return LanguageTag.parseStored(stored).filter(tag -> tag.equals(stored)).orElse(FALLBACK_LOCALE);
    }

    private Stream<DbRow> visible(String statement, ApiKey key, long now, int limit) {
        return db.execute().createNamedQuery(statement)
                .addParam("projectId", key.projectId())
                .addParam("now", now)
                .addParam("showFuture", key.showFuture())
                .addParam("limit", limit)
                .execute();
    }

    /**
     * The first instant after {@code now} at which time alone changes what the key sees, or {@link Long#MAX_VALUE}:
     * without showFuture, a future notification appears when it starts; without showPast, a current one is gone
     * one millisecond after it ends (the bounds are inclusive: docs/api.md, GET /api/v1/public/{apiKey}/notifications,
     * rule 2).
     */
    long nextChange(ApiKey key, long now) {
        long next = Long.MAX_VALUE;
        if (!key.showFuture()) {
            next = Math.min(next, nextInstant("select-next-feed-start", key, now).orElse(Long.MAX_VALUE));
        }
        if (!key.showPast()) {
            next = Math.min(next, nextInstant("select-next-feed-end", key, now).map(end -> end + 1).orElse(Long.MAX_VALUE));
        }
        return next;
    }

    private Optional<Long> nextInstant(String statement, ApiKey key, long now) {
        return db.execute().createNamedGet(statement)
                .addParam("projectId", key.projectId())
                .addParam("now", now)
                .execute()
                .map(row -> Rows.nullableLong(row, "next_at"));
    }

    /**
     * Since migration 10 every message is stored in this form; one that is not was written past the management API,
     * and is served in it all the same.
     */
    private static String served(String id, String stored) {
        String served = ServedMessages.served(stored);
        if (served != stored) {
            long count = NOT_IN_FORM.add(1);
            if (count > 0) {
                LOGGER.log(System.Logger.Level.WARNING, count + " message(s) read outside the content allow-list"
                        + " (the latest: notification " + id + "), served in its form: was the database written past"
                        + " the management API?");
            }
        }
        return served;
    }

    /**
     * A row of the feed's columns (the select-feed-* statements, and those that measure entries), with its languages.
     *
     * @param defaultLocale its language when the row names none (the measuring statements name it), and when the one
     *                      it names is not a canonical tag (written past the management API)
     */
    static FeedEntry toEntry(DbRow row, String defaultLocale) {
        Action action = new Action(Action.Type.valueOf(Rows.string(row, "action_type")),
                                   Rows.string(row, "action_url"),
                                   Rows.string(row, "action_target"),
                                   Rows.string(row, "action_label"));
        String id = Rows.string(row, "id");
        String locale = locale(Rows.string(row, "locale"), defaultLocale);
        return new FeedEntry(id,
                             Rows.string(row, "title"),
                             served(id, Rows.string(row, "message")),
                             Rows.string(row, "image"),
                             Rows.string(row, "image_alt"),
                             action,
                             Rows.string(row, "preset"),
                             Rows.nullableLong(row, "start_at"),
                             Rows.nullableLong(row, "end_at"),
                             Rows.longValue(row, "created_at"),
                             Rows.longValue(row, "seq"),
                             locale,
                             FeedTranslation.parse(Rows.string(row, "translations"), locale));
    }

    /** A row's own language: its {@code locale} when that is a canonical tag, else the project's default. */
    static String locale(String stored, String defaultLocale) {
        if (stored == null) {
            return defaultLocale;
        }
        return LanguageTag.parseStored(stored).filter(stored::equals).orElse(defaultLocale);
    }
}
