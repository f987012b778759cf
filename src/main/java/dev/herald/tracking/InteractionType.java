package dev.herald.tracking;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a client reports (docs/api.md, POST /api/v1/public/track/{notificationId}/enhanced). {@code dismiss} is
 * deliberately absent.
 */
enum InteractionType {
    IMPRESSION("impression"),
    CLICK("click"),
    CONVERSION("conversion");

    private final String wireName;

    InteractionType(String wireName) {
        this.wireName = wireName;
    }

    String wireName() {
        return wireName;
    }

    /** Case-sensitive (docs/api.md, POST /api/v1/public/track/{notificationId}). */
    static Optional<InteractionType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }
}
