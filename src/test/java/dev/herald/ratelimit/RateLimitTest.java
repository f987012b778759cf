package dev.herald.ratelimit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Map;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * The rate limit (docs/api.md#rate-limit) over real connections: 3 requests per 10 s here, trusted proxies
 * 127.0.0.1, 127.0.0.64/26 and 2001:db8::/32, IPv6 clients by their /64 (the default). Clients are distinct loopback addresses (127.0.0.x), one set per
 * test, so counts never carry over between tests.
 */
@ServerTest
class RateLimitTest extends HeraldServerTest {

    private static final String UNKNOWN_PUBLIC_PATH = "/api/v1/public/no/such/route";
    private static final String TRUSTED_PROXY = "127.0.0.1";
    private static final String OTHER_TRUSTED_PROXY = "127.0.0.70";

    private final URI uri;

    RateLimitTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of(
                "rate-limit.requests", "3",
                "rate-limit.window", "PT10S",
                "rate-limit.trusted-proxies.0", TRUSTED_PROXY,
                "rate-limit.trusted-proxies.1", "127.0.0.64/26",
                "rate-limit.trusted-proxies.2", "2001:db8::/32"));
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    @Test
    void everyCountedResponseCarriesTheRateLimitHeaders() throws IOException {
        RawHttp.Response first = get("127.0.0.11", UNKNOWN_PUBLIC_PATH);
        assertThat(first.status(), is(404));
        assertThat(first.headers().get("ratelimit-limit"), is("3"));
        assertThat(first.headers().get("ratelimit-remaining"), is("2"));
        assertThat(first.headers().get("ratelimit-reset"), is("10"));

        herald.clock().advance(Duration.ofMillis(2500));
        RawHttp.Response second = get("127.0.0.11", UNKNOWN_PUBLIC_PATH);
        assertThat(second.headers().get("ratelimit-remaining"), is("1"));
        // 7.5 s left, rounded up
        assertThat(second.headers().get("ratelimit-reset"), is("8"));
    }

    @Test
    void overTheLimitTheAnswerIs429WithRetryAfter() throws IOException {
        exhaust("127.0.0.12");
        herald.clock().advance(Duration.ofMillis(9001));
        RawHttp.Response refused = get("127.0.0.12", UNKNOWN_PUBLIC_PATH);
        assertThat(refused.status(), is(429));
        assertThat(refused.headers().get("content-type"), is("application/json"));
        assertThat(refused.body(), is("{\"error\":\"Too many requests from this IP, please try again later.\","
                                              + "\"code\":\"RATE_LIMIT_EXCEEDED\"}"));
        assertThat(refused.headers().get("retry-after"), is("1"));
        assertThat(refused.headers().get("ratelimit-remaining"), is("0"));
        assertThat(refused.headers().get("ratelimit-reset"), is("1"));
        assertThat(refused.headers().get("ratelimit-limit"), is("3"));
    }

    @Test
    void theWindowEndsItsLengthAfterTheFirstRequest() throws IOException {
        exhaust("127.0.0.13");
        herald.clock().advance(Duration.ofMillis(9999));
        assertThat(get("127.0.0.13", UNKNOWN_PUBLIC_PATH).status(), is(429));
        herald.clock().advance(Duration.ofMillis(1));
        RawHttp.Response fresh = get("127.0.0.13", UNKNOWN_PUBLIC_PATH);
        assertThat(fresh.status(), is(404));
        assertThat(fresh.headers().get("ratelimit-remaining"), is("2"));
        assertThat(fresh.headers().get("ratelimit-reset"), is("10"));
    }

    @Test
    void everyPublicRouteCountsAgainstTheSameBudget() throws IOException {
        String client = "127.0.0.14";
        assertThat(get(client, "/api/v1/public/" + TestHerald.randomKey() + "/notifications").status(), is(401));
        RawHttp.Response tracked = post(client, "/api/v1/public/track/nope");
        assertThat(tracked.status(), is(404));
        assertThat(tracked.headers().get("ratelimit-remaining"), is("1"));
        assertThat(get(client, UNKNOWN_PUBLIC_PATH).status(), is(404));
        RawHttp.Response refused = post(client, "/api/v1/public/track/nope/enhanced");
        assertThat(refused.status(), is(429));
        // The 429 has the shared error shape even on a tracking route (docs/api.md#rate-limit).
        assertThat(JsonBodies.object(refused.body()).getString("error"),
                   is("Too many requests from this IP, please try again later."));
    }

    @Test
    void routesOutsideThePublicApiAreNotCounted() throws IOException {
        String client = "127.0.0.15";
        // No admin token is configured here, so the management API answers 403.
        Map<String, Integer> outside = Map.of("/api/v1/admin/projects", 403, "/elsewhere", 404, "/api/v1/publicity", 404);
        for (int i = 0; i < 5; i++) {
            for (Map.Entry<String, Integer> route : outside.entrySet()) {
                RawHttp.Response response = get(client, route.getKey());
                assertThat(route.getKey(), response.status(), is(route.getValue()));
                assertThat(route.getKey(), response.headers().get("ratelimit-limit"), is(nullValue()));
            }
        }
        assertThat(get(client, UNKNOWN_PUBLIC_PATH).headers().get("ratelimit-remaining"), is("2"));
    }

    @Test
    void preflightsAreNotCounted() throws IOException {
        String client = "127.0.0.16";
        for (int i = 0; i < 5; i++) {
            RawHttp.Response preflight = send(client, "OPTIONS /api/v1/public/track/x HTTP/1.1\r\nHost: x\r\n"
                    + "Origin: https://app.example\r\nAccess-Control-Request-Method: POST");
            assertThat(preflight.status(), is(204));
            assertThat(preflight.headers().get("ratelimit-limit"), is(nullValue()));
        }
        assertThat(get(client, UNKNOWN_PUBLIC_PATH).headers().get("ratelimit-remaining"), is("2"));
    }

    @Test
    void eachClientAddressHasItsOwnBudget() throws IOException {
        exhaust("127.0.0.17");
        assertThat(get("127.0.0.18", UNKNOWN_PUBLIC_PATH).status(), is(404));
        assertThat(get("127.0.0.17", UNKNOWN_PUBLIC_PATH).status(), is(429));
    }

    @Test
    void forwardedForFromAnUntrustedPeerChangesNothing() throws IOException {
        String client = "127.0.0.19";
        for (int i = 0; i < 3; i++) {
            assertThat(getForwardedFor(client, "192.0.2." + i).status(), is(404));
        }
        assertThat(getForwardedFor(client, "192.0.2.99").status(), is(429));
    }

    @Test
    void aTrustedProxyForwardsEachClientSeparately() throws IOException {
        for (int i = 0; i < 3; i++) {
            assertThat(getForwardedFor(OTHER_TRUSTED_PROXY, "192.0.2.20").status(), is(404));
        }
        assertThat(getForwardedFor(OTHER_TRUSTED_PROXY, "192.0.2.20").status(), is(429));
        assertThat(getForwardedFor(TRUSTED_PROXY, "192.0.2.20").status(), is(429));
        assertThat(getForwardedFor(OTHER_TRUSTED_PROXY, "192.0.2.21").status(), is(404));
    }

    @Test
    void theClientIsTheRightMostHopThatIsNotATrustedProxy() throws IOException {
        for (int i = 0; i < 3; i++) {
            // Forged left-most entries change on every request; the hop our proxies saw stays the same.
            assertThat(getForwardedFor(TRUSTED_PROXY, "6.6.6." + i + ", 192.0.2.30, 127.0.0.80").status(), is(404));
        }
        assertThat(getForwardedFor(TRUSTED_PROXY, "192.0.2.30").status(), is(429));
        assertThat(getForwardedFor(TRUSTED_PROXY, "6.6.6.1").status(), is(404));
    }

    @Test
    void hopsInSeveralHeaderLinesAndIpv6AreRead() throws IOException {
        for (int i = 0; i < 3; i++) {
            RawHttp.Response response = send(TRUSTED_PROXY, "GET " + UNKNOWN_PUBLIC_PATH + " HTTP/1.1\r\nHost: x\r\n"
                    + "X-Forwarded-For: 9.9.9." + i + "\r\n"
                    + "X-Forwarded-For: [2001:db9::30]:4711, 2001:db8::5");
            assertThat(response.status(), is(404));
        }
        assertThat(getForwardedFor(TRUSTED_PROXY, "2001:db9:0:0:0:0:0:30").status(), is(429));
    }

    @Test
    void whenEveryHopIsTrustedTheLeftMostIsTheClient() throws IOException {
        for (int i = 0; i < 3; i++) {
            assertThat(getForwardedFor(TRUSTED_PROXY, "127.0.0.90, 127.0.0.91").status(), is(404));
        }
        assertThat(getForwardedFor(TRUSTED_PROXY, "127.0.0.90").status(), is(429));
    }

    @Test
    void garbageWhereTheClientShouldBeCountsTheProxy() throws IOException {
        String proxy = "127.0.0.100";
        for (int i = 0; i < 3; i++) {
            assertThat(getForwardedFor(proxy, "192.0.2.40, not-an-address-" + i).status(), is(404));
        }
        assertThat(get(proxy, UNKNOWN_PUBLIC_PATH).status(), is(429));
        assertThat(getForwardedFor(proxy, "192.0.2.40").status(), is(404));
    }

    /** The default /64 (Ipv6PrefixTest has the rest): one subscriber line is one client whatever address it picks. */
    @Test
    void ipv6ClientsInOneSlash64ShareOneBudget() throws IOException {
        for (String address : new String[] {"2001:db9:1:2::a", "2001:db9:1:2:ffff::1", "[2001:db9:1:2:1:2:3:4]:80"}) {
            assertThat(getForwardedFor(TRUSTED_PROXY, address).status(), is(404));
        }
        RawHttp.Response refused = getForwardedFor(TRUSTED_PROXY, "2001:db9:1:2::b");
        assertThat(refused.status(), is(429));
        assertThat(getForwardedFor(TRUSTED_PROXY, "2001:db9:1:3::a").status(), is(404));
        assertThat(getForwardedFor(TRUSTED_PROXY, "2001:db9:2:2::a").status(), is(404));
    }

    @Test
    void anIpv4MappedIpv6ClientIsCountedAsItsIpv4Address() throws IOException {
        for (int i = 0; i < 3; i++) {
            assertThat(getForwardedFor(TRUSTED_PROXY, i % 2 == 0 ? "::ffff:192.0.2.60" : "192.0.2.60").status(), is(404));
        }
        assertThat(getForwardedFor(TRUSTED_PROXY, "::FFFF:c000:023c").status(), is(429));
    }

    /**
     * "localhost" would resolve to 127.0.0.1, a trusted proxy: every hop trusted, 127.0.0.1 would be the client. Read
     * as the text it is, it is no address, and the proxy itself is counted.
     */
    @Test
    void aHostNameWhereTheClientShouldBeIsNeverResolved() throws IOException {
        String proxy = "127.0.0.101";
        String[] hostNames = {"localhost", ".a:b", "localhost:80"};
        for (String hostName : hostNames) {
            assertThat(getForwardedFor(proxy, hostName).status(), is(404));
        }
        assertThat(get(proxy, UNKNOWN_PUBLIC_PATH).status(), is(429));
    }

    private void exhaust(String client) throws IOException {
        for (int i = 0; i < 3; i++) {
            assertThat(get(client, UNKNOWN_PUBLIC_PATH).status(), is(404));
        }
    }

    private RawHttp.Response get(String from, String path) throws IOException {
        return send(from, "GET " + path + " HTTP/1.1\r\nHost: x");
    }

    private RawHttp.Response getForwardedFor(String from, String forwardedFor) throws IOException {
        return send(from, "GET " + UNKNOWN_PUBLIC_PATH + " HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + forwardedFor);
    }

    private RawHttp.Response post(String from, String path) throws IOException {
        byte[] body = "{\"type\":\"click\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return RawHttp.exchange(uri, InetAddress.getByName(from), "POST " + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length, body);
    }

    private RawHttp.Response send(String from, String head) throws IOException {
        return RawHttp.exchange(uri, InetAddress.getByName(from), head, new byte[0]);
    }
}
