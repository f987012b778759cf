package dev.herald.observe;

import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

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

    private static final System.Logger LOGGER = System.getLogger(MetricsService.class.getName());
    private static final List<PoolFigure> POOL_FIGURES = List.of(
            new PoolFigure("ActiveConnections", "herald_db_pool_active_connections", "Connections in use."),
            new PoolFigure("IdleConnections", "herald_db_pool_idle_connections", "Connections open and free."),
            new PoolFigure("TotalConnections", "herald_db_pool_connections", "Connections open."),
            new PoolFigure("ThreadsAwaitingConnection", "herald_db_pool_pending_requests",
                           "Requests waiting for a connection."));

    private final Metrics metrics;
    private final ObjectName pool;

    /**
     * @param poolName {@code db.connection.poolName}: HikariCP publishes the pool's figures under it (JMX, with
     *                 {@code registerMbeans}), and they are read from there
     */
    public MetricsService(Metrics metrics, String poolName) {
        this.metrics = metrics;
        try {
            this.pool = new ObjectName("com.zaxxer.hikari:type=Pool (" + poolName + ")");
        } catch (JMException e) {
            throw new IllegalArgumentException("db.connection.poolName cannot name a pool: " + poolName, e);
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::metrics)
                .any("/", RouteFallbacks.methodNotAllowed("GET"));
    }

    private void metrics(ServerRequest request, ServerResponse response) {
        StringBuilder out = new StringBuilder(4096);
        metrics.writeTo(out);
        writePoolFigures(out);
        response.header(HeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        response.header(HeaderNames.CACHE_CONTROL, "no-store");
        response.send(out.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void writePoolFigures(StringBuilder out) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        for (PoolFigure figure : POOL_FIGURES) {
            try {
                Object value = server.getAttribute(pool, figure.attribute());
                out.append("# HELP ").append(figure.metric()).append(' ').append(figure.help()).append('\n')
                        .append("# TYPE ").append(figure.metric()).append(" gauge\n")
                        .append(figure.metric()).append(' ').append(value).append('\n');
            } catch (JMException e) {
                // The pool starts lazily and registers on its first connection: no figures until then.
                LOGGER.log(Level.DEBUG, "No pool figure " + figure.attribute() + ": " + e.getMessage());
            }
        }
    }

    /** A gauge read from the attribute of HikariCP's pool bean. */
    private record PoolFigure(String attribute, String metric, String help) {
    }
}
