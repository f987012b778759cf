package dev.herald.content;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** The words of a stored message, as the audit log compares and names them: never its markup or its JSON. */
class MessageTextTest {

    private static final String DOCUMENT = "{\"type\":\"doc\",\"content\":[{\"type\":\"heading\",\"content\":[{\"type\":"
            + "\"text\",\"text\":\"Spring\"}]},{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\"sale \\\"now\\\"\","
            + "\"marks\":[{\"type\":\"bold\"}]},{\"type\":\"text\",\"text\":\" on\"}]}]}";

    @Test
    void aDocumentsTextWithASpaceBetweenBlocks() {
        assertThat(MessageText.of(DOCUMENT), is("Spring sale \"now\" on"));
    }

    @Test
    void anHtmlMessagesTextAndPlainTextAsItIs() {
        assertThat(MessageText.of("<p>Spring <b>sale</b> &amp; more</p>"), is("Spring sale & more"));
        assertThat(MessageText.of("Just words"), is("Just words"));
    }

    @Test
    void theBeginningOfALongDocumentCutMidTextStillNamesIt() {
        String cut = DOCUMENT.substring(0, DOCUMENT.indexOf("now") + 1);
        assertThat(MessageText.excerpt(cut, 60), is("Spring sale \"n"));
        assertThat(MessageText.excerpt("word ".repeat(30), 20), is("word word word word…"));
    }
}
