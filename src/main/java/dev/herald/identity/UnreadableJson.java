package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

import dev.herald.api.Json;

import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParsingException;

/**
 * The first thing in a token part's JSON (UTF-8, one object by its structure) that one of Herald's two readers cannot
 * read, and where, found by reading it again event by event as the strict one ({@link Json#parseObject}) reads it.
 * That one refuses the part whole, saying nothing of why, and every refusal of it was told as a member named twice:
 * {@code 0e99999999999} (an exponent BigDecimal cannot hold), a number longer than Parsson converts (an outside
 * test). Nimbus fails on a number beyond the range of a double or longer than it reads, and its failure names nothing.
 *
 * @param cause     what is wrong
 * @param path      where, as {@code attrs.seats} or {@code list[2]}; empty for what is no JSON
 * @param character for what is no JSON, the character where it goes wrong (the first is 1); 0 otherwise
 */
record UnreadableJson(Cause cause, String path, int character) {

    /**
     * The most characters of a number Nimbus reads: its JSON parser (Gson's) gives up on one that fills its buffer of
     * 1,024, in any claim, where Herald's strict parser converts up to 1,100. Past 1,100 both refused it, told "one
     * JSON object naming each member once"; in between Nimbus alone did, told as claims of the wrong types.
     */
    static final int LONGEST_NUMBER = 1023;

    enum Cause {
        /** What JSON's syntax does not take (RFC 8259): single quotes, NaN, a trailing comma, a comment. */
        NOT_JSON,
        TWICE,
        /** More than {@link #LONGEST_NUMBER} characters. */
        NUMBER_TOO_LONG,
        /** An exponent beyond what BigDecimal holds (an int), of a number that is not infinite as a double. */
        EXPONENT_OUT_OF_RANGE,
        BEYOND_DOUBLE
    }

    /** @param utf8 strict UTF-8 */
    static Optional<UnreadableJson> find(byte[] utf8) {
        String text = new String(utf8, StandardCharsets.UTF_8);
        Deque<Level> open = new ArrayDeque<>();
        String member = "";
        try (JsonParser parser = Json.parser(text)) {
            while (parser.hasNext()) {
                JsonParser.Event event = parser.next();
                if (event == JsonParser.Event.KEY_NAME) {
                    member = open.element().member(parser.getString());
                    if (!open.element().names.add(parser.getString())) {
                        return Optional.of(new UnreadableJson(Cause.TWICE, member, 0));
                    }
                    continue;
                }
                if (event == JsonParser.Event.END_OBJECT || event == JsonParser.Event.END_ARRAY) {
                    open.pop();
                    if (open.isEmpty()) {
                        // Only the part's own object: what follows it is refused before (TokenPart).
                        break;
                    }
                    continue;
                }
                String path = open.isEmpty() ? "" : open.element().names == null ? open.element().item() : member;
                switch (event) {
                    case START_OBJECT -> open.push(new Level(path, new HashSet<>()));
                    case START_ARRAY -> open.push(new Level(path, null));
                    case VALUE_NUMBER -> {
                        Optional<Cause> unreadable = number(parser);
                        if (unreadable.isPresent()) {
                            return Optional.of(new UnreadableJson(unreadable.get(), path, 0));
                        }
                    }
                    default -> {
                    }
                }
            }
        } catch (JsonParsingException e) {
            int at = (int) Math.min(Math.max(e.getLocation().getStreamOffset(), 0), text.length());
            return Optional.of(new UnreadableJson(Cause.NOT_JSON, "", text.codePointCount(0, at) + 1));
        }
        return Optional.empty();
    }

    /** The number the parser is at, converted as the strict reader converts it, and as a double as Nimbus reads it. */
    private static Optional<Cause> number(JsonParser parser) {
        if (parser.getString().length() > LONGEST_NUMBER) {
            return Optional.of(Cause.NUMBER_TOO_LONG);
        }
        try {
            return Double.isInfinite(parser.getBigDecimal().doubleValue()) ? Optional.of(Cause.BEYOND_DOUBLE)
                    : Optional.empty();
        } catch (NumberFormatException e) {
            // Nimbus reads 1e99999999999 as infinite, and refuses it as 1e400; 0e99999999999 as 0, which it takes.
            return Optional.of(Double.isInfinite(Double.parseDouble(parser.getString())) ? Cause.BEYOND_DOUBLE
                                       : Cause.EXPONENT_OUT_OF_RANGE);
        }
    }

    /** An object or array being read: its path, and the names read in it (an object) or the next item's index. */
    private static final class Level {

        private final String path;
        private final Set<String> names;
        private int items;

        Level(String path, Set<String> names) {
            this.path = path;
            this.names = names;
        }

        String member(String name) {
            return path.isEmpty() ? name : path + "." + name;
        }

        String item() {
            return path + "[" + items++ + "]";
        }
    }
}
