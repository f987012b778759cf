package dev.herald.tracking;

import java.util.Optional;

/**
 * What a client reports (docs/api.md, POST /api/v1/public/track/{notificationId}/enhanced). {@code dismiss} is
 * deliberately absent.
 */
enum InteractionType {
    IMPRESSION("impression"),
    CLICK("click"),
    CONVERSION("conversion");

    private static final InteractionType[] ALL = values();

    private final String wireName;

    InteractionType(String wireName) {
        this.wireName = wireName;
    }

    String wireName() {
        return wireName;
    }

    /**
     * Case-sensitive (docs/api.md, POST /api/v1/public/track/{notificationId}). A loop over a constant array, not a
     * stream over {@code values()}' copy: every tracking request asks (the stream was 0.8 % of its CPU samples, JFR).
     */
    static Optional<InteractionType> fromWireName(String name) {
        for (InteractionType type : ALL) {
            if (type.wireName.equals(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }
}
