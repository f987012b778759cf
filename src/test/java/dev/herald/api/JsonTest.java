package dev.herald.api;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** What {@link Json#parseObject} takes: one object, within its depth, no duplicate names, nothing after it. */
class JsonTest {

    @Test
    void nestingUpToTheLimitIsTakenAndOneLevelMoreIsNot() {
        assertThat(parses(arrays(Json.MAX_DEPTH)), is(true));
        assertThat(parses(arrays(Json.MAX_DEPTH + 1)), is(false));
        assertThat(parses(objects(Json.MAX_DEPTH)), is(true));
        assertThat(parses(objects(Json.MAX_DEPTH + 1)), is(false));
    }

    /** Far deeper than Parsson's own limit, which a small stack does not reach before it overflows. */
    @Test
    void aDocumentThousandsDeepIsRefusedWithoutParsing() {
        assertThat(parses(arrays(50_000)), is(false));
        assertThat(parses("{\"a\":" + "[".repeat(50_000)), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"a\":1,\"a\":2}",
            "{\"a\":{\"h\":\"https://a/\",\"h\":\"javascript:alert(1)\"}}",
            "{\"a\":[{\"h\":1},{\"g\":1,\"g\":1}]}"})
    void aNameTwiceInOneObjectIsRefused(String json) {
        assertThat(parses(json), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"a\":1} x", "{\"a\":1}{}", "{\"a\":1}}", "{\"a\":1}]", "{\"a\":1} \u0000"})
    void anythingAfterTheObjectIsRefused(String json) {
        assertThat(parses(json), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"{}\"", "1", "", " ", "\uFEFF{}", "{", "{\"a\":[}"})
    void onlyOneWholeObjectIsAnObject(String json) {
        assertThat(parses(json), is(false));
    }

    /** The scan reads strings as the parser does: brackets, quotes and backslashes inside them are text. */
    @ParameterizedTest
    @ValueSource(strings = {
            " {\"a\":\"}\"}\r\n\t ",
            "{\"a\":\"\\\"}]]{{\"}",
            "{\"a\":\"\\\\\",\"b\":[\"[[[\"]}",
            "{\"a\":{\"a\":{}},\"b\":\"\u00e9\u4e2d\ud83d\ude00\"}"})
    void bracketsInStringsAreText(String json) {
        assertThat(parses(json), is(true));
    }

    private static boolean parses(String json) {
        return Json.parseObject(json.getBytes(StandardCharsets.UTF_8)).isPresent();
    }

    /** An object holding arrays, {@code depth} levels in all. */
    private static String arrays(int depth) {
        return "{\"a\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}";
    }

    private static String objects(int depth) {
        return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    }
}
