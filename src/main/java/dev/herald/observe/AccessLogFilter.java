package dev.herald.observe;

import java.lang.System.Logger.Level;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Predicate;

import dev.herald.logging.LogText;

import io.helidon.http.HttpPrologue;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;

/**
 * One line per request on the logger {@code dev.herald.access}, when {@code access-log.enabled} is true:
 * <pre>127.0.0.1 "GET /api/v1/public/KEY/notifications HTTP/1.1" 200 3ms</pre>
 * The path is logged without its query string and no header is logged: neither can leak a token or personal
 * data into the log. The line is written once the answer is sent, so it shows the status the client got, whether
 * a handler, a filter (429, 401) or the error mapping answered.
 */
public final class AccessLogFilter implements Filter {

    static final String LOGGER_NAME = "dev.herald.access";
    private static final System.Logger ACCESS = System.getLogger(LOGGER_NAME);

    private final Function<ServerRequest, String> client;
    private final Predicate<ServerRequest> http10;

    /**
     * @param client the client's address as the rate limit finds it: behind a trusted proxy, the one it forwards
     *               (every line named the proxy)
     * @param http10 whether the request came as HTTP/1.0, which Herald serves as 1.1 (every line said 1.1)
     */
    public AccessLogFilter(Function<ServerRequest, String> client, Predicate<ServerRequest> http10) {
        this.client = client;
        this.http10 = http10;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        long started = System.nanoTime();
        HttpPrologue prologue = request.prologue();
        String address = client.apply(request);
        String protocol = http10.test(request) ? "HTTP/1.0" : prologue.rawProtocol();
        response.whenSent(() -> ACCESS.log(Level.INFO, String.format(
                Locale.ROOT, "%s \"%s %s %s\" %d %dms", LogText.of(address), LogText.of(prologue.method().text()),
                LogText.of(prologue.uriPath().rawPath()), LogText.of(protocol), response.status().code(),
                (System.nanoTime() - started) / 1_000_000)));
        chain.proceed();
    }
}
