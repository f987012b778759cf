package dev.herald.support;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JVM's name resolver for the tests (META-INF/services): the system's own, with every name it is asked for
 * written down, so a test can show that some text never reached it. Installed at the JVM's first lookup.
 */
public final class RecordingResolver extends InetAddressResolverProvider {

    private static final Set<String> LOOKED_UP = ConcurrentHashMap.newKeySet();

    /** Every name looked up in this JVM so far (lookups the JVM answered from its cache are not asked again). */
    public static Set<String> namesLookedUp() {
        return Set.copyOf(LOOKED_UP);
    }

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver system = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                LOOKED_UP.add(host);
                return system.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] address) throws UnknownHostException {
                return system.lookupByAddress(address);
            }
        };
    }

    @Override
    public String name() {
        return "recording";
    }
}
