package dev.herald.tracking;

import java.util.Arrays;
import java.util.Optional;

/**
 * What a client reports (public-api.md §2.3). {@code dismiss} is deliberately absent.
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

    /** Case-sensitive, as decisions §1 requires. */
    static Optional<InteractionType> fromWireName(String name) {
        return Arrays.stream(values()).filter(type -> type.wireName.equals(name)).findFirst();
    }
}
