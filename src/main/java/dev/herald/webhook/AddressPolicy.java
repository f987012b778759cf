package dev.herald.webhook;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import dev.herald.ratelimit.IpRange;

/**
 * Which addresses Herald delivers webhooks to (docs/webhooks.md#which-addresses-herald-calls): an endpoint's URL is
 * written by a project's editor, and without this anyone who may add an endpoint could make Herald's instances
 * call the cloud's metadata service, the database or anything else on their private network (SSRF).
 * <p>
 * Refused: every range of IANA's special-purpose registries that is not the public internet (loopback, private,
 * link-local, shared/CGNAT, multicast, reserved, documentation, benchmarking, unspecified, broadcast), which holds
 * the clouds' metadata addresses (169.254.169.254, fd00:ec2::254, Alibaba's 100.100.100.200, Oracle's
 * 192.0.0.192); and an IPv6 address that carries an IPv4 one (mapped, compatible, translated, 6to4, NAT64) is
 * judged by the IPv4 address it carries, since that is where its packets end up (for 6to4, the router in front
 * of the address's /48: a range allowed for IPv4 opens every other form, not that one). An operator opens ranges with
 * {@code webhooks.allowed-addresses} (a receiver on their own network, the tests' loopback).
 */
public final class AddressPolicy {

    private static final List<Refused> REFUSED = List.of(
            new Refused("0.0.0.0/8", "an unspecified (this network) address"),
            new Refused("10.0.0.0/8", "a private address"),
            new Refused("100.64.0.0/10", "a shared (carrier-grade NAT) address"),
            new Refused("127.0.0.0/8", "a loopback address"),
            new Refused("169.254.0.0/16", "a link-local address (cloud metadata among them)"),
            new Refused("172.16.0.0/12", "a private address"),
            new Refused("192.0.0.0/24", "an IETF protocol assignment"),
            new Refused("192.0.2.0/24", "a documentation address"),
            new Refused("192.88.99.0/24", "a 6to4 relay address"),
            new Refused("192.168.0.0/16", "a private address"),
            new Refused("198.18.0.0/15", "a benchmarking address"),
            new Refused("198.51.100.0/24", "a documentation address"),
            new Refused("203.0.113.0/24", "a documentation address"),
            new Refused("224.0.0.0/4", "a multicast address"),
            new Refused("240.0.0.0/4", "a reserved or broadcast address"),
            new Refused("::/128", "an unspecified address"),
            new Refused("::1/128", "a loopback address"),
            new Refused("64:ff9b:1::/48", "a local-use NAT64 address"),
            new Refused("100::/64", "a discard-only address"),
            new Refused("2001::/23", "an IETF protocol assignment (Teredo among them)"),
            new Refused("2001:db8::/32", "a documentation address"),
            new Refused("3fff::/20", "a documentation address"),
            new Refused("5f00::/16", "a segment-routing address"),
            new Refused("fc00::/7", "a unique local (private) address (cloud metadata among them)"),
            new Refused("fe80::/10", "a link-local address"),
            new Refused("fec0::/10", "a site-local address"),
            new Refused("ff00::/8", "a multicast address"));

    /**
     * IPv6 forms that carry an IPv4 address right after their prefix (all whole bytes). Compared on the bytes:
     * {@link IpRange} reads {@code ::ffff:0:0} as the IPv4 address it maps, as Java does.
     */
    private static final List<Embedding> EMBEDDINGS = List.of(
            new Embedding(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff}, "IPv4-mapped"),
            new Embedding(new byte[12], "IPv4-compatible"),
            new Embedding(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 0, 0}, "IPv4-translated"),
            new Embedding(new byte[] {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0}, "NAT64"),
            new Embedding(new byte[] {0x20, 0x02}, "6to4", false));

    private final List<IpRange> allowed;

    /** @param allowed ranges delivered to even where a rule above refuses them ({@code webhooks.allowed-addresses}) */
    public AddressPolicy(List<IpRange> allowed) {
        this.allowed = List.copyOf(allowed);
    }

    /** The policy with nothing opened: the default. */
    public static AddressPolicy strict() {
        return new AddressPolicy(List.of());
    }

    /** Why Herald does not call {@code address} ("127.0.0.1 is a loopback address"); empty when it does. */
    public Optional<String> refusal(InetAddress address) {
        return reason(address).map(reason -> address.getHostAddress() + " is " + reason);
    }

    private Optional<String> reason(InetAddress address) {
        if (allowed.stream().anyMatch(range -> range.contains(address))) {
            return Optional.empty();
        }
        if (address instanceof Inet6Address) {
            byte[] bytes = address.getAddress();
            for (Embedding embedding : EMBEDDINGS) {
                int offset = embedding.prefix().length;
                if (Arrays.equals(bytes, 0, offset, embedding.prefix(), 0, offset) && !isLoopbackOrUnspecified(bytes)) {
                    InetAddress carried = ipv4(Arrays.copyOfRange(bytes, offset, offset + 4));
                    Optional<String> carriedReason = embedding.isTheHost() ? reason(carried) : refusedRange(carried);
                    return carriedReason.map(reason -> "the " + embedding.name() + " form of "
                                                       + carried.getHostAddress() + ", " + reason);
                }
            }
        }
        return refusedRange(address);
    }

    private static Optional<String> refusedRange(InetAddress address) {
        for (Refused refused : REFUSED) {
            if (refused.range().contains(address)) {
                return Optional.of(refused.reason());
            }
        }
        return Optional.empty();
    }

    /** ::1 and :: lie inside ::/96 but are IPv6's own loopback and unspecified, not IPv4 0.0.0.1 and 0.0.0.0. */
    private static boolean isLoopbackOrUnspecified(byte[] bytes) {
        for (int i = 0; i < 15; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return bytes[15] == 0 || bytes[15] == 1;
    }

    private static InetAddress ipv4(byte[] bytes) {
        try {
            return (Inet4Address) InetAddress.getByAddress(bytes);
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private record Refused(IpRange range, String reason) {
        Refused(String range, String reason) {
            this(IpRange.parse(range), reason);
        }
    }

    /**
     * @param isTheHost whether the IPv4 address carried is the host the packets reach, so that an allowed range
     *                  of IPv4 opens the form too; not so for 6to4, whose address is a router's, in front of a /48
     *                  of other hosts
     */
    private record Embedding(byte[] prefix, String name, boolean isTheHost) {
        Embedding(byte[] prefix, String name) {
            this(prefix, name, true);
        }
    }
}
