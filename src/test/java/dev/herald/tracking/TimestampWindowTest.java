package dev.herald.tracking;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.herald.notification.Notification;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code tracking.timestamp-window.*} set to other values than the defaults (which {@link TrackingContract} covers):
 * one hour back, nothing ahead.
 */
@ServerTest
class TimestampWindowTest extends HeraldServerTest {

    private final Http1Client client;

    TimestampWindowTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.timestamp-window.past", "PT1H",
                                                      "tracking.timestamp-window.future", "PT0S"));
    }

    @Test
    void theConfiguredWindowHoldsToTheMillisecond() {
        herald.clock().set(START);
        Notification notification = herald.notification(herald.project()).save();
        assertThat(track(notification, "2026-11-22T09:00:00.000Z"), is(204));
        assertThat(track(notification, "2026-11-22T10:00:00.000Z"), is(204));
        assertThat(track(notification, "2026-11-22T08:59:59.999Z"), is(400));
        assertThat(track(notification, "2026-11-22T10:00:00.001Z"), is(400));
        herald.clock().advance(Duration.ofMillis(1));
        assertThat(track(notification, "2026-11-22T10:00:00.001Z"), is(204));
        assertThat(track(notification, "2026-11-22T09:00:00.000Z"), is(400));
    }

    /**
     * An event stamped t may be sent from t - future to t + past: its event id is kept for the window's whole length
     * after the first copy (an outside trial: with 7 days ahead, ids kept past + 1 day let a copy count twice).
     */
    @Test
    void eventIdsAreKeptForTheWindowsWholeLength() {
        assertThat(new TimestampWindow(Duration.ofDays(30), Duration.ofDays(1)).eventIdsKept(), is(Duration.ofDays(31)));
        assertThat(new TimestampWindow(Duration.ofDays(30), Duration.ofDays(7)).eventIdsKept(), is(Duration.ofDays(37)));
        assertThat(new TimestampWindow(Duration.ofHours(1), Duration.ZERO).eventIdsKept(), is(Duration.ofHours(1)));
        assertThat("a window too long to count keeps them all",
                   new TimestampWindow(Duration.ofDays(365L * 400_000_000), Duration.ofDays(1)).eventIdsKept(),
                   is(Duration.ofMillis(Long.MAX_VALUE / 2)));
    }

    @Test
    void theDefaultsAreThirtyDaysBackAndOneDayAhead() {
        TimestampWindow window = TimestampWindow.from(Config.empty());
        long now = START.toEpochMilli();
        long day = Duration.ofDays(1).toMillis();
        assertThat(window.contains(now - 30 * day, now), is(true));
        assertThat(window.contains(now - 30 * day - 1, now), is(false));
        assertThat(window.contains(now + day, now), is(true));
        assertThat(window.contains(now + day + 1, now), is(false));
    }

    @Test
    void aNegativeBoundStopsTheStart() {
        for (Map<String, String> settings : List.of(Map.of("past", "-PT1S"), Map.of("future", "-P1D"))) {
            Config config = Config.just(ConfigSources.create(settings));
            assertThrows(IllegalArgumentException.class, () -> TimestampWindow.from(config));
        }
    }

    @Test
    void anEndlessWindowDoesNotOverflow() {
        Config config = Config.just(ConfigSources.create(Map.of("past", "PT9223372036854775807S")));
        assertThat(TimestampWindow.from(config).contains(0, START.toEpochMilli()), is(true));
    }

    private int track(Notification notification, String timestamp) {
        try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notification.id() + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"click\",\"timestamp\":\"" + timestamp + "\"}")) {
            return response.status().code();
        }
    }
}
