package dev.herald.feed;

import java.util.Locale;
import java.util.Map;

import dev.herald.api.ApiException;
import dev.herald.locale.LanguageTag;
import dev.herald.notification.Action;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.notification.Translation;
import dev.herald.notification.Translations;
import dev.herald.storage.Rows;

import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;
import io.helidon.dbclient.DbStatementGet;
import io.helidon.http.Status;

/**
 * {@code limits.feed-bytes}: no Get Notifications answer may be larger, and this is kept when notifications are
 * written, not when answers are built (an answer once built must be served; memory is what the bound protects).
 *
 * <p>Any key's answer holds at most the 1000 newest of its project's published notifications, so its size is at most
 * the brackets and commas of 1000 entries plus the 1000 largest published entries: that bound holds for every key,
 * whatever its showPast, showFuture and orderBy, and at any time. Each notification's entry size is stored with it
 * ({@code feed_bytes}), measured by {@link FeedJson} as it writes the entry, so the bound counts what the message
 * costs once escaped (a serialized document's every quote takes two bytes, a control character six) and is read from
 * an index, not from the messages. A notification with translations counts as its largest language, each with the
 * {@code locale} member an answer in another language gives it ({@link #entryBytes}), so the bound holds for
 * every language a reader may be served.
 *
 * <p>Ended notifications count only for projects with an active key that shows the past ({@code showPast}): for the
 * others no answer holds them, now or later, since an ended notification stays ended. A year of expired
 * announcements otherwise stopped a project from publishing ({@code 409} for a feed of 1 MB while every key's feed
 * was {@code []}). A key write that makes a project show its past is checked the same way.
 */
public final class FeedBound {

    public static final long DEFAULT_MAX_BYTES = 1024 * 1024;

    private final long maxBytes;

