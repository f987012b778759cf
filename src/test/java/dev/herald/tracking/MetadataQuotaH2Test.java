package dev.herald.tracking;

import java.time.Duration;
import java.util.Map;

import dev.herald.notification.Notification;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * Stored metadata is bounded per client and per project (issue 20: 16 KB per conversion from 10 addresses stored
 * 152 MB in 20 s). Here 16 KiB a client and 48 KiB a project per hour; clients are told apart by X-Forwarded-For from
 * a trusted proxy (this test's own address).
 */
@ServerTest
class MetadataQuotaH2Test extends HeraldServerTest {

    /** 16 KiB of metadata in all: the largest a request may carry. */
    private static final String LARGEST = "{\"type\":\"conversion\",\"metadata\":{\"m\":\"" + "x".repeat(16_384 - 8) + "\"}}";
    private static final String SMALL = "{\"type\":\"conversion\",\"metadata\":{\"plan\":\"pro\"}}";

    private final Http1Client client;

    MetadataQuotaH2Test(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("tracking.metadata.client-kib", "16",
                                                      "tracking.metadata.project-kib", "48",
                                                      "rate-limit.trusted-proxies.0", "127.0.0.1"));
    }

    @Test
    void aClientAndAProjectStoreAtMostTheirQuota() throws Exception {
        Notification notification = herald.notification(herald.project()).save();
        String id = notification.id();
        assertThat(status(id, "192.0.2.1", LARGEST), is(204));
        try (Http1ClientResponse over = track(id, "192.0.2.1", SMALL)) {
            assertThat(over.status().code(), is(429));
            assertThat(JsonBodies.object(over.as(String.class)).getString("code"), is("METADATA_QUOTA_EXCEEDED"));
            assertThat(over.headers().first(HeaderNames.RETRY_AFTER).orElseThrow(), is("3600"));
        }
        assertThat("without metadata, not counted", status(id, "192.0.2.1",
                                                          "{\"type\":\"conversion\"}"), is(204));
        assertThat(status(id, "192.0.2.2", LARGEST), is(204));
        assertThat(status(id, "192.0.2.3", LARGEST), is(204));
        assertThat("the project's 48 KiB are taken", status(id, "192.0.2.4", SMALL), is(429));
        assertThat("nothing refused was stored", herald.interactions(id), hasSize(4));

        herald.clock().advance(Duration.ofHours(1));
        assertThat(status(id, "192.0.2.1", LARGEST), is(204));
    }

    private int status(String id, String from, String body) {
        try (Http1ClientResponse response = track(id, from, body)) {
            return response.status().code();
        }
    }

    private Http1ClientResponse track(String id, String from, String body) {
        return client.post("/api/v1/public/track/" + id + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .header(HeaderNames.X_FORWARDED_FOR, from)
                .submit(body);
    }
}
