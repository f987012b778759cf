package dev.herald.webhook;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Turns an endpoint's host into addresses, once per attempt: the transport checks each one and then connects to a
 * checked address itself, never asking again (a second lookup could answer another address: DNS rebinding).
 * Injectable so that tests can make a name resolve to a private address.
 */
@FunctionalInterface
public interface HostResolver {

    /** @param host a name or an address literal (an IPv6 one without brackets) */
    List<InetAddress> resolve(String host) throws UnknownHostException;

    /** The JVM's resolver (an address literal is parsed, not looked up). */
    static HostResolver system() {
        return host -> List.of(InetAddress.getAllByName(host));
    }
}
