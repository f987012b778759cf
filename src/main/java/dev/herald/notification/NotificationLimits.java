package dev.herald.notification;

import dev.herald.config.ConfigValues;
import dev.herald.feed.FeedBound;

import io.helidon.config.Config;

/**
 * {@code limits.*}: what notifications may cost, in the bytes that memory and the network pay. A message is stored,
 * cached and served as UTF-8, and a feed answer is held in memory whole while it is sent, so both are bounded in
 * bytes and checked when written: an operator can derive the heap that answers need from these two figures and
 * {@code feed.cache.max-bytes}.
 *
 * @param messageBytes the most UTF-8 bytes of a message as stored (a rich-text object: its compact serialization)
 * @param feedBytes    the most bytes of any key's Get Notifications answer ({@link FeedBound})
 */
public record NotificationLimits(int messageBytes, long feedBytes) {

    public static final int DEFAULT_MESSAGE_BYTES = 32 * 1024;

    public NotificationLimits {
        if (messageBytes < 1) {
            throw new IllegalArgumentException("limits.message-bytes must be positive");
        }
        if (feedBytes < 2) {
            throw new IllegalArgumentException("limits.feed-bytes must be at least 2 (an empty answer, [])");
        }
    }

    public static NotificationLimits from(Config limits) {
        return new NotificationLimits(ConfigValues.integer(limits.get("message-bytes"), DEFAULT_MESSAGE_BYTES),
                                      ConfigValues.longInteger(limits.get("feed-bytes"), FeedBound.DEFAULT_MAX_BYTES));
    }

    public FeedBound feedBound() {
        return new FeedBound(feedBytes);
    }
}
