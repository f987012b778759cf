package dev.herald.web;

import java.nio.charset.StandardCharsets;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Requests Helidon rejects before routing (a malformed request line or header, a bad Content-Length) still get
 * a JSON body, with no detail of what the parser saw.
 */
public final class JsonDirectHandler implements DirectHandler {

    public static DirectHandlers forAllEvents() {
        DirectHandlers.Builder handlers = DirectHandlers.builder();
        JsonDirectHandler handler = new JsonDirectHandler();
        for (EventType eventType : EventType.values()) {
            handlers.addHandler(eventType, handler);
        }
        return handlers.build();
    }

    @Override
    public TransportResponse handle(TransportRequest request,
                                    EventType eventType,
                                    Status defaultStatus,
                                    ServerResponseHeaders responseHeaders,
                                    String message) {
        Status status = unparsedRequestLine(request, eventType) ? Status.BAD_REQUEST_400 : defaultStatus;
        boolean serverFault = status.code() >= 500;
        String code = serverFault ? "INTERNAL_ERROR" : "BAD_REQUEST";
        String text = serverFault ? "Internal server error" : status.reasonPhrase();
        // The tracking endpoints' errors say "message" (docs/api.md#errors); a path Helidon could not read is not one.
        String field = request.path().startsWith(ApiPaths.TRACKING) ? "message" : "error";
        var body = Json.builders().createObjectBuilder().add(field, text).add("code", code).build();
        responseHeaders.set(HeaderNames.CONTENT_TYPE, "application/json");
        SecurityHeadersFilter.applyBeforeRouting(responseHeaders);
        return TransportResponse.builder()
                .status(status)
                .headers(responseHeaders)
                .entity(Json.write(body).getBytes(StandardCharsets.UTF_8))
                .build();
    }

    /**
     * Helidon 4.1.7 fails with an IllegalArgumentException on a request line whose method is no HTTP token (a
     * request line such as {@code G\u0001T / HTTP/1.1}, or header lines read as a request after a refused one) and
     * answers it as its own fault: 500, and a WARNING with a stack trace and a hex dump of the client's bytes. An
     * internal error before any request line was read can only come from reading the client's bytes: it is the
     * client's, 400, and nothing is logged (Helidon logs only the 500s).
     */
    private static boolean unparsedRequestLine(TransportRequest request, EventType eventType) {
        return eventType == EventType.INTERNAL_ERROR && request.path().isEmpty() && request.method().isEmpty();
    }
}
