package dev.herald.api;

import java.io.OutputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonConfig;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriterFactory;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerator;
import jakarta.json.stream.JsonGeneratorFactory;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;

/**
 * The one JSON mapper: JSON-P factories created once, UTF-8 in and out.
 */
public final class Json {

    private static final JsonProvider PROVIDER = JsonProvider.provider();
    private static final JsonBuilderFactory BUILDERS = PROVIDER.createBuilderFactory(Map.of());
    /**
     * Parsson converts no number of more characters (an UnsupportedOperationException, even in a field nobody reads):
     * its default, pinned so that no system property lowers it below what callers count on (identity.UnreadableJson
     * reads up to 1,023 without asking the reader why).
     */
    private static final int LONGEST_NUMBER = 1100;
    private static final String LONGEST_NUMBER_KEY = "org.eclipse.parsson.maxBigDecimalLength";
    /** Duplicate names are refused: a first-wins client would read another value than the one checked here. */
    private static final JsonReaderFactory READERS = PROVIDER.createReaderFactory(
            Map.of(JsonConfig.KEY_STRATEGY, JsonConfig.KeyStrategy.NONE, LONGEST_NUMBER_KEY, LONGEST_NUMBER));
    /** Numbers converted as the readers convert them. */
    private static final JsonParserFactory PARSERS = PROVIDER.createParserFactory(
            Map.of(LONGEST_NUMBER_KEY, LONGEST_NUMBER));
    /**
     * Deeper is refused before parsing. Parsson's own limit (1,000) comes too late on a small stack: with the
     * launcher's {@code -Xss512k} its recursion overflowed the stack first (a 500 and a 1,000-frame trace in the
     * log) until the JIT had compiled it. A rich-text document of lists nested ten deep is about 50 levels.
     */
    public static final int MAX_DEPTH = 128;
    private static final JsonWriterFactory WRITERS = PROVIDER.createWriterFactory(Map.of());
    private static final JsonGeneratorFactory GENERATORS = PROVIDER.createGeneratorFactory(Map.of());

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Json() {
    }

    public static JsonBuilderFactory builders() {
        return BUILDERS;
    }

    /** Compact serialization of a JSON value. */
    public static String write(JsonValue value) {
        StringWriter out = new StringWriter();
        try (var writer = WRITERS.createWriter(out)) {
            writer.write(value);
        }
        return out.toString();
    }

