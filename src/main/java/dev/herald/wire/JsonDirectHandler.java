package dev.herald.wire;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;

import dev.herald.api.ApiPaths;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.SecurityHeadersFilter;

import io.helidon.http.DirectHandler;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;

/**
 * Answers requests Helidon refuses before routing (a malformed request line or header, a path or header section too
 * long, an ambiguous or unsupported body framing, an HTTP version other than 1.1 or 1.0) with Herald's JSON error
 * body, the status Helidon chose and a code that says the same, never the parser's own words.
 */
public final class JsonDirectHandler implements DirectHandler {

    /** The version of a refusal {@link HttpVersions} makes for an HTTP/1.0 request's framing. */
    static final String HTTP_1_0 = "HTTP/1.0";
    private static final Header JSON = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, "application/json");

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
        Refusal refusal = Refusal.of(status, request);
        // The tracking endpoints' errors say "message" (docs/api.md#errors); a path Helidon could not read is not one.
        String field = request.path().startsWith(ApiPaths.TRACKING) ? "message" : "error";
        var body = Json.builders().createObjectBuilder().add(field, refusal.message()).add("code", refusal.code()).build();
        responseHeaders.set(JSON);
        SecurityHeadersFilter.applyBeforeRouting(responseHeaders);
        TransportResponse.Builder response = TransportResponse.builder().status(status).headers(responseHeaders);
        // RFC 9110 §9.3.2: the answer to a HEAD has no content, a refusal made before routing neither.
        if (!"HEAD".equals(request.method())) {
            response.entity(Json.write(body).getBytes(StandardCharsets.UTF_8));
        }
        return response.build();
    }

    /**
     * Helidon 4.1.7 and 4.5.0 fail with an IllegalArgumentException on a request line whose method is no HTTP token
     * (a request line such as {@code G\u0001T / HTTP/1.1}, or header lines read as a request after a refused one)
     * and answer it as their own fault: 500, and a WARNING with a stack trace. An internal error before any request
     * line was read can only come from reading the client's bytes: it is the client's, 400, and nothing is logged
     * (Helidon logs only the 500s). {@code MalformedInputSuiteTest} sends such methods and fails on any 500.
     */
    private static boolean unparsedRequestLine(TransportRequest request, EventType eventType) {
        return eventType == EventType.INTERNAL_ERROR && request.path().isEmpty() && request.method().isEmpty();
    }

    /**
     * What Herald says of a status Helidon answers before routing (docs/api.md#errors). Helidon 4.5.0 refuses an
     * ambiguous framing itself (two lengths, a length beside {@code Transfer-Encoding}, {@code chunked} twice or not
     * last): that is the same {@code INVALID_BODY} that {@link FramingFilter} answers for the framings Helidon lets
     * through, and of the {@code Transfer-Encoding} of an HTTP/1.0 request ({@link HttpVersions}). A status this
     * table does not know keeps its reason phrase, as a code in capitals, so a new refusal in a later Helidon is
     * still told truthfully.
     */
    record Refusal(String code, String message) {

        /**
         * Whether the path has a {@code %} that starts no escape: Helidon refuses such a path before routing, and its
         * bare "Bad Request" left a client that sent {@code …/users/50%} guessing (a trial of the erasure route).
         */
        static boolean strayPercent(String path) {
            int query = path.indexOf('?');
            int end = query < 0 ? path.length() : query;
            for (int i = path.indexOf('%'); i >= 0 && i < end; i = path.indexOf('%', i + 1)) {
                if (i + 2 >= end || !HexFormat.isHexDigit(path.charAt(i + 1))
                        || !HexFormat.isHexDigit(path.charAt(i + 2))) {
                    return true;
                }
            }
            return false;
        }

        static Refusal of(Status status, TransportRequest request) {
            return switch (status.code()) {
                case 400 -> !FramingFilter.isUnambiguous(request.headers())
                                    || HTTP_1_0.equals(request.protocolVersion())
                            ? new Refusal("INVALID_BODY", "Invalid request body")
                            : HttpVersions.hasNamelessHeader(request.headers())
                            ? new Refusal("BAD_REQUEST", "Bad Request: a header line has no name before its colon")
                            : strayPercent(request.path())
                            ? new Refusal("BAD_REQUEST", "Bad Request: the path has a % not followed by two hexadecimal"
                                    + " digits (a % that is part of a segment, an erased user's sub say, is sent as %25)")
                            : new Refusal("BAD_REQUEST", "Bad Request");
                case 413 -> new Refusal("PAYLOAD_TOO_LARGE", "Request body too large");
                case 414 -> new Refusal("URI_TOO_LONG", "Request target too long");
                case 431 -> new Refusal("HEADERS_TOO_LARGE", "Request header fields too large");
                case 500 -> new Refusal("INTERNAL_ERROR", "Internal server error");
                case 501 -> request.headers().contains(HeaderNames.TRANSFER_ENCODING)
                            ? new Refusal("NOT_IMPLEMENTED",
                                          "Transfer coding not supported: send the body chunked or with a Content-Length")
                            : new Refusal("NOT_IMPLEMENTED", "Not implemented");
                case 503 -> new Refusal("SERVER_BUSY", "Server busy; retry shortly");
                case 505 -> new Refusal("HTTP_VERSION_NOT_SUPPORTED", "HTTP version not supported: use HTTP/1.1");
                default -> new Refusal(status.reasonPhrase().toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]+", "_"),
                                       status.reasonPhrase());
            };
        }
    }
}
