package dev.herald.tracking;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestHerald.StoredInteraction;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.nullValue;

/**
 * Track Interaction, simple and enhanced (docs/api.md, POST /api/v1/public/track/{notificationId} and /enhanced), run
 * against each database by a subclass. Every accepted interaction is read back through a connection of its own.
 */
abstract class TrackingContract extends HeraldServerTest {

    private static final String JSON = "application/json";
    /** The public API fixes each message (docs/api.md#errors); {@code details} says what the endpoint takes instead. */
    private static final String SIMPLE_TYPES = "{\"field\":\"type\",\"allowed\":[\"impression\",\"click\"]}";
    private static final String ENHANCED_TYPES = "{\"field\":\"type\",\"allowed\":[\"impression\",\"click\",\"conversion\"]}";
    private static final String MEDIA_TYPES = "{\"field\":\"Content-Type\",\"allowed\":[\"application/json\",\"text/plain\"]}";

    private final Http1Client client;
    private final URI uri;
    private Notification notification;

    TrackingContract(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
    }

    @BeforeEach
    void freshNotification() {
        herald.clock().set(START);
        notification = herald.notification(herald.project()).save();
    }

    // Accepted interactions

    @ParameterizedTest
    @ValueSource(strings = {"impression", "click"})
    void simpleRecordsTheTypeAtServerTime(String type) throws Exception {
        herald.clock().set(START.plusMillis(123));
        assertNoContent(post(simple(notification.id()), JSON, "{\"type\":\"" + type + "\"}"));

        StoredInteraction stored = single(notification.id());
        assertThat(stored.type(), is(type));
        assertThat(stored.projectId(), is(notification.projectId()));
        assertThat(stored.occurredAt(), is(START.plusMillis(123).toEpochMilli()));
        assertThat(stored.receivedAt(), is(START.plusMillis(123).toEpochMilli()));
        assertThat(stored.endpoint(), is("simple"));
        assertThat(stored.metadata(), is(nullValue()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"impression", "click", "conversion"})
    void enhancedRecordsEveryTypeAtServerTimeWithoutATimestamp(String type) throws Exception {
        assertNoContent(post(enhanced(notification.id()), JSON, "{\"type\":\"" + type + "\"}"));

        StoredInteraction stored = single(notification.id());
        assertThat(stored.type(), is(type));
        assertThat(stored.occurredAt(), is(START.toEpochMilli()));
        assertThat(stored.endpoint(), is("enhanced"));
    }

    @Test
    void enhancedStoresTheClientTimestampAndMetadata() throws Exception {
        String body = "{\"type\":\"conversion\",\"timestamp\":\"2026-11-21T23:30:00.250+01:00\","
                + "\"metadata\":{\"plan\":\"pro\",\"seats\":5,\"tags\":[\"a\",\"ü\"],\"nested\":{\"ok\":true}}}";
        assertNoContent(post(enhanced(notification.id()), JSON, body));

        StoredInteraction stored = single(notification.id());
        assertThat(stored.occurredAt(), is(java.time.Instant.parse("2026-11-21T22:30:00.250Z").toEpochMilli()));
        assertThat(stored.receivedAt(), is(START.toEpochMilli()));
        JsonObject metadata = JsonBodies.object(stored.metadata());
        assertThat(metadata.getString("plan"), is("pro"));
        assertThat(metadata.getInt("seats"), is(5));
        assertThat(metadata.getJsonArray("tags").getString(1), is("ü"));
        assertThat(metadata.getJsonObject("nested").getBoolean("ok"), is(true));
    }

    /** The server's clock stands at 2026-11-22T10:00:00.123Z: the window is 2026-10-23T10:00:00.123Z to 2026-11-23T10:00:00.123Z. */
    @ParameterizedTest
    @ValueSource(strings = {"2026-10-23T10:00:00.123Z", "2026-10-23T11:00:00.123+01:00", "2026-10-23T10:00:00.123999Z",
            "2026-11-23T10:00:00.123Z", "2026-11-22T23:00:00.123-11:00", "2026-11-22T10:00:00.123Z"})
    void enhancedAcceptsTimestampsUpToTheEdgesOfTheWindow(String timestamp) throws Exception {
        herald.clock().set(START.plusMillis(123));
        assertNoContent(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":\"" + timestamp + "\"}"));
        assertThat(single(notification.id()).occurredAt(),
                   is(java.time.OffsetDateTime.parse(timestamp).toInstant().toEpochMilli()));
    }

