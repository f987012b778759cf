package dev.herald.observe;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import dev.herald.api.Bodies;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.feed.FeedCacheFigures;
import dev.herald.identity.TokenCacheFigures;
import dev.herald.storage.PoolFigures;
import dev.herald.storage.Reports;
import dev.herald.tracking.LookupFigures;
import dev.herald.tracking.WriterFigures;
import dev.herald.webhook.DeliveryWorker;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /observe/metrics}: Herald's counters, the connection pool's figures and the JVM's (memory, GC, threads),
 * in the Prometheus text format.
 * Like health, neither rate limited nor authenticated: keep the port off the internet or filter the path at the
 * proxy.
 */
public final class MetricsService implements HttpService {

    private static final List<PoolGauge> POOL_GAUGES = List.of(
            new PoolGauge(PoolFigures::active, "herald_db_pool_active_connections", "Connections in use."),
            new PoolGauge(PoolFigures::idle, "herald_db_pool_idle_connections", "Connections open and free."),
            new PoolGauge(PoolFigures::total, "herald_db_pool_connections", "Connections open."),
            new PoolGauge(PoolFigures::waiting, "herald_db_pool_pending_requests",
                          "Requests waiting for a connection."));

    private final Metrics metrics;
    private final Supplier<PoolFigures> pool;
    private final Supplier<FeedCacheFigures> feedCache;
    private final Supplier<TokenCacheFigures> tokenCache;
    private final Supplier<WriterFigures> writer;
    private final Supplier<LookupFigures> lookups;
    private final Supplier<DeliveryWorker.Figures> webhooks;
    private final Supplier<Reports.Figures> stats;

