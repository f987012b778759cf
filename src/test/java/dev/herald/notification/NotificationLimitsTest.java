package dev.herald.notification;

import java.util.List;
import java.util.Map;

import dev.herald.config.HeraldConfig;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code limits.*}: the documented defaults, in the bundled configuration and without it, and no limit that could
 * not hold.
 */
class NotificationLimitsTest {

    @Test
    void theDefaultsAre32KiBOfMessageAnd1MiBOfFeed() {
        NotificationLimits bundled = NotificationLimits.from(HeraldConfig.withDefaults(List.of()).get("limits"));
        assertThat(bundled, is(new NotificationLimits(32_768, 1_048_576)));
        assertThat(NotificationLimits.from(Config.empty().get("limits")), is(bundled));
    }

    @Test
    void bothAreConfigurable() {
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                "limits.message-bytes", "1000", "limits.feed-bytes", "50000"))));
        assertThat(NotificationLimits.from(config.get("limits")), is(new NotificationLimits(1000, 50_000)));
    }

    @Test
    void limitsThatCouldNotHoldAreRefusedAtStart() {
        assertThrows(IllegalArgumentException.class, () -> new NotificationLimits(0, 1_048_576));
        assertThrows(IllegalArgumentException.class, () -> new NotificationLimits(32_768, 1));
    }
}
