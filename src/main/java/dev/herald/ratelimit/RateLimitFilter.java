package dev.herald.ratelimit;

import java.time.Clock;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * docs/api.md#rate-limit: requests per client IP and window on every public route, known or not. CORS preflights,
 * the management API and everything else outside {@code /api/v1/public} are not counted.
 */
public final class RateLimitFilter implements Filter {

    private static final HeaderName LIMIT = HeaderNames.create("RateLimit-Limit");
    private static final HeaderName REMAINING = HeaderNames.create("RateLimit-Remaining");
    private static final HeaderName RESET = HeaderNames.create("RateLimit-Reset");

    /** Enough for the default limit (1,000) and any window up to 16 minutes; a few hundred kB at most. */
    private static final int MOST_NUMBERS_KEPT = 1000;

    private final FixedWindowLimiter<Object> limiter;
    private final ClientAddresses clients;
    /** The same on every answer: built once, so Helidon writes its bytes as they are. */
    private final Header limitHeader;
    private final NumberHeaders remaining = new NumberHeaders(REMAINING, MOST_NUMBERS_KEPT);
    private final NumberHeaders reset = new NumberHeaders(RESET, MOST_NUMBERS_KEPT);
    private final NumberHeaders retryAfter = new NumberHeaders(HeaderNames.RETRY_AFTER, MOST_NUMBERS_KEPT);

    public RateLimitFilter(RateLimitSettings settings, Clock clock) {
        this.limitHeader = HeaderValues.createCached(LIMIT, settings.requests());
        this.limiter = new FixedWindowLimiter<>(settings.requests(), settings.window(), settings.maxClients(), clock);
        this.clients = new ClientAddresses(settings);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isPublic(request) || request.prologue().method().equals(Method.OPTIONS)) {
            chain.proceed();
            return;
        }
        FixedWindowLimiter.Decision decision = limiter.acquire(clients.clientOf(request));
        response.header(limitHeader);
        response.header(remaining.of(decision.remaining()));
        response.header(reset.of(decision.resetSeconds()));
        if (!decision.allowed()) {
            response.header(retryAfter.of(decision.resetSeconds()));
            ErrorResponses.send(request, response, ApiException.error(
                    Status.TOO_MANY_REQUESTS_429, "RATE_LIMIT_EXCEEDED",
                    "Too many requests from this IP, please try again later."));
            return;
        }
        chain.proceed();
    }
}
