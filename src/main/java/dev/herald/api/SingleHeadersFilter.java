package dev.herald.api;

import java.util.List;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Refuses a request that repeats a header whose value decides who it is from or how its body is read: Herald read
 * the first of two {@code Authorization} headers, where a proxy or a log in front of it may read the last (an outside
 * review), and so for the console's {@code Sec-Fetch-Site} and {@code X-CSRF-Token}, the {@code Origin} that CORS
 * answers and the {@code Content-Type} a body is parsed by. None of them is a list (RFC 9110, 5.3): a second line is
 * no client's intent. {@code Host} is checked before routing ({@code wire.HttpVersions}). A header a request does not
 * carry costs one look-up.
 */
public final class SingleHeadersFilter implements Filter {

    private static final List<HeaderName> SINGLE = List.of(HeaderNames.AUTHORIZATION, HeaderNames.CONTENT_TYPE,
                                                           HeaderNames.ORIGIN, HeaderNames.create("Sec-Fetch-Site"),
                                                           HeaderNames.create("X-CSRF-Token"));

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        ServerRequestHeaders headers = request.headers();
        for (HeaderName name : SINGLE) {
            if (headers.contains(name) && headers.get(name).valueCount() > 1) {
                // As Helidon's own refusals of a header section, the connection is not reused (docs/api.md#errors):
                // ConnectionCloseFilter closes it after an answer that says so, before a request pipelined after it.
                response.header(HeaderValues.CONNECTION_CLOSE);
                ErrorResponses.send(request, response, ApiException.of(Status.BAD_REQUEST_400,
                        ApiPaths.errorField(request), "BAD_REQUEST",
                        "The request repeats its " + name.defaultCase() + " header: send it once"));
                return;
            }
        }
        chain.proceed();
    }
}
