package dev.herald.ratelimit;

import java.util.List;
import java.util.Map;

import dev.herald.config.BadSetting;
import dev.herald.config.HeraldConfig;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
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
}
