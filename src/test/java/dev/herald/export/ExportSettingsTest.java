package dev.herald.export;

import java.time.Duration;
import java.util.Map;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ExportSettingsTest {

    private static final Duration MAX_WAIT = Duration.ofMillis(1500);

    @Test
    void theDefaultsSettleFiveMinutesAndBoundAnAnswerToEightMebibytes() {
        ExportSettings settings = ExportSettings.from(Config.empty(), MAX_WAIT);
        assertThat(settings, is(new ExportSettings(Duration.ofMinutes(5), 100, 8 * 1024 * 1024)));
    }

    /** A window no longer than a batch's wait would hand out rows whose batch may still commit below the cursor. */
    @Test
    void aSettleWindowNotLongerThanTheBatchesWaitIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                                                        () -> ExportSettings.from(export("settle-window", "PT1.5S"),
                                                                                  MAX_WAIT));
        assertThat(refused.getMessage(), containsString("tracking.export.settle-window must be longer than"));
    }

    @Test
    void pageRowsAndAnswerBytesOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> ExportSettings.from(export("page-rows", "0"), MAX_WAIT));
        assertThrows(IllegalArgumentException.class, () -> ExportSettings.from(export("page-rows", "1001"), MAX_WAIT));
        assertThrows(IllegalArgumentException.class,
                     () -> ExportSettings.from(export("answer-bytes", "65535"), MAX_WAIT));
    }

    private static Config export(String key, String value) {
        return Config.just(ConfigSources.create(Map.of(key, value)));
    }
}
