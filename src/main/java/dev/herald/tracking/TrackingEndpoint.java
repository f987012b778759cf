package dev.herald.tracking;

import java.util.EnumSet;
import java.util.Set;

/**
 * The two tracking endpoints: which types each accepts, and the name stored with each interaction it records.
 */
enum TrackingEndpoint {
    SIMPLE("simple", EnumSet.of(InteractionType.IMPRESSION, InteractionType.CLICK)),
    ENHANCED("enhanced", EnumSet.allOf(InteractionType.class));

    private final String storedName;
    private final Set<InteractionType> acceptedTypes;

    TrackingEndpoint(String storedName, Set<InteractionType> acceptedTypes) {
        this.storedName = storedName;
        this.acceptedTypes = acceptedTypes;
    }

    String storedName() {
        return storedName;
    }

    boolean accepts(InteractionType type) {
        return acceptedTypes.contains(type);
    }
}