    /** @param maxBytes {@code limits.feed-bytes}, checked by {@code NotificationLimits} */
    public FeedBound(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * {@code ,"locale":""}: what an entry gains, besides its tag, in an answer served in another language than its
     * own (docs/api.md#languages).
     */
    static final int LOCALE_MEMBER_BYTES = ",\"locale\":\"\"".length();

    /**
     * The most bytes the notification takes in a feed answer (its object, without the comma before it): the largest
     * of its languages' entries, each with the {@code locale} member an answer in another language gives it. A
     * notification that follows its project's default counts the longest tag that default may become, so that a
     * change of default leaves every stored size an upper bound.
     */
    public static int entryBytes(Notification notification) {
        int own = entryBytes(notification, notification.title(), notification.message(), notification.image(),
                             notification.imageAlt(), notification.action())
                + localeBytes(notification.locale() == null ? LanguageTag.MAX_LENGTH : notification.locale().length());
        int most = own;
        for (Map.Entry<String, Translation> language : notification.translations().entrySet()) {
            Translation served = language.getValue().over(notification);
            if (served.message() != null) {
                most = Math.max(most, entryBytes(notification, served.title(), served.message(), served.image(),
                                                 served.imageAlt(), served.action())
                        + localeBytes(language.getKey().length()));
            }
        }
        return most;
    }

    private static int entryBytes(Notification notification, String title, String message, String image,
                                  String imageAlt, Action action) {
        return FeedJson.entryBytes(new FeedEntry(notification.id(), title, message, image, imageAlt, action,
                                                 notification.preset(), notification.startAt(), notification.endAt(),
                                                 notification.createdAt(), 0));
    }

    private static int localeBytes(int tagLength) {
        return LOCALE_MEMBER_BYTES + tagLength;
    }

    /**
     * First in a write's transaction: the project's writes wait for each other from here until commit, so the
     * bound that {@link #require} reads after the write already counts every write committed before it.
     */
    public void lockProject(DbExecute transaction, String projectId) {
        transaction.namedGet("lock-project", projectId);
    }

    /**
     * Whether an update makes the project's answers larger: it leaves the notification published and larger than the
     * stored one, or publishes it. Read in the update's transaction, after {@link #lockProject}: what the caller read
     * before may be stale, and a write that grows the feed must not pass as one that shrinks it.
     *
     * @param entryBytes the updated notification's {@link #entryBytes}
     */
    public boolean grows(DbExecute transaction, Notification updated, int entryBytes) {
        if (!NotificationStatus.PUBLISHED.equals(updated.status())) {
            return false;
        }
        long now = updated.updatedAt();
        return transaction.namedGet("select-notification-feed-bytes", updated.id())
                .map(stored -> !NotificationStatus.PUBLISHED.name().equals(Rows.string(stored, "status"))
                        || storedEntryBytes(transaction, stored) < entryBytes
                        || isEnded(Rows.nullableLong(stored, "end_at"), now) && !isEnded(updated.endAt(), now))
                .orElse(false);
    }

    private static boolean isEnded(Long endAt, long now) {
        return endAt != null && endAt < now;
    }

    /**
     * After a write that may make the project's answers larger, in its transaction and with the project locked:
     * refuses it (the transaction rolls back) when the bound would exceed the limit.
     *
     * @throws ApiException 409 FEED_TOO_LARGE
     */
    public void require(DbExecute transaction, String projectId, long now) {
        measureUnmeasured(transaction, projectId);
        boolean showsPast = transaction.namedGet("count-project-keys-showing-past", projectId)
                .map(row -> Rows.longValue(row, "keys_showing_past") > 0)
                .orElse(false);
        DbStatementGet statement = transaction
                .createNamedGet(showsPast ? "select-feed-bound" : "select-feed-bound-without-past")
                .addParam("projectId", projectId)
                .addParam("limit", PublicFeedService.MAX_NOTIFICATIONS);
        if (!showsPast) {
            statement.addParam("now", now);
        }
        DbRow bound = statement.execute().orElseThrow();
        long bytes = FeedJson.answerBytes(Rows.longValue(bound, "entries"), Rows.longValue(bound, "entry_bytes"));
        if (bytes > maxBytes) {
            throw ApiException.error(Status.CONFLICT_409, "FEED_TOO_LARGE", String.format(
                    Locale.ROOT, "The project's published notifications would make a feed of %,d bytes%s; the limit"
                            + " is %,d (limits.feed-bytes)%s", bytes,
                    showsPast ? " for a key that shows past ones" : "", maxBytes,
                    showsPast ? ". Archive ended ones (POST /api/v1/admin/projects/" + projectId
                            + "/notifications/archive?state=ended), or leave showPast off" : ""));
        }
    }

    /** The stored size, or for a row that has none yet (written before sizes were, or by hand) its measure. */
    private static long storedEntryBytes(DbExecute transaction, DbRow stored) {
        Long bytes = Rows.nullableLong(stored, "feed_bytes");
        if (bytes != null) {
            return bytes;
        }
        return transaction.namedGet("select-feed-entry", Rows.string(stored, "id"))
                .map(FeedBound::measure)
                .orElse(0);
    }

    /** Published rows that have no size yet: written before sizes were stored, or by hand. */
    private static void measureUnmeasured(DbExecute transaction, String projectId) {
        transaction.createNamedQuery("select-unmeasured-feed-entries")
                .addParam("projectId", projectId)
                .execute()
                .toList()
                .forEach(row -> transaction.createNamedUpdate("update-feed-bytes")
                        .addParam("feedBytes", measure(row))
                        .addParam("seq", Rows.longValue(row, "seq"))
                        .execute());
    }

    /** A row of select-feed-entry's columns measured as {@link #entryBytes} measures a notification as written. */
    private static int measure(DbRow row) {
        FeedEntry entry = FeedStore.toEntry(row, FeedStore.defaultLocale(row));
        return entryBytes(new Notification(entry.id(), "", NotificationStatus.PUBLISHED, entry.title(),
                                           entry.message(), entry.image(), entry.imageAlt(), entry.action(),
                                           entry.preset(), entry.startAt(), entry.endAt(), entry.createdAt(), 0, null,
                                           Rows.string(row, "locale"),
                                           Translations.parseStored(Rows.string(row, "translations")), null));
    }
}