    /** One millisecond past either edge is out, as are the ends of what the API could express before the window. */
    @ParameterizedTest
    @ValueSource(strings = {"2026-10-23T10:00:00.122Z", "2026-10-23T11:00:00.122+01:00", "2026-10-23T10:00:00.122999Z",
            "2026-11-23T10:00:00.124Z", "2026-11-22T23:00:00.124-11:00", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z"})
    void enhancedRejectsTimestampsOutsideTheWindow(String timestamp) throws Exception {
        herald.clock().set(START.plusMillis(123));
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":\"" + timestamp + "\"}"),
                    400, "INVALID_PARAMETER", "Invalid timestamp");
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @Test
    void theWindowMovesWithTheServersClock() throws Exception {
        String body = "{\"type\":\"impression\",\"timestamp\":\"2026-11-22T10:00:00Z\"}";
        herald.clock().set(START.minus(Duration.ofDays(1)).minusMillis(1));
        assertError(post(enhanced(notification.id()), JSON, body), 400, "INVALID_PARAMETER", "Invalid timestamp");
        herald.clock().set(START.minus(Duration.ofDays(1)));
        assertNoContent(post(enhanced(notification.id()), JSON, body));
        herald.clock().set(START.plus(Duration.ofDays(30)));
        assertNoContent(post(enhanced(notification.id()), JSON, body));
        herald.clock().set(START.plus(Duration.ofDays(30)).plusMillis(1));
        assertError(post(enhanced(notification.id()), JSON, body), 400, "INVALID_PARAMETER", "Invalid timestamp");
        assertThat(herald.interactions(notification.id()), hasSize(2));
    }

    @Test
    void anOutOfWindowTimestampIsReportedBeforeBadMetadataAndAnUnknownNotification() {
        assertError(post(enhanced("no_such_notification"), JSON,
                         "{\"type\":\"click\",\"timestamp\":\"2020-01-01T00:00:00Z\",\"metadata\":[]}"),
                    400, "INVALID_PARAMETER", "Invalid timestamp");
    }

    @Test
    void nullMetadataIsNoMetadata() throws Exception {
        assertNoContent(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"metadata\":null}"));
        assertThat(single(notification.id()).metadata(), is(nullValue()));
    }

