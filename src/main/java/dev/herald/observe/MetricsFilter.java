package dev.herald.observe;

import dev.herald.api.ApiPaths;

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
        Metrics.Series series = metrics.series(RouteNames.indexOf(prologue.uriPath().path()),
                                               MethodNames.indexOf(prologue.method()));
        response.whenSent(() -> {
            int status = response.status().code();
            series.answered(status, System.nanoTime() - started);
            // The admin sign-in throttle answers 429 too; only the rate limit's, on public paths, are its rejections.
            if (status == 429 && ApiPaths.isPublic(request)) {
                metrics.rateLimitRejected();
            }
        });
        chain.proceed();
    }
}
