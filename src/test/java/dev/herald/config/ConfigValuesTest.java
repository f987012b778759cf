package dev.herald.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Each form of setting, read or refused with the key, the value and the form it needs. The process tests
 * (StartFailuresTest, EnvironmentOverridesTest) show the same through real environment variables.
 */
class ConfigValuesTest {

    private static final String FILE = """
            admin:
              tokens: ["from-the-file"]
            cors:
              allowed-origins:
                first: "https://a.example"
            """;

    @Test
    void aValueOverAListReplacesItWhole() {
        Config config = config(Map.of("admin.tokens", "one, two ,"));
        assertThat(ConfigValues.list(config.get("admin.tokens")), is(List.of("one", "two")));
    }

    @Test
    void anEmptyValueOverAListLeavesNoEntry() {
        assertThat(ConfigValues.list(config(Map.of("admin.tokens", "")).get("admin.tokens")), is(List.of()));
    }

    @Test
    void aListAloneIsRead() {
        assertThat(ConfigValues.list(config(Map.of()).get("admin.tokens")), is(List.of("from-the-file")));
        assertThat(ConfigValues.list(config(Map.of()).get("rate-limit.trusted-proxies")), is(List.of()));
    }

    @Test
    void aWrongFormNamesKeyValueAndForm() {
        Config config = config(Map.of("limits.connections", "many", "db.startup-timeout", "30s",
                                      "feed.cache.enabled", "yes", "server.port", "-1"));
        assertThat(refusal(() -> ConfigValues.integer(config.get("limits.connections"), 1000)),
                   is("limits.connections (LIMITS_CONNECTIONS) is \"many\"; it must be a whole number, e.g. 1000"));
        assertThat(refusal(() -> ConfigValues.duration(config.get("db.startup-timeout"), Duration.ZERO)),
                   is("db.startup-timeout (DB_STARTUP_DASH_TIMEOUT) is \"30s\"; it must be an ISO-8601 duration, "
                              + "e.g. PT30S (30 seconds), PT5M (5 minutes), PT0.5S, P1D (1 day)"));
        assertThat(refusal(() -> ConfigValues.bool(config.get("feed.cache.enabled"), true)),
                   is("feed.cache.enabled (FEED_CACHE_ENABLED) is \"yes\"; it must be true or false"));
        assertThat(refusal(() -> ConfigValues.port(config.get("server.port"), 8080)),
                   is("server.port (SERVER_PORT) is \"-1\"; it must be a port from 1 to 65535, or 0 for any free one, "
                              + "e.g. 8080"));
    }

    @Test
    void aSectionWhereAValueBelongsIsRefused() {
        assertThat(refusal(() -> ConfigValues.string(config(Map.of()).get("cors"))),
                   is("cors (CORS) must be a single value, not a section"));
    }

    @Test
    void absentSettingsTakeTheirDefault() {
        Config config = config(Map.of());
        assertThat(ConfigValues.integer(config.get("limits.nothing"), 7), is(7));
        assertThat(ConfigValues.duration(config.get("limits.nothing"), Duration.ofSeconds(3)), is(Duration.ofSeconds(3)));
        assertThat(ConfigValues.bool(config.get("limits.nothing"), true), is(true));
    }

    @Test
    void environmentNamesFollowHelidonsMapping() {
        assertThat(ConfigValues.environmentName("rate-limit.trusted-proxies"), is("RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES"));
    }

    /** The map stands for the environment, over a file. */
    private static Config config(Map<String, String> environment) {
        return Config.builder(ConfigSources.create(environment), ConfigSources.create(FILE, MediaTypes.APPLICATION_X_YAML))
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource()
                .build();
    }

    private static String refusal(org.junit.jupiter.api.function.Executable read) {
        return assertThrows(BadSetting.class, read).getMessage();
    }
}
