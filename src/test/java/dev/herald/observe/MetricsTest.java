package dev.herald.observe;

import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * {@code /observe/metrics}: requests and latency per route (not per key or id), rate-limit rejections,
 * interactions stored and the connection pool, in the Prometheus text format.
 */
@ServerTest
class MetricsTest extends HeraldServerTest {

    private static final int LIMIT = 20;

    private final Http1Client client;
    private final Http1Client observe;

    MetricsTest(Http1Client client, @Socket(ObserveSettings.SOCKET) Http1Client observe) {
        this.client = client;
        this.observe = observe;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("rate-limit.requests", String.valueOf(LIMIT),
                                                      "admin.tokens.0", AdminClient.TOKEN));
    }

    @AfterEach
    void newRateLimitWindow() {
        herald.clock().advance(Duration.ofSeconds(61));
    }

    @Test
    void requestsAreCountedPerRouteWithTheirLatency() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String series = "{method=\"GET\",route=\"/api/v1/public/{apiKey}/notifications\"";
        String before = metrics();
        for (int i = 0; i < 3; i++) {
            get("/api/v1/public/" + key.key() + "/notifications");
        }
        get("/api/v1/public/" + herald.key(project).key() + "/notifications");
        String answered = "herald_http_requests_total" + series + ",status=\"200\"}";
        String timed = "herald_http_request_duration_seconds_count" + series + "}";
        assertThat(settled(answered, count(before, answered) + 4), is(count(before, answered) + 4));
        assertThat(settled(timed, count(before, timed) + 4), is(count(before, timed) + 4));
        String after = metrics();
        assertThat(count(after, "herald_http_request_duration_seconds_bucket" + series + ",le=\"+Inf\"}"),
                   is(count(after, "herald_http_request_duration_seconds_count" + series + "}")));
        assertThat("no series per key", after, not(containsString(key.key())));
    }

    /** The heap is the limit operators meet: it and the GC and threads are there, under the usual names. */
    @Test
    void theJvmsMemoryGcAndThreadsAreThereUnderPrometheusUsualNames() {
        Runtime runtime = Runtime.getRuntime();
        String metrics = metrics();
        long heapUsed = count(metrics, "jvm_memory_used_bytes{area=\"heap\"}");
        assertThat(heapUsed > 0 && heapUsed <= runtime.totalMemory(), is(true));
        assertThat(count(metrics, "jvm_memory_max_bytes{area=\"heap\"}"), is(runtime.maxMemory()));
        assertThat(count(metrics, "jvm_memory_committed_bytes{area=\"nonheap\"}") > 0, is(true));
        for (var collector : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            String series = "jvm_gc_collection_seconds_count{gc=\"" + collector.getName() + "\"}";
            assertThat(series, metrics, containsString("\n" + series + " "));
        }
        assertThat(count(metrics, "jvm_threads_current") >= Thread.getAllStackTraces().size() / 2, is(true));
        assertThat(count(metrics, "jvm_threads_peak") >= count(metrics, "jvm_threads_current"), is(true));
        long resident = count(metrics, "process_resident_memory_bytes");
        assertThat("resident memory, at least the heap in use", resident >= heapUsed, is(true));
        assertThat(count(metrics, "process_open_fds") > 3, is(true));
        assertThat(metrics, containsString("\nprocess_cpu_seconds_total "));
        // The text format: each metric's TYPE once, before its samples.
        List<String> types = metrics.lines().filter(line -> line.startsWith("# TYPE ")).toList();
        assertThat(types.size(), is(Set.copyOf(types).size()));
        for (String line : metrics.lines().filter(line -> !line.startsWith("#")).toList()) {
            assertThat(line, line.matches("[a-z_]+(\\{[a-z_]+=\"[^\"]*\"(,[a-z_]+=\"[^\"]*\")*\\})? -?[0-9.E+-]+"),
                       is(true));
        }
    }

    @Test
    void storedInteractionsAreCountedPerEndpoint() {
        Notification notification = herald.notification(herald.project()).save();
        long before = count(metrics(), "herald_interactions_stored_total{endpoint=\"enhanced\"}");
        try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notification.id() + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"conversion\"}")) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
        }
        try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notification.id() + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"refund\"}")) {
            assertThat("refused, not stored", response.status(), is(Status.BAD_REQUEST_400));
        }
        assertThat(settled("herald_interactions_stored_total{endpoint=\"enhanced\"}", before + 1), is(before + 1));
    }

    @Test
    void rateLimitRejectionsAreCounted() {
        long before = count(metrics(), "herald_rate_limit_rejections_total");
        int refused = 0;
        for (int i = 0; i <= LIMIT; i++) {
            try (Http1ClientResponse response = client.get("/api/v1/public/nokey/notifications").request()) {
                refused += response.status() == Status.TOO_MANY_REQUESTS_429 ? 1 : 0;
            }
        }
        assertThat(refused > 0, is(true));
        assertThat(settled("herald_rate_limit_rejections_total", before + refused), is(before + refused));
    }

    /** The admin sign-in throttle's 429 is counted on its route, not as a rate-limit rejection. */
    @Test
    void blockedAdminAttemptsAreNotRateLimitRejections() {
        String before = metrics();
        for (int i = 0; i <= 10; i++) {
            try (Http1ClientResponse response = client.get("/api/v1/admin/projects")
                    .header(HeaderNames.AUTHORIZATION, "Bearer wrong").request()) {
                assertThat(response.status(), is(i < 10 ? Status.UNAUTHORIZED_401 : Status.TOO_MANY_REQUESTS_429));
            }
        }
        String blocked = "herald_http_requests_total{method=\"GET\",route=\"/api/v1/admin/projects\",status=\"429\"}";
        assertThat(settled(blocked, count(before, blocked) + 1), is(count(before, blocked) + 1));
        assertThat(count(metrics(), "herald_rate_limit_rejections_total"),
                   is(count(before, "herald_rate_limit_rejections_total")));
    }

    @Test
    void theConnectionPoolIsDescribed() {
        try (Http1ClientResponse response = observe.get("/observe/health/ready").request()) {
            assertThat(response.status(), is(Status.OK_200));
        }
        String metrics = metrics();
        assertThat(metrics, containsString("# TYPE herald_db_pool_connections gauge\n"));
        assertThat(count(metrics, "herald_db_pool_connections") > 0, is(true));
        assertThat(metrics, containsString("\nherald_db_pool_active_connections "));
        assertThat(metrics, containsString("\nherald_db_pool_pending_requests 0\n"));
    }

    @Test
    void aConnectionInUseIsCounted() throws Exception {
        long before = count(metrics(), "herald_db_pool_active_connections");
        try (Connection held = herald.serving().pool().connection()) {
            assertThat(count(metrics(), "herald_db_pool_active_connections"), is(before + 1));
        }
        assertThat(count(metrics(), "herald_db_pool_active_connections"), is(before));
    }

    @Test
    void inventedMethodsShareOneSeries() {
        for (String method : new String[] {"BREW", "WHEN"}) {
            try (Http1ClientResponse response = client.method(io.helidon.http.Method.create(method))
                    .path("/api/v1/public/track/n1").request()) {
                assertThat(response.status(), is(Status.METHOD_NOT_ALLOWED_405));
            }
        }
        String other = "herald_http_requests_total{method=\"OTHER\",route=\"/api/v1/public/track/{notificationId}\","
                + "status=\"405\"}";
        assertThat(settled(other, 2), is(2L));
        assertThat(metrics(), not(containsString("BREW")));
    }

    @Test
    void everyRouteTemplateNamesItsOwnPaths() {
        for (String template : RouteNames.templates()) {
            assertThat(RouteNames.of(template.replaceAll("\\{[^}]+}", "x1")), is(template));
        }
        assertThat(RouteNames.of("/api/v1/public/k/notifications/extra"), is(RouteNames.UNMATCHED));
        assertThat(RouteNames.of("/wp-admin"), is(RouteNames.UNMATCHED));
    }

    private void get(String path) {
        try (Http1ClientResponse response = client.get(path).request()) {
            assertThat(path, response.status(), is(Status.OK_200));
        }
    }

    private String metrics() {
        try (Http1ClientResponse response = observe.get("/observe/metrics").request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().get(HeaderNames.CONTENT_TYPE).get(),
                       is("text/plain; version=0.0.4; charset=utf-8"));
            return response.as(String.class);
        }
    }

    /**
     * The value of one series once it has reached {@code expected}, or after 5 s: an answer is counted once it
     * is sent, which can be a moment after the client has read it.
     */
    private long settled(String series, long expected) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        long value = count(metrics(), series);
        while (value != expected && System.nanoTime() < deadline) {
            Thread.onSpinWait();
            value = count(metrics(), series);
        }
        return value;
    }

    /** The value of one series, 0 when it is not there yet. */
    private static long count(String metrics, String series) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(series + " ")) {
                return (long) Double.parseDouble(line.substring(series.length() + 1));
            }
        }
        return 0;
    }
}
