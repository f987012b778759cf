package dev.herald.web;

import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObject;
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
    private static final JsonParserFactory PARSERS = PROVIDER.createParserFactory(Map.of());
    private static final JsonWriterFactory WRITERS = PROVIDER.createWriterFactory(Map.of());
    private static final JsonGeneratorFactory GENERATORS = PROVIDER.createGeneratorFactory(Map.of());

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

    /** A streaming writer of UTF-8 JSON, for answers large enough that building a tree first would cost. */
    public static JsonGenerator generator(OutputStream out) {
        return GENERATORS.createGenerator(out, StandardCharsets.UTF_8);
    }

    public static byte[] bytes(JsonStructure value) {
        return write(value).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Parses bytes that must hold exactly one JSON object in strict UTF-8.
     *
     * @return the object, or empty when the bytes are no valid JSON object (empty, malformed, another value,
     *         or anything but white space after it)
     */
    public static Optional<JsonObject> parseObject(byte[] utf8) {
        try (JsonParser parser = PARSERS.createParser(strictUtf8(utf8))) {
            if (!parser.hasNext() || parser.next() != JsonParser.Event.START_OBJECT) {
                return Optional.empty();
            }
            JsonObject object = parser.getObject();
            // JsonReader would stop after the first value and ignore what follows; the parser sees it.
            return parser.hasNext() ? Optional.empty() : Optional.of(object);
        } catch (RuntimeException e) {
            // Everything the parser throws here comes from the bytes: besides JsonException (decoding failures
            // included), Parsson 1.1 throws a bare RuntimeException past 1,000 levels of nesting and an
            // UnsupportedOperationException for a number over 1,100 characters, even in a field nobody reads.
            return Optional.empty();
        }
    }

    /** Malformed UTF-8 must fail parsing rather than turn into replacement characters that would be stored. */
    private static Reader strictUtf8(byte[] utf8) {
        var decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        return new InputStreamReader(new ByteArrayInputStream(utf8), decoder);
    }
}
