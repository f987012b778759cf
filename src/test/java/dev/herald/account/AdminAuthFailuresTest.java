package dev.herald.account;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Failed admin authentications are throttled per client: 5 per 60 s here, then 429 on every admin route until the
 * window that began with the first failure ends, whatever token is presented. Clients are distinct loopback
 * addresses (127.0.2.x), one set per test; 127.0.2.100 is a trusted proxy. The clock only moves forward.
 */
@ServerTest
class AdminAuthFailuresTest extends HeraldServerTest {

    private static final int LIMIT = 5;
    private static final String PROXY = "127.0.2.100";
    private static final String TOO_MANY = "{\"error\":\"Too many failed authentication attempts from this IP, please"
            + " try again later.\",\"code\":\"TOO_MANY_AUTH_FAILURES\"}";

    private final URI uri;

    AdminAuthFailuresTest(URI uri) {
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of(
                "admin.tokens.0", AdminClient.TOKEN,
                "admin.auth-failures.limit", String.valueOf(LIMIT),
                "admin.auth-failures.window", "PT60S",
                "rate-limit.trusted-proxies.0", PROXY));
    }

    /**
     * The throttle writes one line a minute at most: each test starts a minute after the last line, with what the
     * previous test held back already written (by the first attempt after its minute).
     */
    @BeforeEach
    void aMinuteAfterTheLastLine() throws IOException {
        herald.clock().advance(Duration.ofSeconds(61));
        assertThat(admin("127.0.2.200", AdminClient.TOKEN).status(), is(200));
        herald.clock().advance(Duration.ofSeconds(61));
    }

    @Test
    void theLimitIsExactlyFiveFailuresThenEveryAdminRouteIs429() throws IOException {
        String client = "127.0.2.1";
        for (int i = 0; i < LIMIT; i++) {
            assertThat(admin(client, "wrong-" + i).status(), is(401));
        }
        RawHttp.Response refused = admin(client, "wrong");
        assertThat(refused.status(), is(429));
        assertThat(refused.headers().get("content-type"), is("application/json"));
        assertThat(refused.body(), is(TOO_MANY));
        assertThat(refused.headers().get("retry-after"), is("60"));
        assertThat(refused.headers().get("www-authenticate"), is(nullValue()));
        assertThat(send(client, "GET /api/v1/admin/nothing HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                + AdminClient.TOKEN).status(), is(429));
        assertThat(send(client, "DELETE /api/v1/admin/api-keys/x HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer x")
                           .status(), is(429));
        assertThat("a request without any credential guesses nothing: 401, blocked or not",
                   send(client, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x").status(), is(401));
    }

    /** Blocked means blocked: answering the right token otherwise would tell a guesser which guess was right. */
    @Test
    void aBlockedClientIs429EvenWithTheRightTokenUntilItsWindowEnds() throws IOException {
        String client = "127.0.2.2";
        block(client);
        herald.clock().advance(Duration.ofMillis(59_500));
        RawHttp.Response stillRefused = admin(client, AdminClient.TOKEN);
        assertThat(stillRefused.status(), is(429));
        assertThat(stillRefused.headers().get("retry-after"), is("1"));
        herald.clock().advance(Duration.ofMillis(500));
        assertThat(admin(client, AdminClient.TOKEN).status(), is(200));
        assertThat("a fresh window", admin(client, "wrong").status(), is(401));
    }

    @Test
    void theRightTokenFromAnotherClientIsUnaffected() throws IOException {
        block("127.0.2.3");
        assertThat(admin("127.0.2.4", AdminClient.TOKEN).status(), is(200));
        assertThat(admin("127.0.2.4", "wrong").status(), is(401));
        assertThat(admin("127.0.2.3", AdminClient.TOKEN).status(), is(429));
    }

    /**
     * What another site's page makes a visitor's browser send: an image or a form without any credential (the session
     * cookie is SameSite=Strict), a preflight. It guesses nothing, so it must not lock the visitor out.
     */
    @Test
    void requestsWithoutAnyCredentialAndPreflightsAreNotFailures() throws IOException {
        String client = "127.0.2.5";
        for (int i = 0; i < 3 * LIMIT; i++) {
            assertThat(send(client, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nSec-Fetch-Site: cross-site"
                    + "\r\nSec-Fetch-Dest: image").status(), is(401));
            assertThat(send(client, "OPTIONS /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nOrigin: https://elsewhere"
                    + ".example\r\nAccess-Control-Request-Method: POST").status(), is(401));
        }
        assertThat(admin(client, AdminClient.TOKEN).status(), is(200));
        for (int i = 0; i < LIMIT; i++) {
            assertThat("another scheme is a credential, and a wrong one",
                       send(client, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Basic eDp5")
                               .status(), is(401));
        }
        assertThat(admin(client, AdminClient.TOKEN).status(), is(429));
    }

    /**
     * Found by the outside review: an empty POST to the sign-in (a form without fields, {@code fetch} in
     * {@code no-cors} mode, {@code sendBeacon}: what any page can make its visitors' browsers send, where
     * {@code Sec-Fetch-Site} is not sent) was read as a sign-in with no name and token, and counted: twelve locked
     * the address out. A sign-in without both is a 400 that guesses nothing; one of another media type a 415.
     */
    @Test
    void signInsWithoutANameAndATokenAreNotFailures() throws IOException {
        String client = "127.0.2.9";
        for (int i = 0; i < 3 * LIMIT; i++) {
            assertThat(send(client, "POST /api/v1/admin/session HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 0").status(), is(400));
            assertThat(send(client, "POST /api/v1/admin/session HTTP/1.1\r\nHost: x\r\nContent-Length: 0").status(),
                       is(400));
            String form = "name=alice&token=x";
            assertThat(RawHttp.exchange(uri, InetAddress.getByName(client), "POST /api/v1/admin/session HTTP/1.1\r\n"
                    + "Host: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                    + form.length(), form.getBytes(StandardCharsets.US_ASCII)).status(), is(415));
        }
        assertThat(admin(client, AdminClient.TOKEN).status(), is(200));
    }

    @Test
    void successesNeitherCountNorForgiveFailures() throws IOException {
        String client = "127.0.2.6";
        for (int i = 0; i < LIMIT - 1; i++) {
            assertThat(admin(client, "wrong").status(), is(401));
        }
        for (int i = 0; i < 2 * LIMIT; i++) {
            assertThat(admin(client, AdminClient.TOKEN).status(), is(200));
        }
        assertThat(admin(client, "wrong").status(), is(401));
        assertThat(admin(client, AdminClient.TOKEN).status(), is(429));
    }

    @Test
    void oneWarningPerBurstThatNamesTheClientAndNeverTheToken() throws IOException {
        String client = "127.0.2.7";
        try (AuthFailureLog log = new AuthFailureLog()) {
            for (int i = 0; i < LIMIT + 10; i++) {
                admin(client, "guessed-secret-" + i);
            }
            assertThat(log.warnings(), is(List.of("5 failed admin authentications from 127.0.2.7 within 60 s; its admin"
                                                          + " requests are answered 429 for the next 60 s")));
            herald.clock().advance(Duration.ofSeconds(60));
            for (int i = 0; i < LIMIT + 10; i++) {
                admin(client, "guessed-secret-" + i);
            }
            assertThat("one more for the next burst, a minute later", log.warnings().size(), is(2));
            for (String warning : log.warnings()) {
                assertThat(warning, not(containsString("guessed-secret")));
            }
        }
    }

    /** However many fail at once, exactly five are told 401 and the warning is written once. */
    @Test
    void sixteenConcurrentClientsOfOneAddressGetExactlyFive401s() throws Exception {
        String client = "127.0.2.8";
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        try (AuthFailureLog log = new AuthFailureLog()) {
            CyclicBarrier start = new CyclicBarrier(16);
            try (ExecutorService pool = Executors.newFixedThreadPool(16)) {
                List<Future<?>> done = new java.util.ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    done.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 4; i++) {
                            statuses.add(admin(client, "wrong").status());
                        }
                        return null;
                    }));
                }
                for (Future<?> each : done) {
                    each.get(60, TimeUnit.SECONDS);
                }
            }
            assertThat(statuses.stream().filter(status -> status == 401).count(), is((long) LIMIT));
            assertThat(statuses.stream().filter(status -> status == 429).count(), is(64L - LIMIT));
            assertThat(log.warnings().size(), is(1));
        }
    }

    @Test
    void behindATrustedProxyTheForwardedClientIsCounted() throws IOException {
        for (int i = 0; i < LIMIT; i++) {
            assertThat(adminVia("192.0.2.9", "wrong").status(), is(401));
        }
        assertThat(adminVia("192.0.2.9", AdminClient.TOKEN).status(), is(429));
        assertThat(adminVia("192.0.2.10", AdminClient.TOKEN).status(), is(200));
        assertThat("the proxy itself is not blocked", admin(PROXY, AdminClient.TOKEN).status(), is(200));
    }

    @Test
    void ipv6ClientsAreCountedByTheirSlash64() throws IOException {
        try (AuthFailureLog log = new AuthFailureLog()) {
            for (int i = 0; i < LIMIT; i++) {
                assertThat(adminVia("2001:db8:7:7::" + (i + 1), "wrong").status(), is(401));
            }
            assertThat(adminVia("2001:db8:7:7:ffff::1", AdminClient.TOKEN).status(), is(429));
            assertThat(adminVia("2001:db8:7:8::1", AdminClient.TOKEN).status(), is(200));
            assertThat(log.warnings().getFirst(), containsString(" from 2001:db8:7:7:0:0:0:0/64 within "));
        }
    }

    private void block(String client) throws IOException {
        for (int i = 0; i < LIMIT; i++) {
            assertThat(admin(client, "wrong").status(), is(401));
        }
    }

    private RawHttp.Response admin(String from, String token) throws IOException {
        return send(from, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x"
                + (token == null ? "" : "\r\nAuthorization: Bearer " + token));
    }

    private RawHttp.Response adminVia(String forwardedFor, String token) throws IOException {
        return send(PROXY, "GET /api/v1/admin/projects HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: " + forwardedFor
                + "\r\nAuthorization: Bearer " + token);
    }

    private RawHttp.Response send(String from, String head) throws IOException {
        return RawHttp.exchange(uri, InetAddress.getByName(from), head, new byte[0]);
    }
}
