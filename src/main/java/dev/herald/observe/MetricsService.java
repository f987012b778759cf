package dev.herald.observe;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import dev.herald.storage.PoolFigures;
import dev.herald.web.RouteFallbacks;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /observe/metrics}: Herald's counters and the connection pool's figures, in the Prometheus text format.
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

    /**
     * @param pool the serving pool's figures at the moment of the call
     */
    public MetricsService(Metrics metrics, Supplier<PoolFigures> pool) {
        this.metrics = metrics;
        this.pool = pool;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::metrics)
                .any("/", RouteFallbacks.methodNotAllowed("GET"));
    }

    private void metrics(ServerRequest request, ServerResponse response) {
        StringBuilder out = new StringBuilder(4096);
        metrics.writeTo(out);
        writePoolFigures(out, pool.get());
        response.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        response.header(HeaderNames.CACHE_CONTROL, "no-store");
        response.send(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** The pool's gauges, in the order of {@link #POOL_GAUGES}. */
    static void writePoolFigures(StringBuilder out, PoolFigures figures) {
        for (PoolGauge gauge : POOL_GAUGES) {
            out.append("# HELP ").append(gauge.metric()).append(' ').append(gauge.help()).append('\n')
                    .append("# TYPE ").append(gauge.metric()).append(" gauge\n")
                    .append(gauge.metric()).append(' ').append(gauge.value().applyAsInt(figures)).append('\n');
        }
    }

    /** A gauge read from the pool's figures. */
    private record PoolGauge(ToIntFunction<PoolFigures> value, String metric, String help) {
    }
}
