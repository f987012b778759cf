package dev.herald.ratelimit;

import java.util.List;
import java.util.Map;

import dev.herald.config.BadSetting;
import dev.herald.config.HeraldConfig;
import dev.herald.support.LoggerLines;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RateLimitSettingsTest {

    @Test
    void aTrustedProxyThatIsNoRangeNamesTheSettingAndTheForm() {
        BadSetting refused = assertThrows(BadSetting.class, () -> RateLimitSettings.from(HeraldConfig.withDefaults(
                List.of(ConfigSources.create(Map.of("rate-limit.trusted-proxies", "10.0.0.0/8, 10.0.0.0/33"))))
                                                                                          .get("rate-limit")));
        assertThat(refused.getMessage(), is("rate-limit.trusted-proxies (RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES): Bad prefix "
                + "length in CIDR range: \"10.0.0.0/33\"; write an address or a CIDR range, e.g. 10.0.0.0/8 or "
                + "2001:db8::/32"));
    }

    /**
     * 0.0.0.0/0 pasted from an example lets any client choose its own address: allowed (a test set-up may want it),
     * but said at start and at each reload that sets it. A network's own range, and 10.0.0.0/8 or fc00::/7, are not.
     */
    @Test
    void aTrustedRangeWiderThanANetworkIsWarnedOf() {
        try (LoggerLines log = new LoggerLines(ClientAddresses.class.getName())) {
            ClientAddresses clients = new ClientAddresses(settings("10.0.0.0/8, fc00::/7, 192.168.1.7, 2001:db8::/32"));
            assertThat(log.warnings(), is(List.of()));
            clients.reconfigure(settings("0.0.0.0/0, ::/0, 10.0.0.0/7, 2000:0::/3, 2000:0:0:1::/3"));
            assertThat(log.warnings().stream().map(line -> line.substring(0, line.indexOf(','))).toList(),
                       contains("rate-limit.trusted-proxies holds 0.0.0.0/0", "rate-limit.trusted-proxies holds ::/0",
                                "rate-limit.trusted-proxies holds 10.0.0.0/7", "rate-limit.trusted-proxies holds 2000::/3",
                                "rate-limit.trusted-proxies holds 2000:0:0:1::/3"));
            assertThat(log.warnings().getFirst(), endsWith("escape the rate limit and the per-client connection limit; "
                    + "list your proxies' own addresses instead"));
        }
    }

    private static RateLimitSettings settings(String trustedProxies) {
        return RateLimitSettings.from(HeraldConfig.withDefaults(
                List.of(ConfigSources.create(Map.of("rate-limit.trusted-proxies", trustedProxies)))).get("rate-limit"));
    }
}
