package dev.herald.ratelimit;

import java.time.Clock;

import dev.herald.web.ApiException;
import dev.herald.web.ApiPaths;
import dev.herald.web.ErrorResponses;
import dev.herald.web.PendingHeaders;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * public-api.md §8: requests per client IP and window on every public route, known or not. CORS preflights,
 * the management API and everything else outside {@code /api/v1/public} are not counted.
 */
public final class RateLimitFilter implements Filter {

    private static final HeaderName LIMIT = HeaderNames.create("RateLimit-Limit");
    private static final HeaderName REMAINING = HeaderNames.create("RateLimit-Remaining");
    private static final HeaderName RESET = HeaderNames.create("RateLimit-Reset");

    private final FixedWindowLimiter limiter;
    private final ClientAddresses clients;

    public RateLimitFilter(RateLimitSettings settings, Clock clock) {
        this.limiter = new FixedWindowLimiter(settings.requests(), settings.window(), settings.maxClients(), clock);
        this.clients = new ClientAddresses(settings.trustedProxies());
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isPublic(request) || request.prologue().method().equals(Method.OPTIONS)) {
            chain.proceed();
            return;
        }
        FixedWindowLimiter.Decision decision = limiter.acquire(clients.clientOf(request));
        PendingHeaders.set(request, response, LIMIT, String.valueOf(decision.limit()));
        PendingHeaders.set(request, response, REMAINING, String.valueOf(decision.remaining()));
        PendingHeaders.set(request, response, RESET, String.valueOf(decision.resetSeconds()));
        if (!decision.allowed()) {
            PendingHeaders.set(request, response, HeaderNames.RETRY_AFTER, String.valueOf(decision.resetSeconds()));
            ErrorResponses.send(request, response, ApiException.error(
                    Status.TOO_MANY_REQUESTS_429, "RATE_LIMIT_EXCEEDED",
                    "Too many requests from this IP, please try again later."));
            return;
        }
        chain.proceed();
    }
}
