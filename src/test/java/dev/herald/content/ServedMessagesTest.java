package dev.herald.content;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;

/** The remembered pass answers as the pass does, for copies of a message as the database hands them out, and stays bounded. */
class ServedMessagesTest {

    @Test
    void answersAsThePassForEveryCopyOfAMessage() {
        String inForm = "<p>In <b>form</b></p>";
        String outOfForm = "<p onclick=\"x()\">Out of form</p>";
        for (int read = 0; read < 3; read++) {
            // Each read of a row is a new String: in form, it is served as itself, whatever was remembered.
            String copy = new String(inForm.toCharArray());
            assertThat(ServedMessages.served(copy), sameInstance(copy));
            assertThat(ServedMessages.served(new String(outOfForm.toCharArray())), is("<p>Out of form</p>"));
        }
    }

    /** Past its bound it starts again empty, and answers as before. */
    @Test
    void manyMessagesPastTheBoundAreStillServedRight() {
        String filler = "x".repeat(1000);
        int messages = (int) (ServedMessages.MAX_CHARACTERS / 1000) * 2;
        for (int i = 0; i < messages; i++) {
            assertThat(ServedMessages.served("<i style=\"s\">" + i + filler + "</i>"), is("<i>" + i + filler + "</i>"));
            assertThat(ServedMessages.characters() <= ServedMessages.MAX_CHARACTERS, is(true));
        }
        String last = "<i>" + (messages - 1) + filler + "</i>";
        assertThat(ServedMessages.served(last), sameInstance(last));
    }
}
