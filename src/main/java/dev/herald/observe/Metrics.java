package dev.herald.observe;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What Herald counts, kept in memory since start and written in the Prometheus text format. Helidon's metrics
 * would bring Micrometer into a 60 MB image for a dozen series, so these are counted here.
 *
 * <p>Counting runs for every answer, so its series are found by position (route and method) rather than looked up
 * by a key built for each request.
 */
public final class Metrics {

    /**
     * Upper bounds of the latency buckets, seconds: from a cached feed answer to the stats' statement bound (10 s by
     * default) and past the read time-out (20 s by default); with 5 s the last, every stats answer near its bound
     * fell in +Inf.
     */
    private static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

    /** By route, then method; created on the first answer, so that only routes and methods seen are written. */
    private final AtomicReferenceArray<Series> series =
            new AtomicReferenceArray<>(RouteNames.count() * MethodNames.count());
    private final LongAdder rateLimited = new LongAdder();
    private final LongAdder simpleInteractions = new LongAdder();
    private final LongAdder enhancedInteractions = new LongAdder();

    /** Where answers to {@code method} on {@code route} are counted. */
    Series series(int route, int method) {
        int at = route * MethodNames.count() + method;
        Series existing = series.get(at);
        if (existing != null) {
            return existing;
        }
        Series created = new Series(MethodNames.name(method), RouteNames.name(route), interactionsOf(route));
        Series raced = series.compareAndExchange(at, null, created);
        return raced == null ? created : raced;
    }

    /** A request the rate limit answered 429. */
    void rateLimitRejected() {
        rateLimited.increment();
    }

    /** The series so far, in the Prometheus text format 0.0.4. */
    void writeTo(StringBuilder out) {
        out.append("# HELP herald_http_requests_total Requests answered, by method, route and status.\n")
                .append("# TYPE herald_http_requests_total counter\n");
        forEachSeries(each -> each.statuses.writeTo(out, "herald_http_requests_total", each.labels()));

        out.append("# HELP herald_http_request_duration_seconds Time from the request to the answer sent.\n")
                .append("# TYPE herald_http_request_duration_seconds histogram\n");
        forEachSeries(each -> each.latency.writeTo(out, "herald_http_request_duration_seconds", each.labels()));

        out.append("# HELP herald_rate_limit_rejections_total Requests refused with 429 by the rate limit.\n")
                .append("# TYPE herald_rate_limit_rejections_total counter\n")
                .append("herald_rate_limit_rejections_total ").append(rateLimited.sum()).append('\n');

        out.append("# HELP herald_interactions_stored_total Interactions answered 204 (committed, or a repeat of an eventId committed before), by endpoint.\n")
                .append("# TYPE herald_interactions_stored_total counter\n")
                .append("herald_interactions_stored_total{endpoint=\"simple\"} ").append(simpleInteractions.sum())
                .append('\n')
                .append("herald_interactions_stored_total{endpoint=\"enhanced\"} ").append(enhancedInteractions.sum())
                .append('\n');
    }

    private void forEachSeries(Consumer<Series> action) {
        for (int i = 0; i < series.length(); i++) {
            Series each = series.get(i);
            if (each != null) {
                action.accept(each);
            }
        }
    }

    private LongAdder interactionsOf(int route) {
        String name = RouteNames.name(route);
        if (!name.startsWith("/api/v1/public/track/")) {
            return null;
        }
        return name.endsWith("/enhanced") ? enhancedInteractions : simpleInteractions;
    }

    /** The series of one route and method: requests by status, and their latency. */
    final class Series {

        private final String method;
        private final String route;
        private final StatusCounts statuses = new StatusCounts();
        private final Latency latency = new Latency();
        /** Tracking answers 204 only once the interaction is committed; null on other routes. */
        private final LongAdder interactionsStored;

        private Series(String method, String route, LongAdder interactionsStored) {
            this.method = method;
            this.route = route;
            this.interactionsStored = interactionsStored;
        }

        void answered(int status, long nanos) {
            statuses.of(status).increment();
            latency.record(nanos / 1e9);
            if (status == 204 && interactionsStored != null) {
                interactionsStored.increment();
            }
        }

        private String labels() {
            return "method=\"" + method + "\",route=\"" + route + "\"";
        }
    }

    /**
     * Answers by status. A series sees few statuses, so they sit in a small array searched in order, replaced
     * whole when a status is first seen: no lookup key per answer, and any status code fits.
     */
    private static final class StatusCounts {

        private volatile StatusCount[] counts = new StatusCount[0];

        LongAdder of(int status) {
            for (StatusCount count : counts) {
                if (count.status() == status) {
                    return count.answers();
                }
            }
            return added(status);
        }

        private synchronized LongAdder added(int status) {
            for (StatusCount count : counts) {
                if (count.status() == status) {
                    return count.answers();
                }
            }
            StatusCount added = new StatusCount(status, new LongAdder());
            StatusCount[] more = Arrays.copyOf(counts, counts.length + 1);
            more[more.length - 1] = added;
            counts = more;
            return added.answers();
        }

        void writeTo(StringBuilder out, String name, String labels) {
            for (StatusCount count : counts) {
                out.append(name).append('{').append(labels).append(",status=\"").append(count.status()).append("\"} ")
                        .append(count.answers().sum()).append('\n');
            }
        }

        private record StatusCount(int status, LongAdder answers) {
        }
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
