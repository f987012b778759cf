package dev.herald.notification;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where a notification stands for its readers, computed as the feed computes it: {@code live} is what a key's feed
 * shows as current, {@code scheduled} its future ({@code showFuture}), {@code ended} its past ({@code showPast}).
 * The management list filters by it ({@code ?state=}).
 */
public enum NotificationState {
    DRAFT,
    SCHEDULED,
    LIVE,
    ENDED,
    ARCHIVED;

    /** The query parameter's values: the names in lower case. */
    public static final List<String> NAMES = Arrays.stream(values()).map(NotificationState::wireName).toList();

    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The state of a notification at {@code now} (epoch milliseconds). */
    public static NotificationState of(Notification notification, long now) {
        return switch (notification.status()) {
            case DRAFT -> DRAFT;
            case ARCHIVED -> ARCHIVED;
            case PUBLISHED -> notification.startAt() != null && notification.startAt() > now ? SCHEDULED
                    : notification.endAt() != null && notification.endAt() < now ? ENDED
                    : LIVE;
        };
    }
}
