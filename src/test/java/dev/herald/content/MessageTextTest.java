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
        assertThat(MessageText.of(DOCUMENT.substring(0, DOCUMENT.indexOf("now") + 3) + "\\"), is("Spring sale \"now"));
    }

    /**
     * A long text node read from a document cut short, on a stack as small as the launcher's: read in one pass, not by
     * a recursion per character (which overflowed, and answered the audit log 500 after each start).
     */
    @Test
    void aLongTextCutShortIsReadOnASmallStack() throws InterruptedException {
        String text = "a\\\"b ".repeat(40_000);
        String cut = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\""
                     + text;
        String[] read = new String[1];
        Throwable[] failed = new Throwable[1];
        Thread small = new Thread(null, () -> {
            try {
                read[0] = MessageText.of(cut);
            } catch (Throwable e) {
                failed[0] = e;
            }
        }, "small-stack", 256 * 1024);
        small.start();
        small.join();
        assertThat(String.valueOf(failed[0]), failed[0], is((Throwable) null));
        assertThat(read[0], is("a\"b ".repeat(40_000).strip()));
    }
}