    @Test
    void otherBodyFieldsAreIgnored() throws Exception {
        assertNoContent(post(simple(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":\"yesterday\",\"x\":[1]}"));
        assertThat(single(notification.id()).occurredAt(), is(START.toEpochMilli()));
    }

    @Test
    void notificationsOfAnyStatusCanBeTracked() throws Exception {
        for (NotificationStatus status : NotificationStatus.values()) {
            Notification any = herald.notification(herald.project()).status(status).save();
            assertNoContent(post(simple(any.id()), JSON, "{\"type\":\"impression\"}"));
            assertThat(herald.interactions(any.id()), hasSize(1));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Bearer some.jwt.token", "Basic dXNlcjpwYXNz", "garbage"})
    void enhancedAcceptsAndIgnoresAnyAuthorization(String authorization) throws Exception {
        try (Http1ClientResponse response = client.post(enhanced(notification.id()))
                .header(HeaderNames.CONTENT_TYPE, JSON)
                .header(HeaderNames.AUTHORIZATION, authorization)
                .submit("{\"type\":\"click\"}")) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
        }
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "application/json; charset=utf-8", "application/json;charset=\"UTF-8\"",
            "text/plain;charset=UTF-8", "text/plain", "Application/JSON"})
    void jsonAndBeaconMediaTypesAreAccepted(String contentType) throws Exception {
        assertNoContent(post(simple(notification.id()), contentType, "{\"type\":\"click\"}"));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @Test
    void bodiesUpToSixtyFourKibibytesAreAccepted() throws Exception {
        String padding = "x".repeat(TrackingBody.MAX_BYTES - "{\"type\":\"click\",\"pad\":\"\"}".length());
        String body = "{\"type\":\"click\",\"pad\":\"" + padding + "\"}";
        assertThat(body.length(), is(TrackingBody.MAX_BYTES));
        assertNoContent(post(simple(notification.id()), JSON, body));
    }

    @Test
    void clientTimestampsBeforeReceptionAreKeptAsGiven() throws Exception {
        herald.clock().advance(Duration.ofDays(3));
        assertNoContent(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":\"2026-11-22T10:00:00Z\"}"));
        StoredInteraction stored = single(notification.id());
        assertThat(stored.occurredAt(), is(START.toEpochMilli()));
        assertThat(stored.receivedAt(), is(START.plus(Duration.ofDays(3)).toEpochMilli()));
    }

    // Rejections, each one storing nothing

    @ParameterizedTest
    @ValueSource(strings = {"bad.id", "bad%20id", "%C3%A9t%C3%A9",
            "a123456789a123456789a123456789a123456789a123456789a123456789abcde"})   // 65 characters
    void malformedNotificationIdsAreRejected(String id) {
        assertError(post(simple(id), JSON, "{\"type\":\"click\"}"), 400, "INVALID_PARAMETER", "Invalid notification id");
        assertError(post(enhanced(id), JSON, "{\"type\":\"click\"}"), 400, "INVALID_PARAMETER", "Invalid notification id");
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"conversion\"}", "{\"type\":\"dismiss\"}", "{\"type\":\"Click\"}",
            "{\"type\":5}", "{\"type\":\"\"}", "{\"type\":{}}", "{\"type\":[\"click\"]}"})
    void simpleRejectsOtherTypes(String body) throws Exception {
        assertError(post(simple(notification.id()), JSON, body), 400, "INVALID_INTERACTION_TYPE", "Invalid interaction type",
                    SIMPLE_TYPES);
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"dismiss\"}", "{\"type\":\"IMPRESSION\"}", "{\"type\":true}", "{\"type\":\"view\"}"})
    void enhancedRejectsOtherTypes(String body) {
        assertError(post(enhanced(notification.id()), JSON, body), 400, "INVALID_INTERACTION_TYPE",
                    "Invalid interaction type", ENHANCED_TYPES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"type\":null}", "{\"kind\":\"click\"}"})
    void aMissingTypeIsAMissingParameter(String body) {
        assertError(post(simple(notification.id()), JSON, body), 400, "MISSING_PARAMETER",
                    "Missing required parameter: type", SIMPLE_TYPES);
        assertError(post(enhanced(notification.id()), JSON, body), 400, "MISSING_PARAMETER",
                    "Missing required parameter: type", ENHANCED_TYPES);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "not json", "[]", "[{\"type\":\"click\"}]", "\"click\"", "null", "42",
            "{\"type\":\"click\"", "{\"type\":\"click\"} trailing", "{\"type\":\"click\",}"})
    void bodiesThatAreNotAJsonObjectAreInvalid(String body) {
        assertError(post(simple(notification.id()), JSON, body), 400, "INVALID_BODY", "Invalid request body");
        assertError(post(enhanced(notification.id()), JSON, body), 400, "INVALID_BODY", "Invalid request body");
    }

    @Test
    void malformedUtf8IsAnInvalidBody() throws Exception {
        byte[] body = "{\"type\":\"click\",\"x\":\"\u00ff\"}".getBytes(StandardCharsets.ISO_8859_1);
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + simple(notification.id()) + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length, body);
        assertThat(response.status(), is(400));
        assertThat(response.body(), is("{\"message\":\"Invalid request body\",\"code\":\"INVALID_BODY\"}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/xml", "text/html", "application/x-www-form-urlencoded",
            "application/json; charset=iso-8859-1", "text/plain; charset=utf-16", "multipart/form-data; boundary=x"})
    void otherMediaTypesAreUnsupported(String contentType) {
        assertError(post(simple(notification.id()), contentType, "{\"type\":\"click\"}"), 415,
                    "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", MEDIA_TYPES);
    }

    @Test
    void aMissingContentTypeIsUnsupported() throws Exception {
        byte[] body = "{\"type\":\"click\"}".getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + simple(notification.id()) + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Length: " + body.length, body);
        assertThat(response.status(), is(415));
        assertThat(response.headers().get("content-type"), is(JSON));
        assertThat(response.body(), is("{\"message\":\"Unsupported media type\",\"code\":\"UNSUPPORTED_MEDIA_TYPE\","
                + "\"details\":" + MEDIA_TYPES + "}"));
    }

    @Test
    void anAnnouncedBodyOverSixtyFourKibibytesIsTooLarge() throws Exception {
        byte[] body = ("{\"type\":\"click\",\"pad\":\"" + "x".repeat(TrackingBody.MAX_BYTES) + "\"}").getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + simple(notification.id()) + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length, body);
        assertThat(response.status(), is(413));
        assertThat(response.body(), is("{\"message\":\"Request body too large\",\"code\":\"PAYLOAD_TOO_LARGE\"}"));
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @Test
    void aChunkedBodyOverSixtyFourKibibytesIsTooLarge() throws Exception {
        String chunk = "x".repeat(16 * 1024);
        StringBuilder chunked = new StringBuilder();
        String start = "{\"type\":\"click\",\"pad\":\"";
        chunked.append(Integer.toHexString(start.length())).append("\r\n").append(start).append("\r\n");
        for (int i = 0; i < 5; i++) {
            chunked.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        chunked.append("2\r\n\"}\r\n0\r\n\r\n");
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + enhanced(notification.id()) + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked",
                chunked.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(response.status(), is(413));
        assertThat(response.body(), is("{\"message\":\"Request body too large\",\"code\":\"PAYLOAD_TOO_LARGE\"}"));
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @Test
    void anUnreadBodyIsNeverTakenForAnotherRequest() throws Exception {
        String smuggled = "POST " + simple(notification.id()) + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 16\r\n\r\n{\"type\":\"click\"}";
        byte[] body = smuggled.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + simple("bad.id") + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length, body);
        assertThat(response.status(), is(400));
        assertThat(response.body(), is("{\"message\":\"Invalid notification id\",\"code\":\"INVALID_PARAMETER\"}"));
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"2026-11-22T10:00:00\"", "\"2026-11-22\"", "\"yesterday\"", "1732269600000", "null",
            "\"1969-12-31T23:59:59.999Z\"", "\"+10000-01-01T00:00:00Z\"", "\"2026-13-01T00:00:00Z\"",
            "\"2026-11-22 10:00:00Z\"", "{}", "\"\""})
    void invalidTimestampsAreRejected(String timestamp) throws Exception {
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":" + timestamp + "}"),
                    400, "INVALID_PARAMETER", "Invalid timestamp");
        assertThat(herald.interactions(notification.id()), is(empty()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"text\"", "5", "true", "[{\"a\":1}]"})
    void metadataMustBeAnObject(String metadata) {
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"metadata\":" + metadata + "}"),
                    400, "INVALID_PARAMETER", "Invalid metadata");
    }

    /**
     * What a strict consumer of webhooks and exports cannot read went, from any anonymous client, into the batches of
     * everyone's interactions, where it refuses the whole batch (two outside reviews): a number beyond a double's range,
     * one so small it becomes 0, a zero or a number written with a huge exponent (PostgreSQL's jsonb: "value overflows
     * numeric format"), U+0000 in a string or a name ("unsupported Unicode escape sequence"). The largest double,
     * the smallest, and exponents within the bound are stored.
     */
    @ParameterizedTest
    @ValueSource(strings = {"{\"n\":1e2147483648}", "{\"n\":1E+400}", "{\"n\":-1.8e308}", "{\"a\":{\"b\":[1,2e999]}}",
            "{\"n\":179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792}",
            "{\"x\":0.000e2147483648}", "{\"y\":1e-99999}", "{\"y\":1e-400}", "{\"z\":0e-1001}",
            "{\"nul\":\"a\\u0000b\"}", "{\"a\\u0000\":1}", "{\"list\":[\"\\u0000\"]}"})
    void metadataThatAStrictConsumerCannotReadIsRejected(String metadata) throws Exception {
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"metadata\":" + metadata + "}"),
                    400, "INVALID_PARAMETER", "Invalid metadata");
        assertThat(herald.interactions(notification.id()), is(empty()));
        assertNoContent(post(enhanced(notification.id()), JSON,
                             "{\"type\":\"click\",\"metadata\":{\"max\":1.7976931348623157e308,\"least\":4.9e-324,"
                                     + "\"zero\":0e-1000,\"n\":[-5],\"text\":\"a\\u0001b\"}}"));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @Test
    void metadataOverSixteenKibibytesIsRejected() throws Exception {
        String fits = "{\"k\":\"" + "y".repeat(TrackingRequest.MAX_METADATA_BYTES - 8) + "\"}";
        String over = "{\"k\":\"" + "y".repeat(TrackingRequest.MAX_METADATA_BYTES - 7) + "\"}";
        assertNoContent(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"metadata\":" + fits + "}"));
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"metadata\":" + over + "}"),
                    400, "INVALID_PARAMETER", "Invalid metadata");
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    @Test
    void anUnknownNotificationIsNotFound() {
        for (String path : List.of(simple("no_such_notification"), enhanced("no_such_notification"))) {
            assertError(post(path, JSON, "{\"type\":\"click\"}"), 404, "NOTIFICATION_NOT_FOUND", "Notification not found");
        }
    }

    @Test
    void otherMethodsAre405WithAllow() {
        for (String path : List.of(simple(notification.id()), enhanced(notification.id()))) {
            try (Http1ClientResponse response = client.get(path).request()) {
                assertThat(response.status(), is(Status.METHOD_NOT_ALLOWED_405));
                assertThat(response.headers().first(HeaderNames.ALLOW).orElseThrow(), is("POST, OPTIONS"));
                assertThat(JsonBodies.object(response.as(String.class)).getString("message"), is("Method not allowed"));
            }
        }
    }

    // The order of the checks: the first failure answers
    // (docs/api.md, POST /api/v1/public/track/{notificationId}/enhanced)

    @Test
    void aBadIdIsReportedBeforeAnythingElse() {
        assertError(post(simple("bad.id"), "application/xml", "not json"), 400, "INVALID_PARAMETER", "Invalid notification id");
    }

    @Test
    void sizeIsCheckedBeforeTheMediaType() throws Exception {
        byte[] body = "x".repeat(TrackingBody.MAX_BYTES + 1).getBytes(StandardCharsets.UTF_8);
        RawHttp.Response response = RawHttp.exchange(uri, "POST " + simple(notification.id()) + " HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/xml\r\nContent-Length: " + body.length, body);
        assertThat(response.status(), is(413));
    }

    @Test
    void theMediaTypeIsCheckedBeforeTheBody() {
        assertError(post(simple(notification.id()), "application/xml", "not json"), 415,
                    "UNSUPPORTED_MEDIA_TYPE", "Unsupported media type", MEDIA_TYPES);
    }

    @Test
    void theBodyIsCheckedBeforeTheType() {
        assertError(post(simple("no_such_notification"), JSON, "[]"), 400, "INVALID_BODY", "Invalid request body");
    }

    @Test
    void aMissingTypeIsReportedBeforeABadTimestamp() {
        assertError(post(enhanced(notification.id()), JSON, "{\"timestamp\":\"bad\"}"), 400,
                    "MISSING_PARAMETER", "Missing required parameter: type", ENHANCED_TYPES);
    }

    @Test
    void anInvalidTypeIsReportedBeforeBadTimestampOrMetadata() {
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"dismiss\",\"timestamp\":\"bad\",\"metadata\":1}"),
                    400, "INVALID_INTERACTION_TYPE", "Invalid interaction type", ENHANCED_TYPES);
    }

    @Test
    void theTimestampIsCheckedBeforeMetadata() {
        assertError(post(enhanced(notification.id()), JSON, "{\"type\":\"click\",\"timestamp\":\"bad\",\"metadata\":1}"),
                    400, "INVALID_PARAMETER", "Invalid timestamp");
    }

    @Test
    void bodyRulesAreCheckedBeforeTheNotificationIsLookedUp() {
        assertError(post(enhanced("no_such_notification"), JSON, "{\"type\":\"click\",\"metadata\":[]}"),
                    400, "INVALID_PARAMETER", "Invalid metadata");
        assertError(post(simple("no_such_notification"), JSON, "{\"type\":\"conversion\"}"),
                    400, "INVALID_INTERACTION_TYPE", "Invalid interaction type", SIMPLE_TYPES);
    }

    private Http1ClientResponse post(String path, String contentType, String body) {
        return client.post(path).header(HeaderNames.CONTENT_TYPE, contentType).submit(body);
    }

    private static void assertNoContent(Http1ClientResponse response) {
        try (response) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
            assertThat(response.entity().hasEntity(), is(false));
        }
    }

    private static void assertError(Http1ClientResponse response, int status, String code, String message) {
        assertError(response, status, code, message, null);
    }

    /**
     * The whole body, to the byte: the message as the specification writes it, then the code, then the details.
     *
     * @param details the {@code details} object's JSON, or null when the answer has none
     */
    private static void assertError(Http1ClientResponse response, int status, String code, String message, String details) {
        try (response) {
            assertThat(response.status().code(), is(status));
            assertThat(response.headers().contentType().orElseThrow().mediaType().text(), is(JSON));
            assertThat(response.as(String.class), is("{\"message\":\"" + message + "\",\"code\":\"" + code + "\""
                    + (details == null ? "" : ",\"details\":" + details) + "}"));
        }
    }

    private StoredInteraction single(String notificationId) throws SQLException {
        List<StoredInteraction> stored = herald.interactions(notificationId);
        assertThat(stored, hasSize(1));
        return stored.get(0);
    }

    private static String simple(String notificationId) {
        return "/api/v1/public/track/" + notificationId;
    }

    private static String enhanced(String notificationId) {
        return "/api/v1/public/track/" + notificationId + "/enhanced";
    }
}
