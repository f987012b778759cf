package dev.herald.export;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link ExactLength}: a body is its announced length, or it fails (and the connection closes unfinished). */
class ExactLengthTest {

    @Test
    void aBodyOfItsLengthPassesAndOneLongerOrShorterFails() throws IOException {
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        try (ExactLength exact = new ExactLength(sent, 5)) {
            exact.write(new byte[] {1, 2, 3}, 0, 3);
            exact.write(4);
            exact.write(5);
        }
        assertThat(sent.size(), is(5));

        ExactLength longer = new ExactLength(new ByteArrayOutputStream(), 3);
        longer.write(new byte[] {1, 2}, 0, 2);
        assertThrows(IOException.class, () -> longer.write(new byte[] {3, 4}, 0, 2));

        ExactLength shorter = new ExactLength(new ByteArrayOutputStream(), 3);
        shorter.write(1);
        assertThrows(IOException.class, shorter::close);
    }
}
