package dev.herald.export;

import java.util.List;

import jakarta.json.JsonObject;

/**
 * One row of an export, as each format writes it.
 *
 * @param <P> a place in its kind's order
 */
interface ExportedRow<P> {

    /** Where it stands in the export's order: the cursor after it. */
    P position();

    /** Its NDJSON line's object. */
    JsonObject json();

    /** Its CSV cells, in the order of its kind's columns; null for an empty cell. */
    List<String> cells();

    /**
     * Whether its cell at {@code index} holds text a client wrote (a locale, metadata), which CSV guards against a
     * spreadsheet's formulas. What Herald made (ids, types, instants, numbers) never is: an id changed by the guard
     * (a base64url id starts with "-" one time in 64) would join nothing.
     */
    default boolean isClientText(int index) {
        return false;
    }
}
