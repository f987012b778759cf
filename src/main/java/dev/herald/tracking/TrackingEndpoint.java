package dev.herald.tracking;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The two tracking endpoints: which types each accepts, and the name stored with each interaction it records.
 */
enum TrackingEndpoint {
    SIMPLE("simple", EnumSet.of(InteractionType.IMPRESSION, InteractionType.CLICK)),
    ENHANCED("enhanced", EnumSet.allOf(InteractionType.class));

    private final String storedName;
    private final Set<InteractionType> acceptedTypes;
    private final List<String> acceptedWireNames;

    TrackingEndpoint(String storedName, Set<InteractionType> acceptedTypes) {
        this.storedName = storedName;
        this.acceptedTypes = acceptedTypes;
        // An EnumSet iterates in declaration order: impression, click, conversion, as the public API lists them.
        this.acceptedWireNames = acceptedTypes.stream().map(InteractionType::wireName).toList();
    }

    String storedName() {
        return storedName;
    }

    boolean accepts(InteractionType type) {
        return acceptedTypes.contains(type);
    }

    /** The wire names of the types this endpoint takes, for an answer that refuses another. */
    List<String> acceptedTypes() {
        return acceptedWireNames;
    }
}
