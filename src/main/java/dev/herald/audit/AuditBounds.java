package dev.herald.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

/**
 * What an audit line keeps of the values it tells of (docs/api.md#audit-log), so that every line is at most
 * {@value #LINE_BYTES} bytes as served, whatever was written: a string longer than {@value #WHOLE_VALUE_BYTES} bytes
 * as served (UTF-8, JSON-escaped) is kept as its beginning, its length and its SHA-256, and details still longer than
 * {@value #DETAILS_BYTES} bytes are kept so as a whole. A line held whole messages, before and after: with messages
 * of 32,000 U+0001 (192 KB each once escaped), {@code GET /audit?limit=50}, the console's audit page, ended a process
 * of 80 MB with OutOfMemoryError at every visit. Lines are bounded as they are written, and again as they are read,
 * for those written before.
 */
final class AuditBounds {

    /** An answer holds at most this many bytes of one line. */
    static final int LINE_BYTES = 16 * 1024;
    /** A string up to this long as served is kept whole: a name, a URL, a short message. */
    static final int WHOLE_VALUE_BYTES = 1024;
    /** The beginning kept of a longer one, as served. */
    static final int EXCERPT_BYTES = 256;
    /**
     * Details up to this long, once their strings are cut, are kept as they are; the rest of a line (time, actor,
     * action, ids: columns of at most 100 characters) takes less than {@code LINE_BYTES} minus this.
     */
    static final int DETAILS_BYTES = 12 * 1024;

    private AuditBounds() {
    }

    /** The details as a line keeps them: each long string cut, and the whole cut if still too long. */
    static JsonObject details(JsonObject details) {
        JsonObject kept = (JsonObject) bounded(details);
        if (Json.write(kept).getBytes(StandardCharsets.UTF_8).length <= DETAILS_BYTES) {
            return kept;
        }
        return excerpt(Json.write(details));
    }

    /** Details stored in a form that cannot be read as a JSON object: kept as text, cut. */
    static JsonObject unreadable(String stored) {
        return excerpt(stored);
    }

    private static JsonValue bounded(JsonValue value) {
        return switch (value) {
            case JsonString text -> text.getString().length() <= WHOLE_VALUE_BYTES / 6
                    || servedBytes(text.getString()) <= WHOLE_VALUE_BYTES ? text : excerpt(text.getString());
            case JsonObject object -> {
                JsonObjectBuilder kept = Json.builders().createObjectBuilder();
                for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                    kept.add(member.getKey(), bounded(member.getValue()));
                }
                yield kept.build();
            }
            case JsonArray array -> {
                JsonArrayBuilder kept = Json.builders().createArrayBuilder();
                array.forEach(item -> kept.add(bounded(item)));
                yield kept.build();
            }
            default -> value;
        };
    }

    /**
     * {@code {"excerpt":…,"bytes":…,"sha256":…}}: the beginning of the text, at most {@value #EXCERPT_BYTES} bytes as
     * served and cut between characters; its length in bytes of UTF-8; the SHA-256 of those bytes, in hex, which
     * tells two values apart (or the same) where their beginnings agree.
     */
    static JsonObject excerpt(String text) {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        int end = 0;
        int served = 0;
        while (end < text.length()) {
            int codePoint = text.codePointAt(end);
            served += servedBytes(codePoint);
            if (served > EXCERPT_BYTES) {
                break;
            }
            end += Character.charCount(codePoint);
        }
        return Json.builders().createObjectBuilder()
                .add("excerpt", text.substring(0, end))
                .add("bytes", utf8.length)
                .add("sha256", HexFormat.of().formatHex(sha256(utf8)))
                .build();
    }

    /** The bytes of the text in a JSON answer: UTF-8, with {@code "}, {@code \} and control characters escaped. */
    static long servedBytes(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            bytes += servedBytes(codePoint);
            i += Character.charCount(codePoint);
        }
        return bytes;
    }

    private static int servedBytes(int codePoint) {
        if (codePoint == '"' || codePoint == '\\' || codePoint == '\b' || codePoint == '\f' || codePoint == '\n'
                || codePoint == '\r' || codePoint == '\t') {
            return 2;
        }
        if (codePoint < 0x20) {
            return 6;
        }
        // A lone surrogate is written as '?', one byte.
        return codePoint < 0x80 || Character.isSurrogate((char) codePoint) ? 1
                : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform has SHA-256", e);
        }
    }
}
