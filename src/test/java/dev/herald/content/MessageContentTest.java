package dev.herald.content;

import java.util.Random;

import dev.herald.api.ApiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;

/**
 * What the management API stores is what the feed serves: the feed's pass finds nothing to change in it, so that it
 * changes only what was written past the API (and logs it).
 */
class MessageContentTest {

    private static final String LINKED = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"marks\":"
            + "[{\"type\":\"link\",\"attrs\":{\"href\":\"javascript:alert(1)\"}}]}]}";

    /**
     * HTML whose text is a document once the markup is gone was stored as that document, unchecked, its javascript:
     * link and all: it is stored with the bracket as a reference, the same text to HTML readers.
     */
    @ParameterizedTest
    @ValueSource(strings = {"<!-- hidden -->", "<b></b>", "<script>x</script>", "<div>", "<!---->\u200b"})
    void htmlThatLeavesADocumentLeavesNoDocument(String markup) {
        String stored = MessageContent.written(markup + LINKED).message();
        assertThat(stored, StringDocuments.documentStart(stored), is(-1));
        assertThat(MessageContent.served(stored), sameInstance(stored));
    }

    /** Pieces of markup, JSON and what lenient parsers skip, 5,000 times: whatever the API stores, the feed keeps. */
    @Test
    void whatTheApiStoresTheFeedServesUnchanged() {
        String[] pieces = {"<", ">", "</", "<!--", "-->", "<b>", "</b>", "<p>", "<a href=\"https://x.example/\">",
                           "<a href=\"javascript:x\">", "<script>", "</script>", "&", "&amp;", "&#123;", "{", "}", "[",
                           "]", "\"", ":", ",", "\"type\"", "\"doc\"", "\"href\"", "\"javascript:x\"", "/**/", "//",
                           "\n", " ", "\u200b", "\u0000", "x", "é"};
        Random random = new Random(10);
        int stored = 0;
        for (int i = 0; i < 5000; i++) {
            StringBuilder message = new StringBuilder();
            for (int n = random.nextInt(30); n >= 0; n--) {
                message.append(pieces[random.nextInt(pieces.length)]);
            }
            String written;
            try {
                written = MessageContent.written(message.toString()).message();
            } catch (ApiException refused) {
                continue;
            }
            stored++;
            assertThat(message.toString(), MessageContent.served(written), sameInstance(written));
        }
        assertThat("most are stored", stored > 2500, is(true));
    }
}
