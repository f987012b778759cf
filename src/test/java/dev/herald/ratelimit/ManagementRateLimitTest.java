package dev.herald.ratelimit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * docs/api.md#authentication: the management API has a per-client limit of its own ({@code admin.rate-limit}, 4
 * requests per minute here), counted before any credential is looked at, so neither forged session cookies nor
 * wrong tokens are answered without bound; the public API's count is another. Requests that present nothing to
 * look up (an {@code <img>} of another site's page, a preflight) are not counted: they cost nothing, and counting
 * them let any page lock its visitors out. Clients are loopback addresses
 * (127.0.5.x), one per test.
 */
@ServerTest
class ManagementRateLimitTest extends HeraldServerTest {

    private static final int LIMIT = 4;
    private static final String FORGED = "Cookie: __Host-herald-session=" + "A".repeat(64);

    private final URI uri;

    ManagementRateLimitTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of(
                "admin.tokens.0", AdminClient.TOKEN,
                "admin.rate-limit.requests", String.valueOf(LIMIT),
                "admin.rate-limit.window", "PT60S"));
    }

    @Test
    void aClientGetsItsLimitOfManagementRequestsThen429WithRetryAfter() throws IOException {
        String client = "127.0.5.1";
        assertThat(admin(client, FORGED).status(), is(401));
        assertThat(admin(client, "Authorization: Bearer " + AdminClient.TOKEN).status(), is(200));
        assertThat(admin(client, FORGED).status(), is(401));
        assertThat(admin(client, "Authorization: Bearer " + AdminClient.TOKEN).status(), is(200));

        RawHttp.Response refused = admin(client, "Authorization: Bearer " + AdminClient.TOKEN);

        assertThat(refused.status(), is(429));
        assertThat(refused.body(), containsString("\"code\":\"RATE_LIMIT_EXCEEDED\""));
        assertThat(refused.headers().get("retry-after"), is("60"));
        assertThat("another client has its own count",
                   admin("127.0.5.2", "Authorization: Bearer " + AdminClient.TOKEN).status(), is(200));
        herald.clock().advance(Duration.ofSeconds(61));
        assertThat(admin(client, "Authorization: Bearer " + AdminClient.TOKEN).status(), is(200));
    }

    @Test
    void whatAnotherSitesPageCanSendSpendsNothingOfAVisitorsLimit() throws IOException {
        String client = "127.0.5.4";
        for (int i = 0; i < 3 * LIMIT; i++) {
            assertThat(send(client, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: cross-site\r\n"
                    + "Sec-Fetch-Dest: image").status(), is(401));
            send(client, "OPTIONS /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nOrigin: https://elsewhere.example\r\n"
                    + "Access-Control-Request-Method: DELETE");
            assertThat(send(client, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: cross-site\r\n"
                    + FORGED).status(), is(403));
            String signIn = "{\"name\":\"alice\",\"token\":\"x\"}";
            assertThat(RawHttp.exchange(uri, InetAddress.getByName(client), "POST /api/v1/admin/session HTTP/1.1\r\n"
                    + "Host: x\r\nSec-Fetch-Site: cross-site\r\nContent-Type: text/plain\r\nContent-Length: "
                    + signIn.length(), signIn.getBytes(java.nio.charset.StandardCharsets.UTF_8)).status(), is(403));
        }
        for (int i = 0; i < LIMIT; i++) {
            assertThat("the visitor's own requests, " + i, admin(client, "Authorization: Bearer " + AdminClient.TOKEN)
                    .status(), is(200));
        }
        assertThat("the visitor's own requests are counted", admin(client, FORGED).status(), is(429));
    }

    @Test
    void thePublicApiIsNotCountedInTheManagementLimit() throws IOException {
        String client = "127.0.5.3";
        for (int i = 0; i < 2 * LIMIT; i++) {
            send(client, "GET /api/v1/public/notifications HTTP/1.1\r\nHost: x");
        }
        assertThat(admin(client, "Authorization: Bearer " + AdminClient.TOKEN).status(), is(200));
    }

    private RawHttp.Response admin(String from, String header) throws IOException {
        return send(from, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: same-origin\r\n"
                + header);
    }

    private RawHttp.Response send(String from, String head) throws IOException {
        return RawHttp.exchange(uri, InetAddress.getByName(from), head, new byte[0]);
    }
}
