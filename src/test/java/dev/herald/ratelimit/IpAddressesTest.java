package dev.herald.ratelimit;

import java.net.InetAddress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class IpAddressesTest {

    @ParameterizedTest
    @ValueSource(strings = {"localhost", "example.com", "999.1.1.1", "1.2.3", "1.2.3.4.5", "", "1.2.3.-4", "::g", "1.2.3.04x"})
    void onlyLiteralsAreParsedSoNoHeaderCausesADnsLookup(String text) {
        assertThat(IpAddresses.parse(text).isPresent(), is(false));
    }

    @Test
    void portsAndBracketsAreStripped() throws Exception {
        assertThat(IpAddresses.parse(" 192.0.2.1:8080 ").orElseThrow(), is(InetAddress.getByName("192.0.2.1")));
        assertThat(IpAddresses.parse("[2001:db8::1]:443").orElseThrow(), is(InetAddress.getByName("2001:db8::1")));
        assertThat(IpAddresses.parse("2001:db8::1").orElseThrow(), is(InetAddress.getByName("2001:db8::1")));
    }

    @Test
    void rangesMatchByPrefix() throws Exception {
        IpRange ten = IpRange.parse("10.0.0.0/8");
        assertThat(ten.contains(InetAddress.getByName("10.255.1.2")), is(true));
        assertThat(ten.contains(InetAddress.getByName("11.0.0.1")), is(false));
        IpRange odd = IpRange.parse("192.168.4.0/22");
        assertThat(odd.contains(InetAddress.getByName("192.168.7.255")), is(true));
        assertThat(odd.contains(InetAddress.getByName("192.168.8.0")), is(false));
        IpRange single = IpRange.parse("127.0.0.1");
        assertThat(single.contains(InetAddress.getByName("127.0.0.1")), is(true));
        assertThat(single.contains(InetAddress.getByName("127.0.0.2")), is(false));
        IpRange v6 = IpRange.parse("2001:db8::/32");
        assertThat(v6.contains(InetAddress.getByName("2001:db8:ffff::1")), is(true));
        assertThat(v6.contains(InetAddress.getByName("10.0.0.1")), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0.0/33", "10.0.0.0/x", "proxy.internal", "::/129"})
    void badRangesAreRefusedAtStart(String text) {
        try {
            IpRange.parse(text);
            throw new AssertionError("accepted " + text);
        } catch (IllegalArgumentException expected) {
            assertThat(expected.getMessage().contains(text), is(true));
        }
    }
}
