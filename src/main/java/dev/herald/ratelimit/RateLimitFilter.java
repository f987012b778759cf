package dev.herald.ratelimit;

import java.time.Clock;
import java.util.function.Predicate;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.api.ResponseHeaders;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Requests per client IP and window. docs/api.md#rate-limit: on every public route, known or not; CORS preflights
 * and everything outside {@code /api/v1/public} are not counted. The management API has a limit of its own
 * ({@link #management}), counted before any credential is looked at, for the requests that present one.
 */
public final class RateLimitFilter implements Filter {

    private static final HeaderName LIMIT = HeaderNames.create("RateLimit-Limit");
    private static final HeaderName REMAINING = HeaderNames.create("RateLimit-Remaining");
    private static final HeaderName RESET = HeaderNames.create("RateLimit-Reset");

    /** Enough for the default limit (1,000) and any window up to 16 minutes; a few hundred kB at most. */
    private static final int MOST_NUMBERS_KEPT = 1000;

    private final Predicate<RoutingRequest> counted;
    /** Whether every counted answer says the limit and what is left of it, as the public API's do. */
    private final boolean announced;
    private final FixedWindowLimiter<Object> limiter;
    private final ClientAddresses clients;
    /** The same on every answer: built once (and at a reload), so Helidon writes its bytes as they are. */
    private volatile Header limitHeader;
    private final NumberHeaders remaining = new NumberHeaders(REMAINING, MOST_NUMBERS_KEPT);
    private final NumberHeaders reset = new NumberHeaders(RESET, MOST_NUMBERS_KEPT);
    private final NumberHeaders retryAfter = new NumberHeaders(HeaderNames.RETRY_AFTER, MOST_NUMBERS_KEPT);

    /** The public API's, counting the clients as {@code clients} tells them apart. */
    public RateLimitFilter(RateLimitSettings settings, ClientAddresses clients, Clock clock) {
        this(request -> ApiPaths.isPublic(request) && !request.prologue().method().equals(Method.OPTIONS),
             settings.requestLimit(), clients, true, clock);
    }

    private RateLimitFilter(Predicate<RoutingRequest> counted, RequestLimit limit, ClientAddresses clients,
                            boolean announced, Clock clock) {
        this.counted = counted;
        this.announced = announced;
        this.limitHeader = ResponseHeaders.fixed(LIMIT, limit.requests());
        this.limiter = new FixedWindowLimiter<>(limit.requests(), limit.window(), limit.maxClients(), clock);
        this.clients = clients;
    }

    /**
     * The management API's ({@code admin.rate-limit}): the requests under {@code /api/v1/admin} that present a
     * credential ({@code presentsCredential}), before it is looked at. Requests that present none are answered
     * without a look-up and not counted: otherwise any web page its visitors open could spend their budget with
     * {@code <img>} requests and lock them out. Only a refusal says so ({@code Retry-After}): its clients are
     * people and scripts of the operator's, not programs that pace themselves.
     */
    public static RateLimitFilter management(RequestLimit limit, ClientAddresses clients, Clock clock,
                                             Predicate<RoutingRequest> presentsCredential) {
        return new RateLimitFilter(request -> ApiPaths.isAdmin(request) && presentsCredential.test(request), limit,
                                   clients, false, clock);
    }

    /**
     * A new limit for the requests from now on, from a configuration reloaded while Herald runs: each client's
     * window goes on counting ({@link FixedWindowLimiter#reconfigure}).
     */
    public void reconfigure(RequestLimit limit) {
        limiter.reconfigure(limit.requests(), limit.window(), limit.maxClients());
        limitHeader = ResponseHeaders.fixed(LIMIT, limit.requests());
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!counted.test(request)) {
            chain.proceed();
            return;
        }
        FixedWindowLimiter.Decision decision = limiter.acquire(clients.clientOf(request));
        if (announced) {
            response.header(limitHeader);
            response.header(remaining.of(decision.remaining()));
            response.header(reset.of(decision.resetSeconds()));
        }
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
