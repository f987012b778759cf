package dev.herald.api;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * The languages headers of a request, as the feed and tracking read them (docs/api.md#languages).
 */
public final class RequestLanguages {

    private RequestLanguages() {
    }

    /**
     * The request's {@code Accept-Language}, its lines joined as one list (RFC 9110 §5.3: a field sent on several lines
     * is the comma-separated list of them), or null.
     */
    public static String acceptLanguage(ServerRequest request) {
        return request.headers().contains(HeaderNames.ACCEPT_LANGUAGE)
                ? request.headers().get(HeaderNames.ACCEPT_LANGUAGE).values()
                : null;
    }
}
