package dev.herald.observe;

import io.helidon.http.HttpPrologue;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Counts every answer once it is sent, with the status the client got, whoever answered it.
 */
public final class MetricsFilter implements Filter {

    private final Metrics metrics;

    public MetricsFilter(Metrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        long started = System.nanoTime();
        HttpPrologue prologue = request.prologue();
        String route = RouteNames.of(prologue.uriPath().path());
        response.whenSent(() -> metrics.answered(prologue.method().text(), route, response.status().code(),
                                                 System.nanoTime() - started));
        chain.proceed();
    }
}
