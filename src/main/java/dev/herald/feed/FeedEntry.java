package dev.herald.feed;

import dev.herald.notification.Action;

/**
 * One notification as the public feed serves it.
 *
 * @param sequence creation order: breaks ties between equal sort keys, newer first
 */
record FeedEntry(String id,
                 String message,
                 String image,
                 Action action,
                 String preset,
                 Long startAt,
                 Long endAt,
                 long createdAt,
                 long sequence) {
}
