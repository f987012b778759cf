package dev.herald.admin;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.api.ResponseHeaders;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * At most {@code limits.admin-reads-in-flight} management API reads at once, all callers together. One answer is
 * bounded ({@link AdminResponses#MAX_ANSWER_BYTES}, and what a page reads to write it), but requests are served on
 * virtual threads without number: 200 pages of large notifications at once ended the process at its 80 MB heap,
 * where one such page takes some 4 MB while it is read and written. A read past the bound waits its turn, in
 * order, for {@link #MOST_WAIT}, and is then answered 503; it runs after the caller is authenticated, so no one
 * without a token holds a turn. Writes are bounded by the body budget and run one turn at a time already.
 */
public final class AdminReads implements Filter {

    /** Longer than a console's burst of reads takes to be served; shorter than a client's patience. */
    public static final Duration MOST_WAIT = Duration.ofSeconds(2);

    private final Semaphore turns;

    public AdminReads(int inFlight) {
        this.turns = new Semaphore(inFlight, true);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        Method method = request.prologue().method();
        if (!ApiPaths.isAdmin(request) || (method != Method.GET && method != Method.HEAD)) {
            chain.proceed();
            return;
        }
        boolean granted;
        try {
            granted = turns.tryAcquire(MOST_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            granted = false;
        }
        if (!granted) {
            response.header(ResponseHeaders.of(HeaderNames.RETRY_AFTER, "1"));
            ErrorResponses.send(request, response, ApiException.error(
                    Status.SERVICE_UNAVAILABLE_503, "SERVER_BUSY", "Too many management reads in flight; retry shortly"));
            return;
        }
        try {
            chain.proceed();
        } finally {
            turns.release();
        }
    }
}
