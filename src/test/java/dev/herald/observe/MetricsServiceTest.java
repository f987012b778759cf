package dev.herald.observe;

import dev.herald.feed.FeedCacheFigures;
import dev.herald.identity.TokenCacheFigures;
import dev.herald.storage.PoolFigures;
import dev.herald.tracking.WriterFigures;
import dev.herald.webhook.DeliveryWorker;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

/**
 * Each pool gauge shows its own figure (MetricsTest checks them on a live pool).
 */
class MetricsServiceTest {

    @Test
    void eachPoolFigureHasItsGauge() {
        StringBuilder out = new StringBuilder();

        MetricsService.writePoolFigures(out, new PoolFigures(1, 2, 3, 4));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_db_pool_active_connections 1\n"));
        assertThat(metrics, containsString("\nherald_db_pool_idle_connections 2\n"));
        assertThat(metrics, containsString("\nherald_db_pool_connections 3\n"));
        assertThat(metrics, containsString("\nherald_db_pool_pending_requests 4\n"));
        assertThat(metrics, containsString("\n# TYPE herald_db_pool_pending_requests gauge\n"));
    }

    @Test
    void eachFeedCacheFigureHasItsSeries() {
        StringBuilder out = new StringBuilder();

        MetricsService.writeFeedCacheFigures(out, new FeedCacheFigures(5, 6000, 70, 8, 3, 40, 4, 9, 11));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_feed_cache_keys 5\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_bytes 6000\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_hits_total 70\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_misses_total 8\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_user_answers 3\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_user_hits_total 40\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_user_builds_total 4\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_variants 9\n"));
        assertThat(metrics, containsString("\n# TYPE herald_feed_cache_variants gauge\n"));
        assertThat(metrics, containsString("\nherald_feed_cache_languages_shed_total 11\n"));
        assertThat(metrics, containsString("\n# TYPE herald_feed_cache_hits_total counter\n"));
        assertThat(metrics, containsString("\n# TYPE herald_feed_cache_keys gauge\n"));
    }

    @Test
    void eachTokenCacheFigureHasItsSeries() {
        StringBuilder out = new StringBuilder();

        MetricsService.writeTokenCacheFigures(out, new TokenCacheFigures(7, 8000, 90, 11));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_user_token_cache_entries 7\n"));
        assertThat(metrics, containsString("\nherald_user_token_cache_bytes 8000\n"));
        assertThat(metrics, containsString("\nherald_user_token_cache_hits_total 90\n"));
        assertThat(metrics, containsString("\nherald_user_token_verifications_total 11\n"));
        assertThat(metrics, containsString("\n# TYPE herald_user_token_cache_hits_total counter\n"));
    }

    @Test
    void eachWriterFigureHasItsSeries() {
        StringBuilder out = new StringBuilder();

        MetricsService.writeWriterFigures(out, new WriterFigures(3, 40, 500, 6, 1.5, 2, 3, 8, 4, 0.002, 7));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_tracking_queue_depth 3\n"));
        assertThat(metrics, containsString("\nherald_tracking_batches_total 40\n"));
        assertThat(metrics, containsString("\nherald_tracking_written_total 500\n"));
        assertThat(metrics, containsString("\nherald_tracking_failed_total 6\n"));
        assertThat(metrics, containsString("\nherald_tracking_commit_seconds_total 1.5\n"));
        assertThat(metrics, containsString("\n# TYPE herald_tracking_queue_depth gauge\n"));
        assertThat(metrics, containsString("\nherald_tracking_in_flight 2\n"));
        assertThat(metrics, containsString("\nherald_tracking_in_flight_limit 3\n"));
        assertThat(metrics, containsString("\nherald_tracking_in_flight_max 8\n"));
        assertThat(metrics, containsString("\nherald_tracking_in_flight_peak 4\n"));
        assertThat(metrics, containsString("\nherald_tracking_commit_latency_seconds 0.002\n"));
        assertThat(metrics, containsString("\nherald_tracking_repeated_events_total 7\n"));
        assertThat(metrics, containsString("\n# TYPE herald_tracking_repeated_events_total counter\n"));
    }

    @Test
    void eachWebhookFigureHasItsSeries() {
        StringBuilder out = new StringBuilder();

        MetricsService.writeWebhookFigures(out, new DeliveryWorker.Figures(12, 3.5, 40, 7, 1, 2));

        String metrics = "\n" + out;
        assertThat(metrics, containsString("\nherald_webhook_pending_deliveries 12\n"));
        assertThat(metrics, containsString("\nherald_webhook_oldest_pending_seconds 3.5\n"));
        assertThat(metrics, containsString("\nherald_webhook_deliveries_total 40\n"));
        assertThat(metrics, containsString("\nherald_webhook_failures_total 7\n"));
        assertThat(metrics, containsString("\nherald_webhook_endpoints_disabled_total 1\n"));
        assertThat(metrics, containsString("\nherald_webhook_in_flight 2\n"));
        assertThat(metrics, containsString("\n# TYPE herald_webhook_pending_deliveries gauge\n"));
    }
}
