package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.outbox.InteractionItems;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * An interaction as its webhook event lists it, written as text on the hot path: the very text that building the
 * object with JSON-P and writing it gave, metadata parsed again included, so that consumers see no change.
 */
class InteractionItemTest {

    /** A row's id, as the export writes it. */
    private static final long ID = 4_294_967_311L;

    static List<Interaction> interactions() {
        long at = 1_764_000_000_123L;
        return List.of(
                new Interaction("n1", "p", InteractionType.CLICK, at, at + 5, TrackingEndpoint.SIMPLE, null, null),
                new Interaction("n2", "p", InteractionType.IMPRESSION, at, at, TrackingEndpoint.ENHANCED,
                                written("{\"tag\":\"a\\\"b\\\\c\\n\\u0001\",\"n\":[1,2.5,-3e2,true,null],"
                                        + "\"o\":{\"é\":\"日本語 😀\"}}"), "pt-BR"),
                new Interaction("n3", "p", InteractionType.CONVERSION, 0, Long.MAX_VALUE / 4000,
                                TrackingEndpoint.ENHANCED, written("{}"), "en"));
    }

    @ParameterizedTest
    @MethodSource("interactions")
    void theTextIsWhatJsonPWrote(Interaction interaction) {
        assertThat(InteractionEvents.item(ID, interaction), is(withJsonP(interaction)));
    }

    /**
     * An event of ranges is bounded by its items' characters counted without writing them: never fewer than the
     * text has, escapes included.
     */
    @ParameterizedTest
    @MethodSource("interactions")
    void theBoundIsNeverBelowTheText(Interaction interaction) {
        assertThat(InteractionEvents.item(ID, interaction).length() <= InteractionItems.bound(interaction.notificationId(),
                interaction.type().wireName(), interaction.locale(), interaction.metadata()), is(true));
    }

    /** Close, too, so that an event still holds its 1,000 items: within the width of two instants' longer years. */
    @Test
    void theBoundIsCloseForInstantsOfFourDigitYears() {
        long at = 1_764_000_000_123L;
        Interaction quoted = new Interaction("n\"1\\", "p", InteractionType.CLICK, at, at, TrackingEndpoint.ENHANCED,
                                             "{\"a\":\"\\\"\"}", "de-CH");
        long slack = InteractionItems.bound(quoted.notificationId(), quoted.type().wireName(), quoted.locale(),
                                            quoted.metadata())
                - InteractionEvents.item(Long.MAX_VALUE, quoted).length();
        assertThat(slack >= 0 && slack <= 16, is(true));
    }

    /** Names, types and languages made of characters JSON escapes six times as wide, at their longest. */
    @Test
    void theBoundHoldsForCharactersThatEscapeWidest() {
        String escaped = "\u0001".repeat(64);
        Interaction widest = new Interaction("\u0002".repeat(64), "p", InteractionType.CONVERSION, Long.MIN_VALUE / 4,
                                             Long.MAX_VALUE / 4, TrackingEndpoint.ENHANCED, null, escaped);
        assertThat(InteractionEvents.item(Long.MAX_VALUE, widest).length() <= InteractionItems.bound(widest.notificationId(),
                widest.type().wireName(), widest.locale(), widest.metadata()), is(true));
    }

    /** The metadata as tracking stores it: the request's object written by JSON-P. */
    private static String written(String metadata) {
        return Json.write(Json.parseObject(metadata.getBytes(StandardCharsets.UTF_8)).orElseThrow());
    }

    /** How items were written before. */
    private static String withJsonP(Interaction interaction) {
        JsonObjectBuilder one = Json.builders().createObjectBuilder()
                .add("id", ID)
                .add("notificationId", interaction.notificationId())
                .add("type", interaction.type().wireName())
                .add("occurredAt", Timestamps.format(interaction.occurredAt()))
                .add("receivedAt", Timestamps.format(interaction.receivedAt()))
                .add("locale", interaction.locale() == null ? "" : interaction.locale());
        if (interaction.metadata() == null) {
            one.addNull("metadata");
        } else {
            JsonObject metadata = Json.parseObject(interaction.metadata().getBytes(StandardCharsets.UTF_8))
                    .orElseThrow();
            one.add("metadata", metadata);
        }
        return Json.write(one.build());
    }
}
