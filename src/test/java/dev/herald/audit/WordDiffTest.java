package dev.herald.audit;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * docs/api.md#audit-log: a change of text is kept as the words removed and added with a few words around them, in
 * bounded work and bytes, wherever in the text the change is.
 */
class WordDiffTest {

    @Test
    void anEditAtTheEndOfALongTextIsItsWordsWithAFewBefore() {
        String start = "word ".repeat(400);
        List<String> runs = runs(WordDiff.kept(start + "see you on Monday.", start + "see you on Friday.").runs());

        assertThat(runs, contains("same:… word word word see you on ", "removed:Monday.", "added:Friday."));
    }

    @Test
    void changesInTwoPlacesKeepTheWordsBetweenThemCutInTheMiddle() {
        String middle = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen";
        List<String> runs = runs(WordDiff.kept("A " + middle + " B", "X " + middle + " Y").runs());

        assertThat(runs, contains("removed:A", "added:X",
                                  "same: one two three four five six… nine ten eleven twelve thirteen fourteen ",
                                  "removed:B", "added:Y"));
    }

    @Test
    void wordsAreComparedNotCharacters() {
        assertThat(runs(WordDiff.kept("the quick brown fox", "the quick red fox").runs()),
                   contains("same:the quick ", "removed:brown", "added:red", "same: fox"));
        assertThat(runs(WordDiff.kept("", "new words").runs()), contains("added:new words"));
    }

    @Test
    void aWholeNewLongTextIsBoundedInBytesAndSaysItWasCut() {
        StringBuilder before = new StringBuilder();
        StringBuilder after = new StringBuilder();
        for (int i = 0; i < 8_000; i++) {
            before.append("a").append(i).append(i % 2 == 0 ? " \"é\" " : " ");
            after.append("b").append(i).append(" \u0001 ");
        }
        long started = System.nanoTime();
        WordDiff.Kept kept = WordDiff.kept(before.toString(), after.toString());
        long millis = (System.nanoTime() - started) / 1_000_000;

        assertThat(kept.cut(), is(true));
        assertThat((long) Json.write(kept.runs()).getBytes(StandardCharsets.UTF_8).length,
                   lessThanOrEqualTo((long) WordDiff.DIFF_BYTES));
        kept.runs().forEach(run -> assertThat(AuditBounds.servedBytes(run.asJsonObject().getString("text")),
                                              lessThanOrEqualTo((long) WordDiff.RUN_BYTES)));
        assertThat("no quadratic comparison of 32,000 words: " + millis + " ms", millis < 2_000, is(true));
    }

    @Test
    void aMessageChangeInTheDetailsHoldsFromToAndTheDiff() {
        JsonObject before = Json.builders().createObjectBuilder().add("message", "<p>Spring <b>sale</b></p>").build();
        JsonObject after = Json.builders().createObjectBuilder().add("message", "<p>Spring <b>sale</b> ends</p>").build();

        JsonObject changes = AuditDetails.changes(before, after, java.util.Set.of(),
                                                  java.util.Map.of("message", dev.herald.content.MessageText::of));

        JsonObject message = changes.getJsonObject("message");
        assertThat(message.getString("from"), is("<p>Spring <b>sale</b></p>"));
        assertThat(runs(message.getJsonArray("diff")), contains("same:Spring sale", "added: ends"));
        assertThat("nothing changed: no member", AuditDetails.changes(before, before, java.util.Set.of(),
                java.util.Map.of("message", dev.herald.content.MessageText::of)).isEmpty(), is(true));
    }

    private static List<String> runs(jakarta.json.JsonArray runs) {
        return runs.stream().map(JsonValue::asJsonObject)
                .map(run -> run.getString("type") + ":" + run.getString("text")).toList();
    }
}
