package dev.herald.webhook;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Optional;

import dev.herald.ratelimit.IpRange;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/** Each range Herald refuses, by an address in it; the public internet and what an operator allows, delivered to. */
class AddressPolicyTest {

    private static final AddressPolicy STRICT = AddressPolicy.strict();

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0.0.0.0                 | an unspecified (this network) address
            0.1.2.3                 | an unspecified (this network) address
            10.0.0.1                | a private address
            10.255.255.255          | a private address
            100.64.0.1              | a shared (carrier-grade NAT) address
            100.100.100.200         | a shared (carrier-grade NAT) address
            127.0.0.1               | a loopback address
            127.255.0.9             | a loopback address
            169.254.169.254         | a link-local address (cloud metadata among them)
            172.16.0.1              | a private address
            172.31.255.254          | a private address
            192.0.0.192             | an IETF protocol assignment
            192.0.2.10              | a documentation address
            192.88.99.1             | a 6to4 relay address
            192.168.1.1             | a private address
            198.18.0.1              | a benchmarking address
            198.51.100.7            | a documentation address
            203.0.113.9             | a documentation address
            224.0.0.1               | a multicast address
            239.255.255.250         | a multicast address
            240.0.0.1               | a reserved or broadcast address
            255.255.255.255         | a reserved or broadcast address
            ::                      | an unspecified address
            ::1                     | a loopback address
            fd00:ec2::254           | a unique local (private) address (cloud metadata among them)
            fc00::1                 | a unique local (private) address (cloud metadata among them)
            fe80::1                 | a link-local address
            fec0::1                 | a site-local address
            ff02::1                 | a multicast address
            2001:db8::1             | a documentation address
            2001::1                 | an IETF protocol assignment (Teredo among them)
            3fff::1                 | a documentation address
            100::1                  | a discard-only address
            64:ff9b:1::a00:1        | a local-use NAT64 address
            5f00::1                 | a segment-routing address
            """)
    void eachRangeIsRefused(String address, String reason) throws UnknownHostException {
        InetAddress parsed = InetAddress.getByName(address);
        assertThat(STRICT.refusal(parsed), is(Optional.of(parsed.getHostAddress() + " is " + reason)));
    }

    @ParameterizedTest(name = "{0} carries {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0:0:0:0:0:ffff:7f00:1   | IPv4-mapped     | 127.0.0.1       | a loopback address
            ::ffff:a9fe:a9fe        | IPv4-mapped     | 169.254.169.254 | a link-local address (cloud metadata among them)
            ::a9fe:a9fe             | IPv4-compatible | 169.254.169.254 | a link-local address (cloud metadata among them)
            ::7f00:1                | IPv4-compatible | 127.0.0.1       | a loopback address
            64:ff9b::a00:1          | NAT64           | 10.0.0.1        | a private address
            64:ff9b::7f00:1         | NAT64           | 127.0.0.1       | a loopback address
            2002:c0a8:101::1        | 6to4            | 192.168.1.1     | a private address
            2002:a9fe:a9fe::        | 6to4            | 169.254.169.254 | a link-local address (cloud metadata among them)
            ::ffff:0:7f00:1         | IPv4-translated | 127.0.0.1       | a loopback address
            ::ffff:0:a9fe:a9fe      | IPv4-translated | 169.254.169.254 | a link-local address (cloud metadata among them)
            """)
    void anIpv6FormOfARefusedIpv4AddressIsRefused(String address, String form, String carried, String reason)
            throws UnknownHostException {
        // Built as an Inet6Address whatever its bytes: Java turns a mapped literal into the IPv4 address itself,
        // but a resolver may hand one over as IPv6.
        InetAddress ipv6 = Inet6Address.getByAddress(null, InetAddress.getByName(address).getAddress().length == 16
                ? InetAddress.getByName(address).getAddress() : mapped(InetAddress.getByName(address)), null);
        assertThat(STRICT.refusal(ipv6),
                   is(Optional.of(ipv6.getHostAddress() + " is the " + form + " form of " + carried + ", " + reason)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"8.8.8.8", "1.1.1.1", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.15.255.255",
                            "172.32.0.0", "192.167.255.255", "223.255.255.255", "2606:4700:4700::1111",
                            "2a00:1450:4001::200e", "64:ff9b::808:808", "2002:808:808::1", "2001:200::1"})
    void publicAddressesAreDeliveredTo(String address) throws UnknownHostException {
        assertThat(STRICT.refusal(InetAddress.getByName(address)), is(Optional.empty()));
    }

    @Test
    void anAllowedRangeIsDeliveredToAndNothingBeside() throws UnknownHostException {
        AddressPolicy policy = new AddressPolicy(List.of(IpRange.parse("10.20.0.0/16"), IpRange.parse("fd12::/16")));

        assertThat(policy.refusal(InetAddress.getByName("10.20.3.4")), is(Optional.empty()));
        assertThat(policy.refusal(InetAddress.getByName("fd12::5")), is(Optional.empty()));
        assertThat(policy.refusal(InetAddress.getByName("64:ff9b::a14:304")), is(Optional.empty()));
        // A 6to4 address names a router at the IPv4 address and a /48 of hosts behind it, not that host.
        assertThat(policy.refusal(InetAddress.getByName("2002:a14:304:1234::5678")),
                   is(Optional.of("2002:a14:304:1234:0:0:0:5678 is the 6to4 form of 10.20.3.4, a private address")));
        assertThat(policy.refusal(InetAddress.getByName("10.21.0.1")).isPresent(), is(true));
        assertThat(policy.refusal(InetAddress.getByName("fd13::5")).isPresent(), is(true));
        assertThat(policy.refusal(InetAddress.getByName("169.254.169.254")).isPresent(), is(true));
    }

    private static byte[] mapped(InetAddress ipv4) {
        byte[] bytes = new byte[16];
        bytes[10] = (byte) 0xff;
        bytes[11] = (byte) 0xff;
        System.arraycopy(ipv4.getAddress(), 0, bytes, 12, 4);
        return bytes;
    }
}
