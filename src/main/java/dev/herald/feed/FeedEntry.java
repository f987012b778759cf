package dev.herald.feed;

import dev.herald.notification.Action;

/**
 * One notification as the public feed serves it.
 *
 * @param title    null when the notification has none: the answer then leaves the member out
 * @param sequence creation order: breaks ties between equal sort keys, newer first
 */
record FeedEntry(String id,
                 String title,
                 String message,
                 String image,
                 Action action,
                 String preset,
                 Long startAt,
                 Long endAt,
                 long createdAt,
                 long sequence) {
}
