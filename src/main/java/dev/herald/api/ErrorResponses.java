package dev.herald.api;

import java.lang.System.Logger.Level;
import java.util.List;

import dev.herald.logging.FailureLog;
import dev.herald.logging.LogText;
import dev.herald.storage.DatabaseUnavailable;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObjectBuilder;

/**
 * The one place that turns failures into responses: a JSON body, the status, the headers filters set, and those
 * every answer carries ({@link SecurityHeadersFilter}).
 * No stack trace, SQL or class name reaches a client; the detail goes to the log.
 */
public final class ErrorResponses {

    private static final System.Logger LOGGER = System.getLogger(ErrorResponses.class.getName());
    /** What Herald's handlers set for a successful answer's body: none belongs on an error answer. */
    private static final List<HeaderName> ENTITY_HEADERS = List.of(
            HeaderNames.ETAG, HeaderNames.LOCATION, HeaderNames.CACHE_CONTROL, HeaderNames.CONTENT_TYPE,
            HeaderNames.CONTENT_LENGTH, HeaderNames.LAST_MODIFIED, HeaderNames.CONTENT_ENCODING);
    private static final Header JSON = ResponseHeaders.fixed(HeaderNames.CONTENT_TYPE, "application/json");
    /** An outage fails every request that needs the database: counted, not a trace each. */
    private static final FailureLog DATABASE_FAILURES = new FailureLog(
            "request(s) answered 500, the database unavailable or slower than the driver's socket time-out");

    private ErrorResponses() {
    }

    public static void register(HttpRouting.Builder routing) {
        routing.error(ApiException.class, ErrorResponses::apiError)
                .error(Throwable.class, ErrorResponses::unexpected);
    }

    /**
     * Answers with an error from a filter. A filter answers rather than throws: an exception would pass through
     * the filters before it (ConnectionCloseFilter among them) on its way to the error handler.
     */
    public static void send(ServerRequest request, ServerResponse response, ApiException error) {
        apiError(request, response, error);
    }

    private static void apiError(ServerRequest request, ServerResponse response, ApiException error) {
        write(request, response, error.status(), error.field(), error.code(), error.getMessage(), error.invalidField(),
              error.allowed(), error.missing());
    }

    private static void unexpected(ServerRequest request, ServerResponse response, Throwable failure) {
        if (failure instanceof HttpException http && http.status().code() < 500) {
            // Helidon's own client errors (a request it could not read): keep the status, give it our shape.
            write(request, response, http.status(), ApiPaths.errorField(request), "BAD_REQUEST", http.status().reasonPhrase(),
                  null, List.of(), List.of());
            return;
        }
        if (DatabaseUnavailable.is(failure)) {
            DATABASE_FAILURES.failed(1, failure);
        } else {
            LOGGER.log(Level.ERROR, "Request failed: " + LogText.of(request.prologue().method().text()) + " "
                    + LogText.of(ApiPaths.fullPath(request)),
                       failure);
        }
        write(request, response, Status.INTERNAL_SERVER_ERROR_500, ApiPaths.errorField(request),
              "INTERNAL_ERROR", "Internal server error", null, List.of(), List.of());
    }

    /**
     * The most characters of an error's message and of the field it names. Both may quote what the client sent (a
     * member's name): an unknown name of a megabyte made an answer of two, which a client that never read it held
     * in the server's budget of request bodies. Cut, an error answer is a few kilobytes at most.
     */
    static final int MAX_MESSAGE = 1_000;
    static final int MAX_FIELD = 200;

    private static void write(ServerRequest request,
                              ServerResponse response,
                              Status status,
                              ErrorField field,
                              String code,
                              String message,
                              String invalidField,
                              List<String> allowed,
                              List<String> missing) {
        dropEntityHeaders(response.headers());
        SecurityHeadersFilter.applyTo(request, response);
        if (UnreadBodies.leftUnread(request)) {
            // The connection closes after the answer: say so, so the client does not reuse it.
            response.header(HeaderValues.CONNECTION_CLOSE);
        }
        var body = Json.builders().createObjectBuilder()
                .add(field.jsonName(), TextLength.cut(message, MAX_MESSAGE))
                .add("code", code);
        if (invalidField != null || !allowed.isEmpty() || !missing.isEmpty()) {
            body.add("details", details(invalidField == null ? null : TextLength.cut(invalidField, MAX_FIELD),
                                        allowed, missing));
        }
        response.status(status);
        response.header(JSON);
        Bodies.send(request, response, Json.bytes(body.build()));
    }

    /**
     * Since 4.3.0 (4.5.0 here) Helidon keeps the headers set before a failure when the error handler runs; 4.1.7
     * cleared them all, and Herald recorded what filters set to set it again. What filters set stays (CORS, the rate
     * limit's, {@code Allow}, {@code Retry-After}, {@code Connection: close}); what a handler set for the answer that
     * failed describes a body that is not sent, and goes. {@code ErrorResponsesTest} fails if either changes.
     */
    private static void dropEntityHeaders(ServerResponseHeaders headers) {
        for (HeaderName name : ENTITY_HEADERS) {
            headers.remove(name);
        }
    }

    /** The error object's {@code details} holds what else the client needs (docs/api.md#errors): the field and its choices. */
    private static JsonObjectBuilder details(String invalidField, List<String> allowed, List<String> missing) {
        JsonObjectBuilder details = Json.builders().createObjectBuilder();
        if (invalidField != null) {
            details.add("field", invalidField);
        }
        if (!allowed.isEmpty()) {
            details.add("allowed", Json.builders().createArrayBuilder(allowed));
        }
        if (!missing.isEmpty()) {
            details.add("missing", Json.builders().createArrayBuilder(missing));
        }
        return details;
    }
}
