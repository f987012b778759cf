package dev.herald.wire;

import java.nio.charset.StandardCharsets;

import io.helidon.http.DirectHandler;
import io.helidon.http.DirectHandler.EventType;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectTransportRequest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Every status Helidon may answer before routing, including those this Helidon never makes with Herald's settings
 * (413 needs a payload limit Herald does not set, 431 and 503 none of its paths make, 418 stands for a status a later
 * Helidon may add): Herald's body, the same status, a code that says it. {@code MalformedInputSuiteTest} checks the
 * ones Helidon 4.5.0 does make, over a socket, to the byte.
 */
class JsonDirectHandlerTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "400 | BAD_REQUEST                | Bad Request",
            "413 | PAYLOAD_TOO_LARGE          | Request body too large",
            "414 | URI_TOO_LONG               | Request target too long",
            "431 | HEADERS_TOO_LARGE          | Request header fields too large",
            "500 | INTERNAL_ERROR             | Internal server error",
            "501 | NOT_IMPLEMENTED            | Not implemented",
            "503 | SERVER_BUSY                | Server busy; retry shortly",
            "505 | HTTP_VERSION_NOT_SUPPORTED | HTTP version not supported: use HTTP/1.1",
            "418 | I_M_A_TEAPOT               | I'm a teapot"})
    void eachStatusAnsweredBeforeRoutingKeepsItsStatusAndGetsItsOwnCode(int code, String errorCode, String message) {
        DirectHandler.TransportResponse answer = new JsonDirectHandler().handle(
                DirectTransportRequest.create("HTTP/1.1", "GET", "/api/v1/public/k/notifications"),
                EventType.OTHER, Status.create(code), ServerResponseHeaders.create(), "the parser's words");
        assertThat(answer.status().code(), is(code));
        assertThat(new String(answer.entity().orElseThrow(), StandardCharsets.UTF_8),
                   is("{\"error\":\"" + message + "\",\"code\":\"" + errorCode + "\"}"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/api/v1/public/track/n1          | message",
            "/api/v1/public/track/n1/enhanced | message",
            "/api/v1/admin/projects           | error",
            "''                               | error"})
    void aTrackingPathGetsTheMessageShape(String path, String field) {
        DirectHandler.TransportResponse answer = new JsonDirectHandler().handle(
                DirectTransportRequest.create("HTTP/1.1", "POST", path), EventType.BAD_REQUEST,
                Status.BAD_REQUEST_400, ServerResponseHeaders.create(), (String) null);
        assertThat(new String(answer.entity().orElseThrow(), StandardCharsets.UTF_8),
                   is("{\"" + field + "\":\"Bad Request\",\"code\":\"BAD_REQUEST\"}"));
    }

    /** The only 400 HttpVersions makes for an HTTP/1.0 request is for its Transfer-Encoding (RFC 9112 §6.1). */
    @Test
    void aRefusalOfAnHttp10RequestIsForItsFraming() {
        DirectHandler.TransportResponse answer = new JsonDirectHandler().handle(
                DirectTransportRequest.create("HTTP/1.0", "POST", "/api/v1/admin/projects"), EventType.BAD_REQUEST,
                Status.BAD_REQUEST_400, ServerResponseHeaders.create(), (String) null);
        assertThat(new String(answer.entity().orElseThrow(), StandardCharsets.UTF_8),
                   is("{\"error\":\"Invalid request body\",\"code\":\"INVALID_BODY\"}"));
    }

    /** A method that is no token: Helidon fails inside its parser, before a request line exists, and calls it its own. */
    @ParameterizedTest
    @CsvSource({"INTERNAL_ERROR, 400", "BAD_REQUEST, 400"})
    void anInternalErrorBeforeAnyRequestLineIsTheClients(EventType eventType, int expected) {
        DirectHandler.TransportResponse answer = new JsonDirectHandler().handle(
                DirectTransportRequest.create("", "", ""), eventType,
                eventType.defaultStatus().code() == 500 ? Status.INTERNAL_SERVER_ERROR_500 : Status.BAD_REQUEST_400,
                ServerResponseHeaders.create(), (String) null);
        assertThat(answer.status().code(), is(expected));
    }
}
