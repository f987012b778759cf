package dev.herald.outbox;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

/**
 * One interaction as an event of interactions lists it, in one place for both ways an event gets it: copied as text
 * by a lane that shares its events with other transactions (tracking without batching), and read from its row by the
 * sender (an event of ranges, migration 30). Never the user a token named. Written as text, in the order and escaping
 * of the JSON-P writer, with the metadata as the request's parse wrote it: a tree built and written, and the metadata
 * parsed again, for every interaction cost the tracking commit with an endpoint (bench/webhooks.sh). Its {@code id}
 * is its row's, as the export's rows are keyed (docs/api.md, GET .../export/interactions), so a pipeline that takes both joins them.
 */
public final class InteractionItems {

    /** The item's members' names and punctuation: {@code {"id":,"notificationId":,"type":,...,"metadata":}}. */
    private static final int PUNCTUATION = 83;
    /** The most characters a row's id (a positive {@code long}, unknown until the insert) is written in. */
    private static final int ID = 19;
    /** Two instants as {@link Timestamps#format} writes them, quoted, years beyond four digits included. */
    private static final int INSTANTS = 2 * 32;
    /** The most characters JSON escaping writes for one: {@code \}{@code u0001}. */
    private static final int ESCAPED = 6;

    private InteractionItems() {
    }

    /**
     * @param id       the interaction's row ({@code interactions.seq}), the export's {@code id}
     * @param locale   null is written as the empty string
     * @param metadata a JSON object's text, or null
     */
    public static String item(long id, String notificationId, String type, long occurredAt, long receivedAt,
                              String locale, String metadata) {
        StringBuilder json = new StringBuilder(212 + (metadata == null ? 4 : metadata.length()));
        return append(json, id, notificationId, type, occurredAt, receivedAt, locale, metadata).toString();
    }

    static StringBuilder append(StringBuilder json, long id, String notificationId, String type, long occurredAt,
                                long receivedAt, String locale, String metadata) {
        json.append("{\"id\":").append(id).append(",\"notificationId\":");
        Json.appendString(json, notificationId).append(",\"type\":");
        Json.appendString(json, type).append(",\"occurredAt\":");
        Timestamps.appendQuoted(json, occurredAt).append(",\"receivedAt\":");
        Timestamps.appendQuoted(json, receivedAt).append(",\"locale\":");
        Json.appendString(json, locale == null ? "" : locale).append(",\"metadata\":");
        return json.append(metadata == null ? "null" : metadata).append('}');
    }

    /**
     * At least as many characters as {@link #item} writes, counted without writing it: what an event of ranges is
     * bounded by ({@link Outbox#MAX_EVENT_CHARACTERS}), the lane never writing the text.
     */
    public static long bound(String notificationId, String type, String locale, String metadata) {
        return PUNCTUATION + ID + INSTANTS + 3 * 2 + escaped(notificationId) + escaped(type)
                + (locale == null ? 0 : escaped(locale)) + (metadata == null ? 4 : metadata.length());
    }

    /** The characters {@link Json#appendString} writes for {@code text} between its quotes, at most. */
    private static long escaped(String text) {
        long characters = text.length();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20) {
                characters += ESCAPED - 1;
            } else if (c == '"' || c == '\\') {
                characters++;
            }
        }
        return characters;
    }
}
