package dev.herald.observe;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

/**
 * What Herald counts, kept in memory since start and written in the Prometheus text format. Helidon's metrics
 * would bring Micrometer into a 60 MB image for a dozen series, so these are counted here.
 */
public final class Metrics {

    /** Upper bounds of the latency buckets, seconds: from a cached feed answer to the 2 s database limit. */
    private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};

    private final Map<Request, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<Route, Latency> latencies = new ConcurrentHashMap<>();
    private final LongAdder rateLimited = new LongAdder();
    private final Map<String, LongAdder> interactions = new ConcurrentHashMap<>();

    void answered(String method, String route, int status, long nanos) {
        requests.computeIfAbsent(new Request(method, route, status), key -> new LongAdder()).increment();
        latencies.computeIfAbsent(new Route(method, route), key -> new Latency()).record(nanos / 1e9);
        if (status == 429) {
            rateLimited.increment();
        }
        // Tracking answers 204 only once the interaction is committed.
        if (status == 204 && route.startsWith("/api/v1/public/track/")) {
            String endpoint = route.endsWith("/enhanced") ? "enhanced" : "simple";
            interactions.computeIfAbsent(endpoint, key -> new LongAdder()).increment();
        }
    }

    /** The series so far, in the Prometheus text format 0.0.4. */
    void writeTo(StringBuilder out) {
        out.append("# HELP herald_http_requests_total Requests answered, by method, route and status.\n")
                .append("# TYPE herald_http_requests_total counter\n");
        requests.forEach((request, count) -> out.append("herald_http_requests_total{method=\"").append(request.method())
                .append("\",route=\"").append(request.route()).append("\",status=\"").append(request.status())
                .append("\"} ").append(count.sum()).append('\n'));

        out.append("# HELP herald_http_request_duration_seconds Time from the request to the answer sent.\n")
                .append("# TYPE herald_http_request_duration_seconds histogram\n");
        latencies.forEach((route, latency) -> latency.writeTo(out, "herald_http_request_duration_seconds",
                "method=\"" + route.method() + "\",route=\"" + route.route() + "\""));

        out.append("# HELP herald_rate_limit_rejections_total Requests refused with 429 by the rate limit.\n")
                .append("# TYPE herald_rate_limit_rejections_total counter\n")
                .append("herald_rate_limit_rejections_total ").append(rateLimited.sum()).append('\n');

        out.append("# HELP herald_interactions_stored_total Interactions committed (answered 204), by endpoint.\n")
                .append("# TYPE herald_interactions_stored_total counter\n");
        for (String endpoint : new String[] {"simple", "enhanced"}) {
            LongAdder count = interactions.get(endpoint);
            out.append("herald_interactions_stored_total{endpoint=\"").append(endpoint).append("\"} ")
                    .append(count == null ? 0 : count.sum()).append('\n');
        }
    }

    private record Request(String method, String route, int status) {
    }

    private record Route(String method, String route) {
    }

    private static final class Latency {

        /** One per bound, and the last one for what is slower than every bound. */
        private final LongAdder[] buckets = new LongAdder[BUCKETS.length + 1];
        private final DoubleAdder sum = new DoubleAdder();

        Latency() {
            for (int i = 0; i < buckets.length; i++) {
                buckets[i] = new LongAdder();
            }
        }

        void record(double seconds) {
            int bucket = 0;
            while (bucket < BUCKETS.length && seconds > BUCKETS[bucket]) {
                bucket++;
            }
            buckets[bucket].increment();
            sum.add(seconds);
        }

        /** Buckets are cumulative in the exposition format; the count is the last of them, so they agree. */
        void writeTo(StringBuilder out, String name, String labels) {
            long cumulative = 0;
            for (int i = 0; i < BUCKETS.length; i++) {
                cumulative += buckets[i].sum();
                out.append(name).append("_bucket{").append(labels).append(",le=\"").append(BUCKETS[i]).append("\"} ")
                        .append(cumulative).append('\n');
            }
            long total = cumulative + buckets[BUCKETS.length].sum();
            out.append(name).append("_bucket{").append(labels).append(",le=\"+Inf\"} ").append(total).append('\n')
                    .append(name).append("_sum{").append(labels).append("} ").append(sum.sum()).append('\n')
                    .append(name).append("_count{").append(labels).append("} ").append(total).append('\n');
        }
    }
}
