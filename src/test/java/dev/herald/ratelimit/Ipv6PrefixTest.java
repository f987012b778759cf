package dev.herald.ratelimit;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import dev.herald.config.HeraldConfig;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.sameInstance;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * IPv6 clients are counted by their network (docs/behaviour.md#rate-limit): the keys the rate limit compares.
 * RateLimitTest shows the default /64 through the server.
 */
class Ipv6PrefixTest {

    private final Ipv6Prefix slash64 = new Ipv6Prefix(64);

    @Test
    void addressesInOneSlash64AreOneClient() throws Exception {
        assertThat(slash64.clientOf(ip("2001:db8:1:2::1")), is(slash64.clientOf(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"))));
        assertThat(slash64.clientOf(ip("2001:db8:1:2::1")), is(slash64.clientOf(ip("2001:db8:1:2:a:b:c:d"))));
    }

    @Test
    void addressesInDifferentSlash64sAreDifferentClients() throws Exception {
        assertThat(slash64.clientOf(ip("2001:db8:1:2::1")), is(not(slash64.clientOf(ip("2001:db8:1:3::1")))));
        assertThat(slash64.clientOf(ip("2001:db8:1:2::1")), is(not(slash64.clientOf(ip("2001:db9:1:2::1")))));
    }

    @Test
    void aSlash56GroupsWider() throws Exception {
        Ipv6Prefix slash56 = new Ipv6Prefix(56);
        assertThat(slash56.clientOf(ip("2001:db8:1:200::1")), is(slash56.clientOf(ip("2001:db8:1:2ff:1::1"))));
        assertThat(slash64.clientOf(ip("2001:db8:1:200::1")), is(not(slash64.clientOf(ip("2001:db8:1:2ff:1::1")))));
        assertThat(slash56.clientOf(ip("2001:db8:1:200::1")), is(not(slash56.clientOf(ip("2001:db8:1:300::1")))));
    }

    @Test
    void aPrefixOffAByteBoundaryMasksBits() throws Exception {
        Ipv6Prefix slash60 = new Ipv6Prefix(60);
        assertThat(slash60.clientOf(ip("2001:db8:1:20::1")), is(slash60.clientOf(ip("2001:db8:1:2f::1"))));
        assertThat(slash60.clientOf(ip("2001:db8:1:20::1")), is(not(slash60.clientOf(ip("2001:db8:1:30::1")))));
    }

    @Test
    void atSlash128EveryAddressIsItsOwnClient() throws Exception {
        Ipv6Prefix slash128 = new Ipv6Prefix(128);
        assertThat(slash128.clientOf(ip("2001:db8::1")), is(not(slash128.clientOf(ip("2001:db8::2")))));
        assertThat(slash128.clientOf(ip("2001:db8::1")), is(slash128.clientOf(ip("2001:db8:0:0:0:0:0:1"))));
    }

    @Test
    void ipv4AddressesAreCountedWholeAndAsTheyAre() throws Exception {
        InetAddress ipv4 = ip("192.0.2.1");
        assertThat(slash64.clientOf(ipv4), is(sameInstance(ipv4)));
        assertThat(new Ipv6Prefix(32).clientOf(ip("192.0.2.1")), is(not(new Ipv6Prefix(32).clientOf(ip("192.0.2.2")))));
    }

    /** Java hands over mapped addresses as Inet4Address, but an Inet6Address can be built from the bytes. */
    @Test
    void anIpv4MappedIpv6AddressIsCountedAsItsIpv4Address() throws Exception {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(ip("192.0.2.1").getAddress(), 0, mapped, 12, 4);
        InetAddress asIpv6 = Inet6Address.getByAddress(null, mapped, -1);
        assertThat(slash64.clientOf(asIpv6), is(ip("192.0.2.1")));
        assertThat(slash64.clientOf(asIpv6), is(not(slash64.clientOf(ip("192.0.2.2")))));
    }

    @Test
    void aNetworkIsLoggedInItsShortForm() throws Exception {
        assertThat(ClientAddresses.describe(slash64.clientOf(ip("2001:db8:1:2:3:4:5:6"))), is("2001:db8:1:2:0:0:0:0/64"));
        assertThat(ClientAddresses.describe(slash64.clientOf(ip("192.0.2.1"))), is("192.0.2.1"));
    }

    @ParameterizedTest
    @ValueSource(ints = {32, 48, 56, 64, 128})
    void prefixesFrom32To128AreAllowed(int length) {
        assertThat(settings(Map.of("rate-limit.ipv6-prefix", String.valueOf(length))).ipv6Prefix().length(), is(length));
    }

    @Test
    void theDefaultIsSlash64() {
        assertThat(settings(Map.of()).ipv6Prefix().length(), is(64));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 16, 31, 129})
    void otherPrefixesStopTheStartNamingTheSetting(int length) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("rate-limit.ipv6-prefix", String.valueOf(length))));
        assertThat(refused.getMessage(), is("rate-limit.ipv6-prefix must be from 32 to 128, not " + length));
    }

    private static RateLimitSettings settings(Map<String, String> values) {
        return RateLimitSettings.from(HeraldConfig.withDefaults(List.of(ConfigSources.create(values))).get("rate-limit"));
    }

    private static InetAddress ip(String literal) {
        return IpAddresses.parse(literal).orElseThrow();
    }
}