    /**
     * @param pool      the serving pool's figures at the moment of the call
     * @param feedCache the feed cache's
     * @param writer    the interaction writer's
     * @param lookups   tracking's unknown-notification check's
     * @param webhooks  the webhook delivery worker's
     * @param stats     the stats' pool's
     */
    public MetricsService(Metrics metrics, Supplier<PoolFigures> pool, Supplier<FeedCacheFigures> feedCache,
                          Supplier<TokenCacheFigures> tokenCache, Supplier<WriterFigures> writer,
                          Supplier<LookupFigures> lookups, Supplier<DeliveryWorker.Figures> webhooks,
                          Supplier<Reports.Figures> stats) {
        this.metrics = metrics;
        this.pool = pool;
        this.feedCache = feedCache;
        this.tokenCache = tokenCache;
        this.writer = writer;
        this.lookups = lookups;
        this.webhooks = webhooks;
        this.stats = stats;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::metrics)
                .head("/", this::metrics)
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    private void metrics(ServerRequest request, ServerResponse response) {
        StringBuilder out = new StringBuilder(4096);
        metrics.writeTo(out);
        writePoolFigures(out, pool.get());
        writeFeedCacheFigures(out, feedCache.get());
        writeTokenCacheFigures(out, tokenCache.get());
        writeWriterFigures(out, writer.get());
        writeLookupFigures(out, lookups.get());
        writeWebhookFigures(out, webhooks.get());
        writeStatsFigures(out, stats.get());
        JvmMetrics.writeTo(out);
        response.header(ResponseHeaders.of(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8"));
        response.header(ResponseHeaders.of(HeaderNames.CACHE_CONTROL, "no-store"));
        Bodies.send(request, response, out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The pool's gauges, in the order of {@link #POOL_GAUGES}. */
    static void writePoolFigures(StringBuilder out, PoolFigures figures) {
        for (PoolGauge gauge : POOL_GAUGES) {
            gauge(out, gauge.metric(), gauge.help(), gauge.value().applyAsInt(figures));
        }
    }

    static void writeFeedCacheFigures(StringBuilder out, FeedCacheFigures figures) {
        gauge(out, "herald_feed_cache_keys", "Keys whose feed answer is held in memory.", figures.keys());
        gauge(out, "herald_feed_cache_bytes", "Body bytes of the feed answers held in memory.", figures.bytes());
        counter(out, "herald_feed_cache_hits_total", "Feed answers served from memory.", figures.hits());
        counter(out, "herald_feed_cache_misses_total", "Feed answers built from the database.", figures.misses());
        gauge(out, "herald_feed_cache_user_answers", "Answers for users held, one per key and set of targeted"
                + " notifications matched.", figures.userAnswers());
        counter(out, "herald_feed_cache_user_hits_total", "Requests with a user token served an answer held for"
                + " their set.", figures.userHits());
        counter(out, "herald_feed_cache_user_builds_total", "Answers for users built from a key's feed in memory.",
                figures.userBuilds());
        gauge(out, "herald_feed_cache_variants", "Keys' feeds held in another language than their project's default,"
                + " one per key and language served.", figures.variants());
        counter(out, "herald_feed_cache_languages_shed_total", "Feed requests answered in their project's default"
                + " language because the one asked for was not held and answers built for single requests held all"
                + " they may.", figures.languagesShed());
    }

    static void writeTokenCacheFigures(StringBuilder out, TokenCacheFigures figures) {
        gauge(out, "herald_user_token_cache_entries", "Verified user tokens held in memory.", figures.entries());
        gauge(out, "herald_user_token_cache_bytes", "Estimated heap of the verified user tokens held.",
              figures.bytes());
        counter(out, "herald_user_token_cache_hits_total", "Requests whose user token was found verified.",
                figures.hits());
        counter(out, "herald_user_token_verifications_total", "User tokens verified (signature and claims), refused"
                + " ones included.", figures.verifications());
    }

    /** The stats' own pool (storage.Reports), beside the serving pool's {@code herald_db_pool_*}. */
    static void writeStatsFigures(StringBuilder out, Reports.Figures figures) {
        counter(out, "herald_stats_timeouts_total", "Stats statements the database ended at their bound (half of"
                + " limits.read-timeout at most), each answered 503 STATS_TIMEOUT.", figures.timedOut());
        gauge(out, "herald_stats_pool_active_connections", "Connections of the stats' pool in use.",
              figures.pool().active());
        gauge(out, "herald_stats_pool_connections", "Connections of the stats' pool open.", figures.pool().total());
    }

    static void writeWebhookFigures(StringBuilder out, DeliveryWorker.Figures figures) {
        gauge(out, "herald_webhook_pending_deliveries", "Webhook deliveries to enabled endpoints waiting for an"
                + " attempt, of every instance; -1 when the database did not answer.", figures.pending());
        gauge(out, "herald_webhook_oldest_pending_seconds", "Age of the oldest event not yet delivered to an enabled"
                + " endpoint.", figures.oldestPendingSeconds());
        counter(out, "herald_webhook_deliveries_total", "Webhook deliveries answered 2xx, by this instance.",
                figures.delivered());
        counter(out, "herald_webhook_failures_total", "Webhook attempts that failed (any other status, time-out,"
                + " refused address, 410), by this instance.", figures.failed());
        counter(out, "herald_webhook_endpoints_disabled_total", "Webhook endpoints this instance disabled: 410, or"
                + " failing longer than webhooks.disable-after.", figures.disabled());
        gauge(out, "herald_webhook_in_flight", "Webhook deliveries being attempted now by this instance.",
              figures.inFlight());
    }

    static void writeWriterFigures(StringBuilder out, WriterFigures figures) {
        gauge(out, "herald_tracking_queue_depth", "Interactions waiting for the writer.", figures.queued());
        counter(out, "herald_tracking_batches_total", "Transactions of interactions committed.", figures.batches());
        counter(out, "herald_tracking_written_total", "Interactions committed by the writer.", figures.written());
        counter(out, "herald_tracking_failed_total", "Interactions the writer answered 500: not committed, or not"
                + " in time. A tracking request that failed before the writer (its notification not looked up) is in"
                + " herald_http_requests_total's 500s only.", figures.failed());
        counter(out, "herald_tracking_commit_seconds_total", "Time in committed transactions of interactions.",
                figures.commitSeconds());
        gauge(out, "herald_tracking_in_flight", "Transactions of interactions in flight now.", figures.inFlight());
        gauge(out, "herald_tracking_in_flight_limit", "Transactions of interactions that may be in flight now, as"
                + " adapted to the commit time.", figures.inFlightLimit());
        gauge(out, "herald_tracking_in_flight_max", "Transactions of interactions that may ever be in flight at once"
                + " (tracking.batch.max-in-flight).", figures.maxInFlight());
        gauge(out, "herald_tracking_in_flight_peak", "The most transactions of interactions in flight at once since"
                + " start.", figures.inFlightPeak());
        gauge(out, "herald_tracking_commit_latency_seconds", "Commit time of the last transactions of interactions,"
                + " a moving average.", figures.recentCommitSeconds());
        counter(out, "herald_tracking_repeated_events_total", "Interactions answered 204 without being stored again:"
                + " their project had stored one with the same eventId (counted in herald_tracking_written_total"
                + " too).", figures.repeated());
    }

    static void writeLookupFigures(StringBuilder out, LookupFigures figures) {
        out.append("# HELP herald_tracking_notification_lookups_total Tracking's checks that a notification exists, by "
                        + "what answered: memory, or the database.\n")
                .append("# TYPE herald_tracking_notification_lookups_total counter\n")
                .append("herald_tracking_notification_lookups_total{answered_by=\"memory\"} ")
                .append(figures.fromMemory()).append('\n')
                .append("herald_tracking_notification_lookups_total{answered_by=\"database\"} ")
                .append(figures.fromDatabase()).append('\n');
    }

    /** Whole or fractional: a boxed value is written as its primitive would be (Long.toString, Double.toString). */
    private static void gauge(StringBuilder out, String metric, String help, Number value) {
        figure(out, metric, help, "gauge", value);
    }

    private static void counter(StringBuilder out, String metric, String help, Number value) {
        figure(out, metric, help, "counter", value);
    }

    private static void figure(StringBuilder out, String metric, String help, String type, Number value) {
        out.append("# HELP ").append(metric).append(' ').append(help).append('\n')
                .append("# TYPE ").append(metric).append(' ').append(type).append('\n')
                .append(metric).append(' ').append(value).append('\n');
    }

    /** A gauge read from the pool's figures. */
    private record PoolGauge(ToIntFunction<PoolFigures> value, String metric, String help) {
    }
}
