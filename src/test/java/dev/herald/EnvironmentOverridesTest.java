package dev.herald;

import java.net.URI;
import java.nio.file.Path;
import java.util.Map;

import dev.herald.support.ChildHerald;
import dev.herald.support.RawHttp;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * An environment variable replaces a list set in the file, whole: an operator who rotates admin tokens through the
 * environment must not leave the file's token working. Each list setting, in a Herald of its own, as it is run; and
 * a HikariCP setting, whose camelCase name an environment variable can only give in capitals.
 */
class EnvironmentOverridesTest {

    private static final String FILE_TOKEN = "file-0123456789abcdef0123456789abcdef";
    private static final String ENV_TOKEN = "env-0123456789abcdef0123456789abcdef";

    @TempDir
    Path directory;

    @Test
    void everyListFromTheEnvironmentReplacesTheFilesList() throws Exception {
        String yaml = ChildHerald.onDatabase("jdbc:h2:file:./data/herald") + """
                    maximumPoolSize: 7
                admin:
                  tokens: ["%s"]
                cors:
                  allowed-origins: ["https://file.example"]
                rate-limit:
                  requests: 2
                  trusted-proxies: ["10.0.0.0/8"]
                """.formatted(FILE_TOKEN);
        Map<String, String> environment = Map.of(
                "ADMIN_TOKENS", ENV_TOKEN,
                "CORS_ALLOWED_DASH_ORIGINS", "https://env.example",
                "RATE_DASH_LIMIT_TRUSTED_DASH_PROXIES", "127.0.0.1",
                // HikariCP's camelCase name, as an environment variable can spell it.
                "DB_CONNECTION_MAXIMUMPOOLSIZE", "3");
        try (ChildHerald herald = ChildHerald.start(directory, yaml, environment)) {
            URI server = URI.create("http://127.0.0.1:" + herald.port());

            assertThat(admin(server, ENV_TOKEN), is(200));
            assertThat("the file's token no longer works", admin(server, FILE_TOKEN), is(401));

            assertThat(allowedOrigin(server, "https://env.example"), is("https://env.example"));
            assertThat("the file's origin is no longer allowed", allowedOrigin(server, "https://file.example"),
                       nullValue());

            // Only a trusted proxy's X-Forwarded-For is believed: with 127.0.0.1 trusted, each forwarded client has
            // a limit of its own; with the file's 10.0.0.0/8 they would all share 127.0.0.1's.
            assertThat(feedFrom(server, "203.0.113.10"), is(not(429)));
            assertThat(feedFrom(server, "203.0.113.10"), is(not(429)));
            assertThat("the third from one client is past its limit", feedFrom(server, "203.0.113.10"), is(429));
            assertThat("another client behind the trusted proxy has a limit of its own",
                       feedFrom(server, "203.0.113.11"), is(not(429)));
            assertThat("the pool fills to the environment's size, not the file's", poolSize(herald), is(3L));
            assertThat("the JVM's code for a stop by SIGTERM", herald.stop(), is(143));
        }
    }

    /** Open connections once the pool has filled (it does so in the background): the largest seen within 5 s. */
    private static long poolSize(ChildHerald herald) throws Exception {
        URI observe = URI.create("http://127.0.0.1:" + herald.observePort());
        long largest = 0;
        for (long deadline = System.nanoTime() + 5_000_000_000L; System.nanoTime() < deadline; Thread.sleep(100)) {
            for (String line : RawHttp.exchange(observe, "GET /observe/metrics HTTP/1.1\r\nHost: x").body().split("\n")) {
                if (line.startsWith("herald_db_pool_connections ")) {
                    largest = Math.max(largest, Long.parseLong(line.substring(line.indexOf(' ') + 1).strip()));
                }
            }
        }
        return largest;
    }

    private static int admin(URI server, String token) throws Exception {
        return RawHttp.exchange(server, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + token).status();
    }

    private static String allowedOrigin(URI server, String origin) throws Exception {
        return RawHttp.exchange(server, "GET /api/v1/public/nokey/notifications HTTP/1.1\r\nHost: x\r\nOrigin: "
                + origin + "\r\nX-Forwarded-For: 198.51.100." + Math.abs(origin.hashCode() % 200))
                .headers().get("access-control-allow-origin");
    }

    /** Get Notifications with an unknown key: 401 under the limit, 429 past it. */
    private static int feedFrom(URI server, String forwardedFor) throws Exception {
        return RawHttp.exchange(server, "GET /api/v1/public/nokey/notifications HTTP/1.1\r\nHost: x\r\n"
                + "X-Forwarded-For: " + forwardedFor).status();
    }
}
