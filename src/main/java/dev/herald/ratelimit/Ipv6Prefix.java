package dev.herald.ratelimit;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * How IPv6 clients are told apart (docs/behaviour.md#rate-limit): by their first {@code length} bits. A subscriber line
 * is given a whole /64 (or more) and a host picks a new address in it as often as it likes (privacy addresses);
 * counted one by one, it could never be limited. IPv4 addresses are counted whole, and so is an IPv6 address that
 * carries one ({@code ::ffff:192.0.2.1} is 192.0.2.1).
 */
record Ipv6Prefix(int length) {

    static final int DEFAULT = 64;
    /**
     * The shortest prefix allowed: a /32 is what a registry allocates a whole provider, so anything shorter would
     * count unrelated networks as one client.
     */
    static final int SHORTEST = 32;
    static final int LONGEST = 128;

    private static final byte[] IPV4_MAPPED = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xFF, (byte) 0xFF};

    Ipv6Prefix {
        if (length < SHORTEST || length > LONGEST) {
            throw new IllegalArgumentException("rate-limit.ipv6-prefix must be from " + SHORTEST + " to " + LONGEST
                                                       + ", not " + length);
        }
    }

    /**
     * The rate limit's key for an address: an IPv4 address as it is (no copy), an IPv6 address as its network. At
     * /128 the address is its own network.
     */
    Object clientOf(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] bytes = address.getAddress();
        if (Arrays.equals(bytes, 0, IPV4_MAPPED.length, IPV4_MAPPED, 0, IPV4_MAPPED.length)) {
            // Java hands these over as Inet4Address already; an Inet6Address built from the bytes is the exception.
            return ipv4(Arrays.copyOfRange(bytes, IPV4_MAPPED.length, bytes.length));
        }
        if (length == LONGEST) {
            return address;
        }
        return new Ipv6Network(ipv6(network(bytes)), length);
    }

    private byte[] network(byte[] bytes) {
        int fullBytes = length / 8;
        int remainingBits = length % 8;
        if (remainingBits != 0) {
            bytes[fullBytes] &= (byte) (0xFF << (8 - remainingBits));
            fullBytes++;
        }
        Arrays.fill(bytes, fullBytes, bytes.length, (byte) 0);
        return bytes;
    }

    private static InetAddress ipv4(byte[] bytes) {
        try {
            return (Inet4Address) InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }

    private static Inet6Address ipv6(byte[] bytes) {
        try {
            return Inet6Address.getByAddress(null, bytes, -1);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("sixteen bytes are always an IPv6 address", e);
        }
    }

    /** The IPv6 network that is one client: equal to another when their bits and lengths are. */
    record Ipv6Network(Inet6Address network, int prefixLength) {

        /** As the log shows it: {@code 2001:db8:1:2:0:0:0:0/64}. */
        @Override
        public String toString() {
            return network.getHostAddress() + "/" + prefixLength;
        }
    }
}
