package dev.herald.config;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.spi.ConfigSource;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The environment source answers "nothing" for a key only when no variable can set it or a key below it in any
 * spelling Helidon tries (README.md#configuration); for every other key Helidon answers.
 */
class EnvironmentSourceTest {

    private static final Map<String, String> ENVIRONMENT = Map.of(
            "SERVER_PORT", "8081",
            "RATE_LIMIT_REQUESTS", "5",
            "CORS_ALLOWED_DASH_ORIGINS", "https://a.example",
            "rate_dash_limit_window", "PT1S",
            "db.connection.url", "jdbc:h2:mem:x",
            "DB_CONNECTION_MAXIMUMPOOLSIZE", "4",
            "ADMIN_ACCOUNTS_0_NAME", "ops",
            "PATH", "/usr/bin");

    @Test
    void everySpellingHelidonTriesMayHoldTheKey() {
        EnvironmentSource source = EnvironmentSource.of(ENVIRONMENT);
        for (String key : List.of("server.port", "rate-limit.requests", "rate-limit.window", "cors.allowed-origins",
                                  "db.connection.url", "db.connection.maximumPoolSize", "path")) {
            assertThat(key, source.mayHold(key), is(true));
        }
    }

    @Test
    void aSectionMayHoldWhatIsBelowIt() {
        EnvironmentSource source = EnvironmentSource.of(ENVIRONMENT);
        for (String key : List.of("server", "rate-limit", "cors", "db", "db.connection", "admin", "admin.accounts",
                                  "admin.accounts.0")) {
            assertThat(key, source.mayHold(key), is(true));
        }
    }

    @Test
    void aKeyNoVariableCanSetIsAnsweredAtOnce() {
        EnvironmentSource source = EnvironmentSource.of(ENVIRONMENT);
        for (String key : List.of("observe.port", "server.host", "admin.tokens", "admin.accounts.1", "feed",
                                  "rate-limit.trusted-proxies", "db.connection.username", "serverport", "pa")) {
            assertThat(key, source.mayHold(key), is(false));
        }
    }

    @Test
    void theSpellingIsUpperCaseWithUnderscores() {
        assertThat(EnvironmentSource.spelling("cors.allowed-origins_x.é9"), is("CORS_ALLOWED_ORIGINS_X__9"));
    }

    /** The configuration of this test's own process is the same through either source. */
    @Test
    void theConfigurationIsTheOneHelidonsSourceGives() {
        assertThat(nodes(EnvironmentSource.create()), is(nodes(ConfigSources.environmentVariables())));
    }

    private static Map<String, String> nodes(ConfigSource environment) {
        Config config = HeraldConfig.withDefaults(List.of(() -> environment));
        Map<String, String> nodes = new TreeMap<>();
        config.traverse().forEach(node -> nodes.put(node.key().toString(),
                node.type() + (node.isLeaf() ? "=" + node.asString().orElse("<none>") : "")));
        return nodes;
    }
}
