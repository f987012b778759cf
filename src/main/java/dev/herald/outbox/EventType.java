package dev.herald.outbox;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** What an endpoint may subscribe to (docs/webhooks.md#events-and-payloads), as the API and the payloads spell it. */
public enum EventType {
    NOTIFICATION_CREATED("notification.created"),
    NOTIFICATION_PUBLISHED("notification.published"),
    /**
     * A published or archived one changed without a change of status: its dates and the names of what changed, so a
     * consumer that kept its dates is not left with stale ones (a draft's changes reach nobody: no event).
     */
    NOTIFICATION_UPDATED("notification.updated"),
    /** Back to DRAFT: withdrawn from every feed, which a consumer must learn before it is published again. */
    NOTIFICATION_UNPUBLISHED("notification.unpublished"),
    /** Its start passed while it was published; found by {@link TimePassed}, written once. */
    NOTIFICATION_LIVE("notification.live"),
    /** Its end passed while it was published; found by {@link TimePassed}, written once. */
    NOTIFICATION_ENDED("notification.ended"),
    NOTIFICATION_ARCHIVED("notification.archived"),
    NOTIFICATION_DELETED("notification.deleted"),
    /** A group commit's impressions of one project, many in one event. */
    INTERACTION_IMPRESSION("interaction.impression"),
    INTERACTION_CLICK("interaction.click"),
    INTERACTION_CONVERSION("interaction.conversion"),
    /** Users reached states (seen, read, dismissed, archived) for the first time: many in one event. */
    USER_STATE("user.state");

    private final String wireName;

    EventType(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    public static Optional<EventType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(EventType::wireName).toList();
    }
}
