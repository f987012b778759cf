package dev.herald.stats;

import jakarta.json.JsonObjectBuilder;
import jakarta.json.stream.JsonGenerator;

/**
 * Interactions counted by type.
 */
record Counts(long impression, long click, long conversion) {

    static final Counts NONE = new Counts(0, 0, 0);

    Counts plus(String type, long count) {
        return switch (type) {
            case "impression" -> new Counts(impression + count, click, conversion);
            case "click" -> new Counts(impression, click + count, conversion);
            case "conversion" -> new Counts(impression, click, conversion + count);
            default -> this;
        };
    }

    Counts plus(Counts other) {
        return new Counts(impression + other.impression, click + other.click, conversion + other.conversion);
    }

    /** Click / impression, unrounded, 0 without impressions (docs/api.md#stats). */
    double ctr() {
        return impression == 0 ? 0 : (double) click / impression;
    }

    /** Writes the three counts as members of the object the generator is in, as {@link #addTo} adds them. */
    JsonGenerator writeTo(JsonGenerator json) {
        return json.write("impression", impression)
                .write("click", click)
                .write("conversion", conversion);
    }

    /** Adds the three counts to a JSON object. */
    JsonObjectBuilder addTo(JsonObjectBuilder json) {
        return json.add("impression", impression)
                .add("click", click)
                .add("conversion", conversion);
    }
}
