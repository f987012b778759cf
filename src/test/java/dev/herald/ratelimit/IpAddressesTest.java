package dev.herald.ratelimit;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

import dev.herald.support.RecordingResolver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class IpAddressesTest {

    /**
     * Host names, and text the JDK's {@link InetAddress#getByName} would hand to the system resolver ({@code .a:b}:
     * it takes only text that starts with a hex digit or a colon for a literal), are not addresses. "localhost" would
     * resolve to a trusted proxy's address, so RateLimitTest shows the same through the server.
     */
    @ParameterizedTest
    @ValueSource(strings = {"localhost", "example.com", "999.1.1.1", "1.2.3", "1.2.3.4.5", "", "1.2.3.-4", "::g",
            "1.2.3.04x", ".a:b", ".1:2", "a:b", ":localhost", "localhost:80", "[localhost]:80", "[localhost]",
            "1.2.3.4.nip.io", "fe80::1%lo", "fe80::1%25lo", "1::2::3", ":::", ":1::", "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", "1.2.3.4::", "::1.2.3", "::12345", "+1::", "\u0661.2.3.4",
            "１.2.3.4", "1.2.3.4 5"})
    void onlyLiteralsAreParsedSoNoHeaderCausesADnsLookup(String text) {
        assertThat(IpAddresses.parse(text).isPresent(), is(false));
    }

    /** The resolver's own record: a test that only saw "not an address" could not tell a failed lookup from none. */
    @Test
    void noTextEverReachesTheResolver() throws Exception {
        InetAddress.getByName("localhost");
        assertThat("the recording resolver is in place", RecordingResolver.namesLookedUp().contains("localhost"), is(true));
        // The JDK's getByName takes only text that starts with a hex digit or a colon for a literal: it would look
        // these up.
        List<String> texts = List.of(".a:b", ".herald-never-resolved:1", "..:.", ".1:2.3.4.5", "herald-never-resolved.invalid");
        for (String text : texts) {
            assertThat(text, IpAddresses.parse(text).isPresent(), is(false));
            assertThat(text, IpAddresses.parse("[" + text + "]:80").isPresent(), is(false));
        }
        for (String text : texts) {
            assertThat(text, RecordingResolver.namesLookedUp().contains(text), is(false));
        }
    }

    /** Literals mean what the JDK reads them as (getByName does not resolve these: they are literals to it). */
    @ParameterizedTest
    @ValueSource(strings = {"::", "::1", "1::", "2001:db8::1", "2001:DB8:0:0:0:0:0:1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::",
            "::2:3:4:5:6:7:8", "1:2:3:4:5:6:1.2.3.4", "::192.0.2.1", "fe80::a:b", "0.0.0.0", "255.255.255.255",
            "010.1.1.1"})
    void literalsAreReadAsTheJdkReadsThem(String text) throws Exception {
        assertThat(IpAddresses.parse(text).orElseThrow(), is(InetAddress.getByName(text.replace("010.", "10."))));
    }

    @Test
    void anIpv4MappedIpv6AddressIsTheIpv4Address() throws Exception {
        InetAddress mapped = IpAddresses.parse("::ffff:192.0.2.1").orElseThrow();
        assertThat(mapped instanceof Inet4Address, is(true));
        assertThat(mapped, is(InetAddress.getByName("192.0.2.1")));
        assertThat(IpAddresses.parse("[::FFFF:c000:0201]:80").orElseThrow(), is(InetAddress.getByName("192.0.2.1")));
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
