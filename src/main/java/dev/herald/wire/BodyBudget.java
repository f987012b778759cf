package dev.herald.wire;

import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.api.ResponseHeaders;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;

/**
 * At most {@code limits.body-bytes-in-flight} bytes of request bodies held in memory at once, all requests
 * together. Each body is read whole before it is used, and a client can announce 64 KiB, send all but the last
 * byte and wait: a thousand such requests from many addresses held 64 MB, and the heap is 80 MB. A request
 * reserves what its body may take (its Content-Length, at most what its route reads) before any route reads it
 * and gives it back when answered. Past the budget it is answered 503 at once, its body unread. One client (as
 * the rate limit counts clients) may hold at most an eighth of it (never less than one management API body):
 * alone, it cannot stop everyone else's bodies. It runs after the rate limit and the admin token check, so
 * refused requests reserve nothing. {@link ServerLimits} makes sure the budget holds one management API body.
 */
public final class BodyBudget implements Filter {

    private final long budget;
    private final Function<ServerRequest, Object> clientOf;
    private final AtomicLong reserved = new AtomicLong();
    private final ClientShares shares;

    /**
     * @param clientOf the client a request counts under (the rate limit's: an address, an IPv6 network)
     */
    public BodyBudget(long budget, Function<ServerRequest, Object> clientOf) {
        this.budget = budget;
        this.clientOf = clientOf;
        this.shares = new ClientShares(Math.max(budget / 8, RequestBodies.MAX_ADMIN_BYTES));
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!request.content().hasEntity()) {
            chain.proceed();
            return;
        }
        long most = ApiPaths.isWithoutCaller(request) ? RequestBodies.MAX_SIGN_IN_BYTES
                : ApiPaths.isAdmin(request) ? RequestBodies.MAX_ADMIN_BYTES : RequestBodies.MAX_PUBLIC_BYTES;
        OptionalLong announced = request.headers().contentLength();
        if (announced.isPresent() && announced.getAsLong() > most) {
            // Its route answers 413 from the announced length and reads nothing: it holds no memory, and must get
            // that 413 rather than a 503 because the client's other bodies have not been released yet.
            chain.proceed();
            return;
        }
        long size = announced.orElse(most);
        Object client = clientOf.apply(request);
        AtomicLong share = shares.reserve(client, size);
        if (share == null) {
            refuse(request, response);
            return;
        }
        if (!reserve(size)) {
            shares.release(client, share, size);
            refuse(request, response);
            return;
        }
        try {
            chain.proceed();
        } finally {
            reserved.addAndGet(-size);
            shares.release(client, share, size);
        }
    }

    private static void refuse(RoutingRequest request, RoutingResponse response) {
        response.header(HeaderValues.CONNECTION_CLOSE);
        response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, "1"));
        ErrorResponses.send(request, response, ApiException.of(Status.SERVICE_UNAVAILABLE_503,
                                                               ApiPaths.errorField(request), "SERVER_BUSY",
                                                               "Too many request bodies in flight; retry shortly"));
    }

    private boolean reserve(long size) {
        while (true) {
            long now = reserved.get();
            if (now + size > budget) {
                return false;
            }
            if (reserved.compareAndSet(now, now + size)) {
                return true;
            }
        }
    }
}
