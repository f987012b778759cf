package dev.herald;

import java.net.BindException;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What each refusal of the system to bind a port tells the operator. A privileged port as another user than root
 * said "already in use or not available here", though nothing listened there. The refusals are the JDK's words on
 * Linux; a port already in use and an address not this host's are also started for real in StartFailuresTest and
 * ProcessLifecycleTest.
 */
class ListenAddressesTest {

    @Test
    void eachRefusalSaysWhatItMeans() {
        assertThat(refusal("Permission denied"), is("This user may not listen on port 80 (server.port, SERVER_PORT): "
                + "ports below 1024 need root or the capability CAP_NET_BIND_SERVICE; choose a port from 1024 (8080) "
                + "and publish it as 80 with a proxy or the container's port mapping"));
        assertThat(refusal("Address already in use"), is("0.0.0.0:80 is already in use (server.port, SERVER_PORT): stop"
                + " what listens there, or choose another port"));
        assertThat(refusal("Cannot assign requested address"), is("0.0.0.0 is not an address of this host (server.host,"
                + " SERVER_HOST): use one of its own, or 0.0.0.0 for all"));
        assertThat(refusal("Protocol family unavailable"), is("Cannot listen on 0.0.0.0:80 (server.host, SERVER_HOST, "
                + "server.port, SERVER_PORT): Protocol family unavailable"));
    }

    /** Where the tests run as another user than root, port 80 is refused for real. */
    @Test
    void aPrivilegedPortIsRefusedForRealToAnotherUserThanRoot() {
        Assumptions.assumeFalse("root".equals(System.getProperty("user.name")), "root may listen on port 80");
        IllegalStateException refused = assertThrows(IllegalStateException.class, () -> ListenAddresses.requireFree(
                "0.0.0.0", 80, "server.host, SERVER_HOST", "server.port, SERVER_PORT"));
        assertThat(refused.getMessage().startsWith("This user may not listen on port 80")
                           || refused.getMessage().contains("already in use"), is(true));
    }

    private static String refusal(String reason) {
        return ListenAddresses.refusal(new BindException(reason), "0.0.0.0", 80, "server.host, SERVER_HOST",
                                       "server.port, SERVER_PORT").getMessage();
    }
}