    /**
     * {@code json}, a JSON text, with U+0085, U+2028 and U+2029 written as their escapes: the same value, but a line
     * that a loader splitting by Unicode's line breaks (Python's {@code str.splitlines}) does not cut in two. JSON
     * allows them raw only inside strings, where an escape means the same; the writer leaves them raw. The text itself
     * when it has none.
     */
    public static String oneLine(String json) {
        StringBuilder escaped = null;
        int run = 0;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (c != '\u0085' && c != '\u2028' && c != '\u2029') {
                continue;
            }
            if (escaped == null) {
                escaped = new StringBuilder(json.length() + 12);
            }
            escaped.append(json, run, i).append(c == '\u0085' ? "\\u0085" : c == '\u2028' ? "\\u2028" : "\\u2029");
            run = i + 1;
        }
        return escaped == null ? json : escaped.append(json, run, json.length()).toString();
    }

    /**
     * Appends {@code text} as a JSON string, escaped as this module's writer escapes it (the quote, the backslash and
     * control characters; nothing else): for a hot path that writes a few known fields itself rather than building a
     * tree to write it.
     */
    public static StringBuilder appendString(StringBuilder json, String text) {
        json.append('"');
        // Runs without an escape are copied whole: a character at a time showed in a webhook sender's profile (JFR).
        int run = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            json.append(text, run, i);
            run = i + 1;
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\b' -> json.append("\\b");
                case '\f' -> json.append("\\f");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> json.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
        }
        return json.append(text, run, text.length()).append('"');
    }

    /** A streaming writer of UTF-8 JSON, for answers large enough that building a tree first would cost. */
    public static JsonGenerator generator(OutputStream out) {
        return GENERATORS.createGenerator(out, StandardCharsets.UTF_8);
    }

    public static byte[] bytes(JsonStructure value) {
        return write(value).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses bytes that must hold exactly one JSON object in strict UTF-8, at most {@link #MAX_DEPTH} deep, with
     * no name twice in one object.
     *
     * @return the object, or empty when the bytes are no such object (empty, malformed, another value, anything
     *         but white space after it, too deep, a duplicate name)
     */
    public static Optional<JsonObject> parseObject(byte[] utf8) {
        // JsonReader stops after the first value and ignores what follows: the scan sees it.
        if (!isOneObjectWithin(utf8, MAX_DEPTH)) {
            return Optional.empty();
        }
        Optional<String> text = strictUtf8(utf8);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try (JsonReader reader = READERS.createReader(new StringReader(text.get()))) {
            return Optional.of(reader.readObject());
        } catch (RuntimeException e) {
            // Everything the reader throws here comes from the bytes: besides JsonException (decoding failures
            // and duplicate names included), an UnsupportedOperationException for a number over LONGEST_NUMBER
            // characters and a NumberFormatException for one whose exponent BigDecimal cannot hold (0e99999999999).
            return Optional.empty();
        }
    }

    /**
     * The events of JSON text, its numbers converted as {@link #parseObject} converts them: for telling where text it
     * refuses goes wrong. It refuses no name twice itself, and converts a number only when asked.
     */
    public static JsonParser parser(String text) {
        return PARSERS.createParser(new StringReader(text));
    }

    /**
     * A request's body, as {@link #parseObject}, and no escaped surrogate left unpaired ({@code "\\ud800"}): JSON's
     * syntax takes one (RFC 8259 §8.2), but it is no character, so what the database kept differed from what Herald
     * answered ({@code ?} in one, another character in the other) and from what a client's next read would find.
     * Only a body with an escape is walked; strict UTF-8 itself never decodes to a lone surrogate.
     */
    public static Optional<JsonObject> parseRequestObject(byte[] utf8) {
        return parseObject(utf8).filter(object -> !hasEscape(utf8) || isWellFormed(object));
    }

    private static boolean hasEscape(byte[] utf8) {
        for (int i = 0; i + 1 < utf8.length; i++) {
            if (utf8[i] == '\\' && utf8[i + 1] == 'u') {
                return true;
            }
        }
        return false;
    }

    private static boolean isWellFormed(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> isWellFormed(((JsonString) value).getString());
            case ARRAY -> value.asJsonArray().stream().allMatch(Json::isWellFormed);
            case OBJECT -> value.asJsonObject().entrySet().stream()
                    .allMatch(member -> isWellFormed(member.getKey()) && isWellFormed(member.getValue()));
            default -> true;
        };
    }

    /** No surrogate without its pair. */
    public static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The structure only, in one pass over the bytes (UTF-8 never holds an ASCII byte inside a longer character):
     * an object first, nesting within {@code maxDepth}, nothing but JSON white space after the object closes.
     * The reader checks everything else, so this can only refuse, never let through what the reader would not.
     */
    public static boolean isOneObjectWithin(byte[] json, int maxDepth) {
        int end = objectEnd(json, 0, maxDepth);
        return end >= 0 && isWhiteSpaceFrom(json, end);
    }

    /**
     * The structure only, as {@link #isOneObjectWithin}, of the bytes from {@code from}: where the object that opens
     * them (after JSON white space) closes, the index after its brace, whatever comes after that; -1 when no object
     * opens them, or it nests deeper than {@code maxDepth}, or it never closes. The scan is a loop, not a recursion.
     */
    public static int objectEnd(byte[] json, int from, int maxDepth) {
        int at = skipWhiteSpace(json, from);
        if (at == json.length || json[at] != '{') {
            return -1;
        }
        int depth = 0;
        boolean inString = false;
        for (; at < json.length; at++) {
            byte b = json[at];
            if (inString) {
                if (b == '\\') {
                    at++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > maxDepth) {
                    return -1;
                }
            } else if ((b == '}' || b == ']') && --depth == 0) {
                return at + 1;
            }
        }
        return -1;
    }

    /** Whether nothing but JSON white space follows {@code from}. */
    public static boolean isWhiteSpaceFrom(byte[] json, int from) {
        return skipWhiteSpace(json, from) == json.length;
    }

    private static int skipWhiteSpace(byte[] json, int from) {
        int at = from;
        while (at < json.length && (json[at] == ' ' || json[at] == '\t' || json[at] == '\n' || json[at] == '\r')) {
            at++;
        }
        return at;
    }

    /** Whether bytes are UTF-8 text as {@link #parseObject} reads it: no byte or sequence its decoder would replace. */
    public static boolean isStrictUtf8(byte[] bytes) {
        return strictUtf8(bytes).isPresent();
    }

    /**
     * Malformed UTF-8 must fail parsing rather than turn into replacement characters that would be stored. Decoded
     * whole, not through an {@code InputStreamReader}: that one allocates an 8 KB buffer for every body, a tracking
     * click's 16 bytes included (its constructor alone was 3.5 % of the tracking path's CPU samples, JFR).
     */
    private static Optional<String> strictUtf8(byte[] utf8) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                                       .onMalformedInput(CodingErrorAction.REPORT)
                                       .onUnmappableCharacter(CodingErrorAction.REPORT)
                                       .decode(ByteBuffer.wrap(utf8))
                                       .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
