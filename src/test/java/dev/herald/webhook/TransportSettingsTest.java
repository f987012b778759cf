package dev.herald.webhook;

import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.herald.config.BadSetting;
import dev.herald.config.HeraldConfig;
import dev.herald.config.KnownSettings;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TransportSettingsTest {

    @Test
    void theDefaultsOpenNothingAndBoundAnAttemptTo15Seconds() throws Exception {
        TransportSettings settings = TransportSettings.from(webhooks(Map.of()));

        assertThat(settings.connectTimeout(), is(Duration.ofSeconds(5)));
        assertThat(settings.timeout(), is(Duration.ofSeconds(15)));
        assertThat(settings.addressPolicy().refusal(InetAddress.getByName("10.1.2.3")).isPresent(), is(true));
    }

    @Test
    void allowedAddressesOpenTheirRangesFromTheEnvironmentsCommaSeparatedList() throws Exception {
        TransportSettings settings = TransportSettings.from(webhooks(Map.of(
                "webhooks.allowed-addresses", "10.20.0.0/16, fd12::/16", "webhooks.connect-timeout", "PT1S",
                "webhooks.timeout", "PT30S")));

        assertThat(settings.addressPolicy().refusal(InetAddress.getByName("10.20.1.2")), is(Optional.empty()));
        assertThat(settings.addressPolicy().refusal(InetAddress.getByName("fd12::1")), is(Optional.empty()));
        assertThat(settings.addressPolicy().refusal(InetAddress.getByName("10.21.1.2")).isPresent(), is(true));
        assertThat(settings.connectTimeout(), is(Duration.ofSeconds(1)));
        assertThat(settings.timeout(), is(Duration.ofSeconds(30)));
    }

    @Test
    void anAllowedAddressThatIsNoRangeNamesTheSettingAndTheForm() {
        BadSetting refused = assertThrows(BadSetting.class, () -> TransportSettings.from(webhooks(Map.of(
                "webhooks.allowed-addresses", "10.0.0.0/8, intranet.example"))));

        assertThat(refused.getMessage(), is("webhooks.allowed-addresses (WEBHOOKS_ALLOWED_DASH_ADDRESSES): Not an IP "
                                            + "address or CIDR range: \"intranet.example\"; write an address or a CIDR "
                                            + "range, e.g. 10.0.0.0/8 or fd00::/8"));
    }

    @Test
    void aTimeoutOverAMinuteOrNotPositiveStopsTheStart() {
        assertThrows(BadSetting.class, () -> TransportSettings.from(webhooks(Map.of("webhooks.timeout", "PT5M"))));
        assertThrows(BadSetting.class, () -> TransportSettings.from(webhooks(Map.of("webhooks.timeout", "PT0S"))));
        assertThrows(BadSetting.class,
                     () -> TransportSettings.from(webhooks(Map.of("webhooks.connect-timeout", "PT0S"))));
    }

    @Test
    void theSettingsAreKnownAndAMisspeltOneIsWarnedOf() {
        KnownSettings known = KnownSettings.bundled();

        assertThat(known.check(List.of("webhooks.allowed-addresses.0", "webhooks.connect-timeout", "webhooks.timeout"),
                               key -> "test", true), is(empty()));
        assertThat(known.check(List.of("webhooks.alowed-addresses"), key -> "test", true),
                   is(List.of("webhooks.alowed-addresses (test) is not a setting Herald knows (did you mean "
                              + "webhooks.allowed-addresses?); it is ignored")));
    }

    private static Config webhooks(Map<String, String> values) {
        return HeraldConfig.withDefaults(List.of(ConfigSources.create(values))).get("webhooks");
    }
}
