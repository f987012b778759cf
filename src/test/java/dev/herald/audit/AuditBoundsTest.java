package dev.herald.audit;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import dev.herald.api.Json;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * docs/api.md#audit-log: whatever details a write (or a row of an older version) holds, a line as served is at most
 * 16 KiB; a value up to 1 KiB as served stays whole, a longer one is its beginning, length and digest.
 */
class AuditBoundsTest {

    /** What costs most once escaped, what is cut badly, and plain text. */
    private static final String[] PIECES = {"a", "\"", "\\", "\u0001", "\n", "é", "€", "\uD83D\uDE00", "\uD800",
                                            "<", "\u2028"};

    @Test
    void everyLineOfGeneratedDetailsIsAtMost16KiBWithTheLongestColumns() {
        Random random = new Random(29);
        for (int i = 0; i < 200; i++) {
            JsonObject details = object(random, 0);
            JsonObject kept = AuditBounds.details(details);
            assertThat(bytes(kept), lessThanOrEqualTo((long) AuditBounds.DETAILS_BYTES));
            // The columns at their widths (VARCHAR 100, 40, 64, 20, 64), in the dearest character to escape.
            AuditEntry line = new AuditEntry(Long.MAX_VALUE, Long.MAX_VALUE / 1000, "\u0001".repeat(100),
                                             "\u0001".repeat(40), "\u0001".repeat(64), "\u0001".repeat(20),
                                             "\u0001".repeat(64), kept);
            // The names at their longest: a project's name, a message's first words.
            AuditLog.Named named = new AuditLog.Named(line, "\u0001".repeat(200),
                                                      "\u0001".repeat(AuditLog.LABEL_CHARACTERS + 1));
            assertThat(bytes(AuditService.json(named)), lessThanOrEqualTo((long) AuditBounds.LINE_BYTES));
        }
    }

    @Test
    void aValueUpTo1KiBAsServedStaysWholeALongerOneIsCutBetweenCharacters() {
        String whole = "\"".repeat(512);
        String longer = whole + "x";
        JsonObject kept = AuditBounds.details(Json.builders().createObjectBuilder()
                .add("whole", whole).add("longer", longer).add("emoji", "\uD83D\uDE00".repeat(257)).build());
        assertThat(kept.getString("whole"), is(whole));
        assertThat(kept.getJsonObject("longer").getString("excerpt"), is("\"".repeat(128)));
        assertThat(kept.getJsonObject("longer").getInt("bytes"), is(513));
        assertThat(kept.getJsonObject("longer").getString("sha256"),
                   is(dev.herald.support.Tokens.sha256(longer)));
        assertThat(kept.getJsonObject("emoji").getString("excerpt"), is("\uD83D\uDE00".repeat(64)));
    }

    @Test
    void detailsTooLongOnceCutAreKeptAsAWhole() {
        JsonArrayBuilder many = Json.builders().createArrayBuilder();
        for (int i = 0; i < 100; i++) {
            many.add("x".repeat(1_000));
        }
        JsonObject details = Json.builders().createObjectBuilder().add("many", many).build();
        JsonObject kept = AuditBounds.details(details);
        assertThat(kept.getString("excerpt"), is("{\"many\":[\"" + "x".repeat(243)));
        assertThat(kept.getInt("bytes"), is(Json.write(details).getBytes(StandardCharsets.UTF_8).length));
    }

    private static JsonObject object(Random random, int depth) {
        JsonObjectBuilder object = Json.builders().createObjectBuilder();
        int members = random.nextInt(depth == 0 ? 12 : 4);
        for (int i = 0; i < members; i++) {
            object.add("m" + i, value(random, depth + 1));
        }
        return object.build();
    }

    private static JsonValue value(Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 2 : 4);
        return switch (kind) {
            case 0 -> jakarta.json.Json.createValue(text(random));
            case 1 -> random.nextBoolean() ? JsonValue.NULL : jakarta.json.Json.createValue(random.nextLong());
            case 2 -> object(random, depth);
            default -> {
                // Many short values, or a few of any kind.
                JsonArrayBuilder array = Json.builders().createArrayBuilder();
                boolean many = random.nextBoolean();
                for (int i = random.nextInt(many ? 300 : 5); i > 0; i--) {
                    array.add(many ? jakarta.json.Json.createValue("item " + i)
                                   : value(random, depth + 1));
                }
                yield array.build();
            }
        };
    }

    private static String text(Random random) {
        int length = random.nextInt(random.nextBoolean() ? 40 : 6_000);
        StringBuilder text = new StringBuilder();
        String piece = PIECES[random.nextInt(PIECES.length)];
        for (int i = 0; i < length; i++) {
            if (random.nextInt(8) == 0) {
                piece = PIECES[random.nextInt(PIECES.length)];
            }
            text.append(piece);
        }
        return text.toString();
    }

    private static long bytes(JsonValue value) {
        return value instanceof JsonString text ? AuditBounds.servedBytes(text.getString())
                : Json.write(value).getBytes(StandardCharsets.UTF_8).length;
    }
}
