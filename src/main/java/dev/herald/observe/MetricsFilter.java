package dev.herald.observe;

import java.util.Set;

import io.helidon.http.HttpPrologue;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Counts every answer once it is sent, with the status the client got, whoever answered it.
 */
public final class MetricsFilter implements Filter {

    /** Any other method counts as OTHER: a client cannot grow the series without bound by inventing methods. */
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");

    private final Metrics metrics;

    public MetricsFilter(Metrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        long started = System.nanoTime();
        HttpPrologue prologue = request.prologue();
        String route = RouteNames.of(prologue.uriPath().path());
        String method = METHODS.contains(prologue.method().text()) ? prologue.method().text() : "OTHER";
        response.whenSent(() -> metrics.answered(method, route, response.status().code(),
                                                 System.nanoTime() - started));
        chain.proceed();
    }
}
