package dev.herald.feed;

import java.io.ByteArrayOutputStream;
import java.util.List;

import dev.herald.api.ByteCount;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.notification.Action;

import jakarta.json.stream.JsonGenerator;

/**
 * A notification as Get Notifications answers it (docs/api.md, GET /api/v1/public/{apiKey}/notifications): every field
 * always present, null as JSON null, but {@code title}, a link's {@code label} and {@code locale}, present only when
 * set; nothing else. Streamed straight to bytes: the feed is the hottest answer, and building an object tree first
 * doubled its cost. An answer of n entries is {@code 2 + (n - 1)} bytes of brackets and commas plus its entries'
 * bytes, each at most its {@link FeedBound#entryBytes}: {@link FeedBound} keeps the sum within {@code limits.feed-bytes}, so a
 * change of shape here changes the sizes stored with the notifications (a migration must set {@code feed_bytes} to
 * NULL, and they are measured again).
 *
 * <p>An answer is written for one served language (docs/api.md#languages): each entry in its language for it
 * ({@link FeedEntry#languageFor}), with a {@code locale} member right after {@code id} when that is not the served
 * one. Served {@code null}: entries as they are, without the member (languages not known).
 */
final class FeedJson {

    /** About what one notification with a short rich-text message takes. */
    private static final int BYTES_PER_ENTRY = 320;

    private FeedJson() {
    }

    static byte[] bytes(List<FeedEntry> entries) {
        return bytes(entries, null);
    }

    /** The answer of {@code entries} served in {@code served}. */
    static byte[] bytes(List<FeedEntry> entries, String served) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(2 + BYTES_PER_ENTRY * entries.size());
        try (JsonGenerator json = Json.generator(out)) {
            json.writeStartArray();
            entries.forEach(entry -> write(json, entry, served));
            json.writeEnd();
        }
        return out.toByteArray();
    }

    /** One entry's object, exactly as {@link #bytes} writes it in an answer: answers for users are joined from these. */
    static byte[] entry(FeedEntry entry, String served) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(BYTES_PER_ENTRY);
        try (JsonGenerator json = Json.generator(out)) {
            write(json, entry, served);
        }
        return out.toByteArray();
    }

    /** The bytes of the entry's object in its own language, without a {@code locale} member. */
    static int entryBytes(FeedEntry entry) {
        return entryBytes(entry, null);
    }

    private static int entryBytes(FeedEntry text, String member) {
        ByteCount count = new ByteCount();
        try (JsonGenerator json = Json.generator(count)) {
            writeObject(json, text, member);
        }
        return Math.toIntExact(count.bytes());
    }

    /** The size of an answer of {@code entries} objects of {@code entryBytes} bytes in all. */
    static long answerBytes(long entries, long entryBytes) {
        return entries == 0 ? 2 : 2 + entryBytes + (entries - 1);
    }

    private static void write(JsonGenerator json, FeedEntry entry, String served) {
        String language = entry.languageFor(served);
        // Absent where the entry is in the served language: an answer in the project's default language, of
        // notifications in it, is the answer Herald gave before languages, byte for byte.
        writeObject(json, entry.in(language), language == null || language.equals(served) ? null : language);
    }

    /** @param member the {@code locale} member's value, or null for none */
    private static void writeObject(JsonGenerator json, FeedEntry entry, String member) {
        json.writeStartObject().write("id", entry.id());
        if (member != null) {
            json.write("locale", member);
        }
        // Absent, not null, when unset: a feed without titles is the answer it was before titles, byte for byte, so
        // neither a client that predates them nor the feed_bytes stored before migration 15 see a difference.
        if (entry.title() != null) {
            json.write("title", entry.title());
        }
        json.write("message", entry.message());
        writeNullable(json, "image", entry.image());
        // Only with an image it describes, and absent when unset, as the title: feeds stay as they were before it.
        if (entry.image() != null && entry.imageAlt() != null) {
            json.write("imageAlt", entry.imageAlt());
        }
        writeAction(json, entry.action());
        json.write("preset", entry.preset());
        writeNullable(json, "startDate", entry.startAt() == null ? null : Timestamps.format(entry.startAt()));
        writeNullable(json, "endDate", entry.endAt() == null ? null : Timestamps.format(entry.endAt()));
        json.writeEnd();
    }

    private static void writeAction(JsonGenerator json, Action action) {
        json.writeStartObject("action").write("type", action.type().name());
        if (action.type() == Action.Type.LINK) {
            json.writeStartObject("data")
                    .write("url", action.url())
                    .write("target", action.target());
            // Only where set: a notification without a label is served as before labels were (docs/api.md).
            if (action.label() != null) {
                json.write("label", action.label());
            }
            json.writeEnd();
        } else {
            json.writeNull("data");
        }
        json.writeEnd();
    }

    private static void writeNullable(JsonGenerator json, String name, String value) {
        if (value == null) {
            json.writeNull(name);
        } else {
            json.write(name, value);
        }
    }
}
