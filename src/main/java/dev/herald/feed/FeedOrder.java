package dev.herald.feed;

import java.util.Comparator;

import dev.herald.apikey.OrderBy;

/**
 * The order of each orderBy setting (docs/api.md, GET /api/v1/public/{apiKey}/notifications, rule 3): a null startDate
 * sorts as the earliest instant, a null endDate as the latest, and ties go to the newer notification so the same data
 * always gives the same answer.
 */
final class FeedOrder {

    private static final Comparator<FeedEntry> NEWER_FIRST = Comparator.comparingLong(FeedEntry::sequence).reversed();
    private static final Comparator<FeedEntry> BY_CREATED = Comparator.comparingLong(FeedEntry::createdAt);
    private static final Comparator<FeedEntry> BY_START =
            Comparator.comparingLong(entry -> entry.startAt() == null ? Long.MIN_VALUE : entry.startAt());
    private static final Comparator<FeedEntry> BY_END =
            Comparator.comparingLong(entry -> entry.endAt() == null ? Long.MAX_VALUE : entry.endAt());

    private FeedOrder() {
    }

    static Comparator<FeedEntry> of(OrderBy orderBy) {
        Comparator<FeedEntry> primary = switch (orderBy) {
            case CREATED_AT_DESC -> BY_CREATED.reversed();
            case CREATED_AT_ASC -> BY_CREATED;
            case START_DATE_ASC -> BY_START;
            case START_DATE_DESC -> BY_START.reversed();
            case END_DATE_ASC -> BY_END;
            case END_DATE_DESC -> BY_END.reversed();
        };
        return primary.thenComparing(NEWER_FIRST);
    }
}
