package dev.herald.export;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.herald.api.Json;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * Exports of interactions (docs/api.md#export) through the real server, run against each database by a subclass.
 * Rows are mostly written straight into the table, with the times a test needs; the server's clock stands still
 * unless a test moves it.
 */
abstract class ExportContract extends HeraldServerTest {

    static final Duration SETTLE = Duration.ofSeconds(10);
    static final int PAGE_ROWS = 7;
    static final int ANSWER_BYTES = 65_536;
    static final String VIEWER_TOKEN = "export-viewer-token-0123456789abcdef0123456789";

    private final Http1Client http;
    private final AdminClient admin;
    String projectId;
    long now;

    final URI uri;

    ExportContract(Http1Client http, URI uri) {
        this.http = http;
        this.uri = uri;
        this.admin = new AdminClient(http);
    }

    static void startWithExportSettings(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                             "admin.accounts.0.name", "vera",
                                             "admin.accounts.0.role", "viewer",
                                             "admin.accounts.0.token-sha256", Tokens.sha256(VIEWER_TOKEN),
                                             "tracking.export.settle-window", SETTLE.toString(),
                                             "tracking.export.page-rows", String.valueOf(PAGE_ROWS),
                                             "tracking.export.answer-bytes", String.valueOf(ANSWER_BYTES)));
    }

    @BeforeEach
    void project() {
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        now = herald.clock().millis();
    }

    @Test
    void aTrackedInteractionIsOneJsonObjectALineWithWhatHeraldStores() {
        String id = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"a\"}").getString("id");
        try (Http1ClientResponse response = http.post("/api/v1/public/track/" + id + "/enhanced")
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"click\",\"timestamp\":\"2026-11-22T09:00:00Z\",\"metadata\":{\"plan\":\"pro é 😀\"}}")) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
        }
        herald.clock().advance(SETTLE.plusMillis(1));

        Export export = export("");
        assertThat(export.status, is(200));
        assertThat(export.contentType, is("application/x-ndjson"));
        assertThat(export.more, is("false"));
        assertThat(export.lines().size(), is(1));
        JsonObject row = export.objects().getFirst();
        assertThat(row.keySet(), is(Set.of("id", "notificationId", "projectId", "type", "occurredAt", "receivedAt",
                                           "endpoint", "locale", "metadata")));
        assertThat(row.getString("notificationId"), is(id));
        assertThat(row.getString("projectId"), is(projectId));
        assertThat(row.getString("type"), is("click"));
        assertThat(row.getString("occurredAt"), is("2026-11-22T09:00:00.000Z"));
        assertThat(row.getString("receivedAt"), is(dev.herald.api.Timestamps.format(now)));
        assertThat(row.getString("endpoint"), is("enhanced"));
        assertThat(row.getString("locale"), is("en"));
        assertThat(row.getJsonObject("metadata").getString("plan"), is("pro é 😀"));
    }

    @Test
    void pullsFollowingTheCursorHandOutEveryRowOnceInTheOrderReceived() throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            // Three rows a millisecond: the id orders rows of one instant.
            ids.add(insert(now + i / 3, "n" + i, null));
        }
        herald.clock().advance(SETTLE.plusMillis(100));

        List<Long> pulled = new ArrayList<>();
        String cursor = "";   // an empty cursor: the first pull's
        List<String> more = new ArrayList<>();
        for (int pull = 0; pull < 10; pull++) {
            Export export = export("limit=8&cursor=" + cursor);
            export.objects().forEach(row -> pulled.add(row.getJsonNumber("id").longValue()));
            more.add(export.more);
            cursor = export.cursor;
        }
        assertThat(pulled, is(ids));
        assertThat(more.subList(0, 4), contains("true", "true", "true", "false"));

        // Later rows come with the same cursor, once settled.
        long later = insert(herald.clock().millis(), "late", null);
        assertThat(export("cursor=" + cursor).lines(), is(empty()));
        herald.clock().advance(SETTLE.plusMillis(1));
        Export next = export("cursor=" + cursor);
        assertThat(next.objects().stream().map(row -> row.getJsonNumber("id").longValue()).toList(), contains(later));
    }

    /**
     * Group commits: a row stamped earlier (a lower id here too) commits after a later one. A cursor past the later
     * row, handed out while the earlier one was uncommitted, would skip it for ever; behind the settle window neither
     * is handed out until both committed.
     */
    @Test
    void aRowThatCommitsLateBelowAnotherIsNotSkipped() throws SQLException {
        Set<Long> pulled = new HashSet<>();
        List<Long> repeated = new ArrayList<>();
        long early;
        long committedFirst;
        String cursor;
        try (Connection slowBatch = herald.database().connect()) {
            slowBatch.setAutoCommit(false);
            early = insert(slowBatch, now, "slow", null, null);
            herald.clock().advance(Duration.ofMillis(5));
            committedFirst = insert(herald.clock().millis(), "fast", null);
            herald.clock().advance(Duration.ofMillis(5));

            Export whileUncommitted = export("");
            whileUncommitted.objects().forEach(row -> collect(row, pulled, repeated));
            cursor = whileUncommitted.cursor;
            slowBatch.commit();
        }
        herald.clock().advance(SETTLE);
        export("cursor=" + cursor).objects().forEach(row -> collect(row, pulled, repeated));

        assertThat(pulled, is(Set.of(early, committedFirst)));
        assertThat(repeated, is(empty()));
    }

    /**
     * Memory: the rows go out as they are read, a page of {@link #PAGE_ROWS} at a time, never the answer whole. Time:
     * an answer holds at most about {@link #ANSWER_BYTES}, whatever its limit, so that it is sent well within the read
     * time-out that cuts any longer answer; the cursors lead through the rest.
     */
    @Test
    void aLargeExportComesInAnswersOfBoundedBytesEachReadAPageAtATime() throws SQLException {
        int rows = 3_000;
        List<Long> ids = insertMany(rows);
        herald.clock().advance(SETTLE.plusMillis(1));
        ExportFigures figures = herald.services().exportFigures();
        long pagesBefore = figures.pages();

        List<Long> exported = new ArrayList<>();
        List<Integer> answerBytes = new ArrayList<>();
        String cursor = "";
        String more = "true";
        while (more.equals("true") && answerBytes.size() < 1_000) {
            Export export = export("limit=100000&cursor=" + cursor);
            exported.addAll(ids(export));
            answerBytes.add(export.bytes.length);
            cursor = export.cursor;
            more = export.more;
        }

        assertThat(exported, is(ids));
        assertThat(answerBytes.stream().max(Integer::compare).orElseThrow(), lessThanOrEqualTo(ANSWER_BYTES));
        // Each answer but the last (empty) one is at least half full: the estimate is close to what is written.
        assertThat(answerBytes.size(), lessThanOrEqualTo(2 * (rows * 1_200) / ANSWER_BYTES + 2));
        assertThat(figures.largestPage(), lessThanOrEqualTo((long) PAGE_ROWS));
        assertThat(figures.pages() - pagesBefore, greaterThanOrEqualTo((long) rows / PAGE_ROWS));
    }

    @Test
    void sinceAndUntilBoundTheTimeReceived() throws SQLException {
        long first = insert(now, "a", null);
        long second = insert(now + 1_000, "b", null);
        long third = insert(now + 2_000, "c", null);
        herald.clock().advance(SETTLE.plusSeconds(3));
        String at = java.time.Instant.ofEpochMilli(now + 1_000).toString();
        String after = java.time.Instant.ofEpochMilli(now + 2_000).toString();

        assertThat(ids(export("since=" + at)), contains(second, third));
        assertThat(ids(export("until=" + after)), contains(first, second));
        assertThat(ids(export("since=" + at + "&until=" + after)), contains(second));
        Export untilFuture = export("until=2099-01-01T00:00:00Z");
        assertThat(ids(untilFuture), contains(first, second, third));
    }

    /**
     * A line is a row for every loader: a client's U+2028, U+2029 or U+0085 in its metadata went out raw, valid JSON
     * that a loader splitting lines by Unicode's rules (Python's {@code str.splitlines}) cut in two, stopping the
     * import at that row on every pull (an outside review). Each is written as its escape: the same JSON value.
     */
    @Test
    void unicodeLineSeparatorsInWhatAClientWroteAreEscapedSoEachLineIsARow() throws SQLException {
        String note = "a\u2028b\u2029c\u0085d\u000be";
        insert(now, "n1", "{\"note\":\"" + note.replace("\u000b", "\\u000b") + "\"}");
        insert(now + 1, "n2", null);
        herald.clock().advance(SETTLE.plusMillis(2));

        Export export = export("");
        String text = new String(export.bytes, StandardCharsets.UTF_8);
        assertThat(text.split("[\\n\\r\\u000b\\u000c\\u001c-\\u001e\\u0085\\u2028\\u2029]", -1).length, is(3));
        assertThat(text, containsString("\"a\\u2028b\\u2029c\\u0085d\\u000be\""));
        assertThat(export.objects().getFirst().getJsonObject("metadata").getString("note"), is(note));
    }

    /**
     * What a client wrote (its locale, its metadata) and a spreadsheet would run gets a leading apostrophe; what
     * Herald made (an id, a type, an instant) never does, whatever it starts with: a base64url id starts with "-" one
     * time in 64, and a changed id would join nothing.
     */
    @Test
    void csvQuotesCellsAndNeutralisesWhatASpreadsheetWouldRunInWhatAClientWrote() throws SQLException {
        insert(now, "-UUL1DA--1Rah7eZmVOJQg", "{\"note\":\"a, \\\"b\\\"\\nc\"}", "=HYPERLINK(\"http://evil\")");
        insert(now + 1, "n2", "-2+3", "-x");
        insert(now + 2, "two\nlines", null, null);
        herald.clock().advance(SETTLE.plusMillis(3));

        Export export = export("format=csv");

        assertThat(export.status, is(200));
        assertThat(export.contentType, startsWith("text/csv; charset=UTF-8"));
        assertThat(export.disposition, is("attachment; filename=\"interactions-" + projectId + ".csv\""));
        assertThat(export.bytes[0] & 0xFF, is(0xEF));
        String text = new String(export.bytes, 3, export.bytes.length - 3, StandardCharsets.UTF_8);
        String[] lines = text.split("\r\n", -1);
        assertThat(lines[0], is("id,notification_id,project_id,type,occurred_at,received_at,endpoint,locale,metadata"));
        assertThat(lines[1], org.hamcrest.Matchers.containsString(",-UUL1DA--1Rah7eZmVOJQg," + projectId + ",click,"));
        assertThat(lines[1], org.hamcrest.Matchers.endsWith(
                ",enhanced,\"'=HYPERLINK(\"\"http://evil\"\")\",\"{\"\"note\"\":\"\"a, \\\"\"b\\\"\"\\nc\"\"}\""));
        assertThat(lines[2], org.hamcrest.Matchers.endsWith(",enhanced,'-x,'-2+3"));
        assertThat(text, org.hamcrest.Matchers.containsString(",\"two\nlines\"," + projectId + ","));
        assertThat(lines[lines.length - 1], is(""));
        assertThat(lines.length, is(5));
    }

    /**
     * Found by an outside test: over HTTP/1.0 an export came chunked, which a 1.0 client reads as part of the file
     * and, kept alive, cannot find the end of (RFC 9112 §6.1). It comes with its length now, the same bytes.
     */
    @Test
    void anExportToAnHttp10ClientHasItsLengthAndTheSameBytes() throws SQLException, IOException {
        String id = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"a\"}").getString("id");
        for (int i = 0; i < 3 * PAGE_ROWS + 2; i++) {
            insert(now - SETTLE.toMillis() - 60_000 + i, id, null);
        }
        for (String format : List.of("ndjson", "csv")) {
            String path = "/projects/" + projectId + "/export/interactions?format=" + format;
            RawHttp.Response marked = raw("HTTP/1.1", path, "Herald-Request-Http-1-0: 1\r\n");
            assertThat("a client cannot ask for the 1.0 answer by the mark", marked.headers().get("transfer-encoding"),
                       is("chunked"));
            RawHttp.Response whole = raw("HTTP/1.0", path, "");
            assertThat(whole.status(), is(200));
            assertThat(whole.headers().containsKey("transfer-encoding"), is(false));
            assertThat(whole.headers().get("content-length"),
                       is(String.valueOf(whole.body().getBytes(StandardCharsets.UTF_8).length)));
            assertThat(whole.body(), is(admin.call(Method.GET, path).body()));
            assertThat(whole.body().lines().count(), is(format.equals("csv") ? 3L * PAGE_ROWS + 3 : 3L * PAGE_ROWS + 2));
            // Rows may change between the two reads: the connection closes after the answer, kept alive or not, so
            // that an answer short of its length is never followed by the next one (an outside test read one so).
            RawHttp.Conversation kept = RawHttp.converse(uri, ("GET /api/v1/admin" + path + " HTTP/1.0\r\nAuthorization: "
                    + "Bearer " + AdminClient.TOKEN + "\r\nConnection: keep-alive\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII), Duration.ofSeconds(5));
            assertThat(kept.closedByServer(), is(true));
            assertThat(kept.answers(), is(1));
            assertThat(kept.text().contains("\r\nConnection: close\r\n"), is(true));
        }
    }

    private RawHttp.Response raw(String version, String path, String more) throws IOException {
        return RawHttp.exchange(uri, "GET /api/v1/admin" + path + " " + version + "\r\nHost: x\r\nAuthorization: Bearer "
                                     + AdminClient.TOKEN + "\r\n" + more + "Connection: close", new byte[0]);
    }

    @Test
    void badRequestsAreJsonErrors() {
        String path = "/projects/" + projectId + "/export/interactions";
        assertError(path + "?limit=0", 400, "limit");
        assertError(path + "?limit=100001", 400, "limit");
        assertError(path + "?limit=ten", 400, "limit");
        assertError(path + "?format=xml", 400, "format");
        // A name without "=" says as little as "format=": refused alike, not read as the default (an outside review).
        for (String bare : List.of("format", "limit", "since", "format&format=csv", "format=csv&format",
                                   "limit&limit=2")) {
            RawHttp.Response answer;
            try {
                answer = raw("HTTP/1.1", path + "?" + bare, "");
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            assertThat(bare + ": " + answer.body(), answer.status(), is(400));
        }
        assertError(path + "?cursor=not-a-cursor", 400, "cursor");
        assertError(path + "?since=yesterday", 400, "since");
        assertError(path + "?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z", 400, "until");
        assertError(path + "?limit=1&limit=abc", 400, "limit");
        assertError(path + "?format=csv&format=ndjson", 400, "format");
        assertError(path + "?since=2026-11-01T00:00:00Z&since=2026-11-02T00:00:00Z", 400, "since");
        assertError(path + "?cursor=&cursor=", 400, "cursor");
        String otherProject = admin.created("/projects", "{\"name\":\"q\"}").getString("id");
        String othersCursor = export(otherProject, "").cursor;
        assertError(path + "?cursor=" + othersCursor, 400, "cursor");
        assertError("/projects/no-such-project/export/interactions", 404, null);
        assertThat(admin.call(Method.POST, "/projects/" + projectId + "/export/interactions", "{}").status(), is(405));
    }

    /**
     * A query's unencoded + is a space once decoded, so {@code since=...+01:00} reads as a bad date-time that looks
     * right: the error says to encode it, in the same JSON error.
     */
    @Test
    void anOffsetsUnencodedPlusIsA400ThatSaysToEncodeIt() throws IOException {
        RawHttp.Response answer = raw("HTTP/1.1", "/projects/" + projectId
                + "/export/interactions?since=2026-11-22T10:00:00+01:00", "");
        assertThat(answer.status(), is(400));
        JsonObject body = Json.parseObject(answer.body().getBytes(StandardCharsets.UTF_8)).orElseThrow();
        assertThat(body.getString("code"), is("VALIDATION_ERROR"));
        assertThat(body.getJsonObject("details").getString("field"), is("since"));
        assertThat(body.getString("error"), is("since must be an ISO 8601 date-time with a zone (a space where its "
                + "offset's + was: encode + as %2B in a query)"));
        assertThat(raw("HTTP/1.1", "/projects/" + projectId + "/export/interactions?since=2026-11-22T10:00:00%2B01:00",
                       "").status(), is(200));
    }

    @Test
    void aViewerMayNotExportRawRows() {
        try (Http1ClientResponse response = http.get("/api/v1/admin/projects/" + projectId + "/export/interactions")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + VIEWER_TOKEN).request()) {
            assertThat(response.status().code(), is(403));
            assertThat(Json.parseObject(response.as(byte[].class)).orElseThrow().getString("code"), is("FORBIDDEN"));
        }
        try (Http1ClientResponse response = http.get("/api/v1/admin/projects/" + projectId + "/export/interactions")
                .request()) {
            assertThat(response.status().code(), is(401));
        }
    }

    private void assertError(String path, int status, String field) {
        AdminClient.Answer answer = admin.call(Method.GET, path);
        assertThat(path, answer.status(), is(status));
        JsonObject body = answer.object();
        if (field != null) {
            assertThat(path, body.getString("code"), is("VALIDATION_ERROR"));
            assertThat(path, body.getJsonObject("details").getString("field"), is(field));
        } else {
            assertThat(path, body.getString("code"), is("NOT_FOUND"));
        }
    }

    private static void collect(JsonObject row, Set<Long> pulled, List<Long> repeated) {
        long id = row.getJsonNumber("id").longValue();
        if (!pulled.add(id)) {
            repeated.add(id);
        }
    }

    private static List<Long> ids(Export export) {
        return export.objects().stream().map(row -> row.getJsonNumber("id").longValue()).toList();
    }

    Export export(String query) {
        return export(projectId, query);
    }

    private Export export(String project, String query) {
        try (Http1ClientResponse response = AdminClient.request(http, Method.GET, "/api/v1/admin/projects/" + project
                        + "/export/interactions" + (query.isEmpty() ? "" : "?" + query))
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN).request()) {
            byte[] bytes = response.entity().hasEntity() ? response.as(byte[].class) : new byte[0];
            return new Export(response.status().code(), bytes,
                              response.headers().first(HeaderNames.CONTENT_TYPE).orElse(null),
                              response.headers().first(ExportService.CURSOR).orElse(null),
                              response.headers().first(ExportService.MORE).orElse(null),
                              response.headers().first(HeaderNames.CONTENT_DISPOSITION).orElse(null));
        }
    }

    private long insert(long receivedAt, String notificationId, String metadata) throws SQLException {
        return insert(receivedAt, notificationId, metadata, null);
    }

    private long insert(long receivedAt, String notificationId, String metadata, String locale) throws SQLException {
        try (Connection connection = herald.database().connect()) {
            return insert(connection, receivedAt, notificationId, metadata, locale);
        }
    }

    private long insert(Connection connection, long receivedAt, String notificationId, String metadata, String locale)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO interactions (notification_id, project_id, type, occurred_at, received_at, endpoint,"
                        + " metadata, locale) VALUES (?, ?, 'click', ?, ?, 'enhanced', ?, ?)",
                new String[] {"seq"})) {
            insert.setString(1, notificationId);
            insert.setString(2, projectId);
            insert.setLong(3, receivedAt);
            insert.setLong(4, receivedAt);
            insert.setString(5, metadata);
            insert.setString(6, locale);
            insert.executeUpdate();
            try (var keys = insert.getGeneratedKeys()) {
                keys.next();
                return keys.getLong(1);
            }
        }
    }

    /** Rows a millisecond apart, with a kilobyte of metadata each, in one transaction. */
    List<Long> insertMany(int rows) throws SQLException {
        String metadata = "{\"pad\":\"" + "x".repeat(1000) + "\"}";
        List<Long> ids = new ArrayList<>();
        try (Connection connection = herald.database().connect()) {
            connection.setAutoCommit(false);
            for (int i = 0; i < rows; i++) {
                ids.add(insert(connection, now + i, "n" + i, metadata, null));
            }
            connection.commit();
        }
        herald.clock().advance(Duration.ofMillis(rows));
        return ids;
    }

    record Export(int status, byte[] bytes, String contentType, String cursor, String more,
                          String disposition) {

        List<String> lines() {
            String text = new String(bytes, StandardCharsets.UTF_8);
            return text.isEmpty() ? List.of() : Arrays.asList(text.split("\n", -1)).subList(0, text.split("\n", -1).length - 1);
        }

        List<JsonObject> objects() {
            return lines().stream()
                    .map(line -> Json.parseObject(line.getBytes(StandardCharsets.UTF_8))
                            .orElseThrow(() -> new AssertionError("not one JSON object: " + line)))
                    .toList();
        }
    }
}
