package dev.herald.api;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** What {@link Json#parseObject} takes: one object, within its depth, no duplicate names, nothing after it. */
class JsonTest {

    /** Every character of the first 64 Ki and random strings of them: the same text as the JSON-P writer's. */
    @Test
    void aStringAppendedIsWrittenAsTheWriterWritesIt() {
        StringBuilder every = new StringBuilder();
        for (char c = 0; c < 0xFFFF; c++) {
            if (!Character.isSurrogate(c)) {
                every.append(c);
            }
        }
        every.append("\uD83D\uDE00");
        java.util.Random random = new java.util.Random(35);
        java.util.List<String> texts = new java.util.ArrayList<>(java.util.List.of("", every.toString(),
                "\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028"));
        for (int i = 0; i < 1000; i++) {
            char[] chars = new char[random.nextInt(20)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = (char) (random.nextBoolean() ? random.nextInt(0x80) : random.nextInt(0xD800));
            }
            texts.add(new String(chars));
        }
        for (String text : texts) {
            assertThat(Json.appendString(new StringBuilder(), text).toString(),
                       is(Json.write(Json.builders().createArrayBuilder().add(text).build()).replaceAll("^\\[|]$", "")));
        }
    }

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

    /** Bytes that are not UTF-8 are refused, never read as replacement characters that would then be stored. */
    @Test
    void bytesThatAreNotUtf8AreRefused() {
        byte[] prefix = "{\"a\":\"".getBytes(StandardCharsets.US_ASCII);
        for (byte[] wrong : new byte[][] {{(byte) 0xff}, {(byte) 0xc3, 0x28}, {(byte) 0xe2, (byte) 0x82},
                                          {(byte) 0xed, (byte) 0xa0, (byte) 0x80}, {(byte) 0xc0, (byte) 0xaf}}) {
            byte[] json = new byte[prefix.length + wrong.length + 2];
            System.arraycopy(prefix, 0, json, 0, prefix.length);
            System.arraycopy(wrong, 0, json, prefix.length, wrong.length);
            json[json.length - 2] = '"';
            json[json.length - 1] = '}';
            assertThat(java.util.HexFormat.of().formatHex(wrong), Json.parseObject(json).isPresent(), is(false));
        }
        assertThat("the same with a character that is UTF-8", parses("{\"a\":\"\u00e9\"}"), is(true));
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
