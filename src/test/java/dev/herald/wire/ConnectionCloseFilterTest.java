package dev.herald.wire;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * How {@link ConnectionCloseFilter} reads {@code Connection}. That it then closes is shown by every
 * {@code RawHttp} exchange, which says {@code Connection: close} and reads until the server closes.
 */
class ConnectionCloseFilterTest {

    @Test
    void closeIsOneTokenOfAList() {
        assertThat(ConnectionCloseFilter.hasToken("close", "close"), is(true));
        assertThat(ConnectionCloseFilter.hasToken("Keep-Alive, CLOSE", "close"), is(true));
        assertThat(ConnectionCloseFilter.hasToken(" upgrade ,\tclose\t", "close"), is(true));
        assertThat(ConnectionCloseFilter.hasToken(",,close,", "close"), is(true));
    }

    @Test
    void nothingElseIsClose() {
        assertThat(ConnectionCloseFilter.hasToken("keep-alive", "close"), is(false));
        assertThat(ConnectionCloseFilter.hasToken("closed, x-close", "close"), is(false));
        assertThat(ConnectionCloseFilter.hasToken("clo se", "close"), is(false));
        assertThat(ConnectionCloseFilter.hasToken("", "close"), is(false));
    }
}
