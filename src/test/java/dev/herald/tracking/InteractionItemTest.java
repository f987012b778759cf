package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * An interaction as its webhook event lists it, written as text on the hot path: the very text that building the
 * object with JSON-P and writing it gave, metadata parsed again included, so that consumers see no change.
 */
class InteractionItemTest {

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
        assertThat(InteractionEvents.item(interaction), is(withJsonP(interaction)));
    }

    /** Its head written on the request's thread (an endpoint may want it), the rest by the writer's lane. */
    @ParameterizedTest
    @MethodSource("interactions")
    void theTextIsTheSameWhenTheRequestWroteItsHead(Interaction interaction) {
        Interaction headed = interaction.withEventItemHead(InteractionEvents.itemHead(interaction));
        assertThat(InteractionEvents.item(headed), is(withJsonP(interaction)));
    }

    /** The metadata as tracking stores it: the request's object written by JSON-P. */
    private static String written(String metadata) {
        return Json.write(Json.parseObject(metadata.getBytes(StandardCharsets.UTF_8)).orElseThrow());
    }

    /** How items were written before. */
    private static String withJsonP(Interaction interaction) {
        JsonObjectBuilder one = Json.builders().createObjectBuilder()
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
