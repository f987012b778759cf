package dev.herald.export;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.apikey.ApiKey;
import dev.herald.identity.UserIdentity;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.UserTokenMint;
import dev.herald.userstate.StateRows;
import dev.herald.userstate.StateWrite;
import dev.herald.userstate.UserState;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.export.ExportContract.ANSWER_BYTES;
import static dev.herald.export.ExportContract.PAGE_ROWS;
import static dev.herald.export.ExportContract.SETTLE;
import static dev.herald.export.ExportContract.VIEWER_TOKEN;
import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * The export of per-user state (docs/api.md#export) through the real server, run against each database by a
 * subclass: states written through the state API, or through the upsert itself ({@link StateRows}) where a test needs
 * a transaction of its own; the server's clock stands still unless a test moves it.
 */
abstract class UserStateExportContract extends HeraldServerTest {

    private final Http1Client http;
    private final AdminClient admin;
    private Project project;
    private ApiKey key;
    private UserTokenMint mint;
    private StateRows rows;

    UserStateExportContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    @BeforeEach
    void project() {
        herald.clock().set(START);
        project = herald.project();
        key = herald.key(project);
        mint = UserTokenMint.create(admin, project.id());
        rows = new StateRows(herald.services().database(), herald.clock());
    }

    @Test
    void aStateReachedIsOneRowWithItsInstantsAndWhenItLastChanged() {
        String id = herald.notification(project).save().id();
        String alice = mint.token("alice@example.com", START);
        assertThat(write(alice, id, "seen"), is(204));
        herald.clock().advance(Duration.ofMinutes(1));
        long readAt = herald.clock().millis();
        assertThat(write(alice, id, "read"), is(204));
        herald.clock().advance(SETTLE.plusMillis(1));

        Export export = export("");
        assertThat(export.status, is(200));
        assertThat(export.contentType, is("application/x-ndjson"));
        assertThat(export.more, is("false"));
        List<JsonObject> objects = export.objects();
        assertThat(objects.size(), is(1));
        JsonObject row = objects.getFirst();
        assertThat(row.keySet(), is(java.util.Set.of("userKey", "notificationId", "projectId", "seenAt", "readAt",
                                                     "dismissedAt", "archivedAt", "changedAt")));
        assertThat(row.getString("userKey"), is(UserIdentity.userKey(project.id(), "alice@example.com")));
        assertThat(row.getString("notificationId"), is(id));
        assertThat(row.getString("projectId"), is(project.id()));
        assertThat(row.getString("seenAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(row.getString("readAt"), is(Timestamps.format(readAt)));
        assertThat(row.get("dismissedAt"), is(JsonValue.NULL));
        assertThat(row.get("archivedAt"), is(JsonValue.NULL));
        assertThat(row.getString("changedAt"), is(Timestamps.format(readAt)));
        assertThat("never the token's sub", export.text(), is(export.text().replace("alice", "")));
    }

    /** Change data capture: a row comes again only when it gains a state, never for a write that changes nothing. */
    @Test
    void aRowMovesOnlyWhenAWriteSetsAState() {
        String id = herald.notification(project).save().id();
        String alice = mint.token("alice@example.com", START);
        assertThat(write(alice, id, "read"), is(204));
        herald.clock().advance(SETTLE.plusMillis(1));
        Export first = export("");
        assertThat(first.objects().size(), is(1));

        assertThat(write(alice, id, "seen"), is(204));
        assertThat(write(alice, id, "read"), is(204));
        herald.clock().advance(SETTLE.plusMillis(1));
        Export unchanged = export("cursor=" + first.cursor);
        assertThat(unchanged.lines(), is(empty()));
        assertThat(export("").objects().getFirst().getString("changedAt"), is("2026-11-22T10:00:00.000Z"));

        long dismissedAt = herald.clock().millis();
        assertThat(write(alice, id, "dismissed"), is(204));
        herald.clock().advance(SETTLE.plusMillis(1));
        List<JsonObject> moved = export("cursor=" + unchanged.cursor).objects();
        assertThat(moved.size(), is(1));
        assertThat(moved.getFirst().getString("readAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(moved.getFirst().getString("dismissedAt"), is(Timestamps.format(dismissedAt)));
        assertThat(moved.getFirst().getString("changedAt"), is(Timestamps.format(dismissedAt)));
    }

    @Test
    void pullsFollowingTheCursorHandOutEveryRowOnceInTheOrderChanged() throws SQLException {
        List<String> written = new ArrayList<>();
        for (int instant = 0; instant < 10; instant++) {
            // Three rows a millisecond: the keys order rows of one instant.
            List<String> keys = new ArrayList<>();
            for (int row = 0; row < 3; row++) {
                String user = userKey("u" + (100 - 3 * instant - row));
                upsert(List.of(new StateWrite(project.id(), user, "n", UserState.SEEN, herald.clock().millis())));
                keys.add(user);
            }
            written.addAll(keys.stream().sorted().toList());
            herald.clock().advance(Duration.ofMillis(1));
        }
        herald.clock().advance(SETTLE);

        List<String> pulled = new ArrayList<>();
        String cursor = "";
        List<String> more = new ArrayList<>();
        for (int pull = 0; pull < 6; pull++) {
            Export export = export("limit=8&cursor=" + cursor);
            export.objects().forEach(row -> pulled.add(row.getString("userKey")));
            more.add(export.more);
            cursor = export.cursor;
        }
        assertThat(pulled, is(written));
        assertThat(more, contains("true", "true", "true", "false", "false", "false"));
    }

    /**
     * Two instances' writes: a row stamped earlier commits after a later one. A cursor past the later row, handed out
     * while the earlier one was uncommitted, would skip it for ever; behind the settle window neither is handed out
     * until both committed.
     */
    @Test
    void aRowThatCommitsLateBelowAnotherIsNotSkipped() throws SQLException {
        List<String> pulled = new ArrayList<>();
        String cursor;
        try (Connection slowBatch = herald.database().connect()) {
            slowBatch.setAutoCommit(false);
            upsert(slowBatch, List.of(new StateWrite(project.id(), userKey("slow"), "n", UserState.READ,
                                                     herald.clock().millis())));
            herald.clock().advance(Duration.ofMillis(5));
            upsert(List.of(new StateWrite(project.id(), userKey("fast"), "n", UserState.READ,
                                          herald.clock().millis())));
            herald.clock().advance(Duration.ofMillis(5));

            Export whileUncommitted = export("");
            whileUncommitted.objects().forEach(row -> pulled.add(row.getString("userKey")));
            cursor = whileUncommitted.cursor;
            slowBatch.commit();
        }
        herald.clock().advance(SETTLE);
        export("cursor=" + cursor).objects().forEach(row -> pulled.add(row.getString("userKey")));

        assertThat(pulled, is(List.of(userKey("slow"), userKey("fast"))));
    }

    /**
     * Rows last written by a Herald before migration 27 (or by one during a rolling upgrade) changed at 0: the first
     * pull from the start hands them out, first, with no time of change.
     */
    @Test
    void rowsWithoutATimeOfChangeComeFirstFromTheStart() throws SQLException {
        upsert(List.of(new StateWrite(project.id(), userKey("new"), "n", UserState.SEEN, herald.clock().millis())));
        try (Connection connection = herald.database().connect();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO user_notification_states (project_id, user_key, notification_id, seen_at)"
                             + " VALUES (?, ?, 'n', 5)")) {
            insert.setString(1, project.id());
            insert.setString(2, userKey("old"));
            insert.executeUpdate();
        }
        herald.clock().advance(SETTLE.plusMillis(1));

        List<JsonObject> objects = export("").objects();
        assertThat(objects.stream().map(row -> row.getString("userKey")).toList(),
                   contains(userKey("old"), userKey("new")));
        assertThat(objects.getFirst().get("changedAt"), is(JsonValue.NULL));
        assertThat(objects.getFirst().getString("seenAt"), is("1970-01-01T00:00:00.005Z"));
    }

    @Test
    void anErasedUsersRowsAreGoneFromLaterPulls() {
        String id = herald.notification(project).save().id();
        assertThat(write(mint.token("alice@example.com", START), id, "seen"), is(204));
        assertThat(write(mint.token("bob@example.com", START), id, "seen"), is(204));
        herald.clock().advance(SETTLE.plusMillis(1));
        assertThat(export("").objects().size(), is(2));

        assertThat(admin.call(Method.DELETE, "/projects/" + project.id() + "/users/alice@example.com").status(),
                   lessThanOrEqualTo(204));

        assertThat(export("").objects().stream().map(row -> row.getString("userKey")).toList(),
                   contains(UserIdentity.userKey(project.id(), "bob@example.com")));
    }

    @Test
    void anotherProjectsRowsNeverAppear() throws SQLException {
        Project other = herald.project();
        long now = herald.clock().millis();
        upsert(List.of(new StateWrite(other.id(), userKey("a"), "n", UserState.SEEN, now),
                       new StateWrite(project.id(), userKey("b"), "n", UserState.SEEN, now),
                       new StateWrite(other.id(), userKey("c"), "n", UserState.SEEN, now)));
        herald.clock().advance(SETTLE.plusMillis(1));

        assertThat(export("").objects().stream().map(row -> row.getString("userKey")).toList(),
                   contains(userKey("b")));
        assertThat(export(other.id(), "").objects().size(), is(2));
    }

    @Test
    void csvHasAHeaderAndEmptyCellsForStatesNotReached() throws SQLException {
        long now = herald.clock().millis();
        // A server-made id that starts with "-" (1 time in 64) is written as it is: no cell here is a client's text.
        upsert(List.of(new StateWrite(project.id(), userKey("a"), "-UUL1DA--1Rah7eZmVOJQg", UserState.ARCHIVED, now)));
        herald.clock().advance(SETTLE.plusMillis(1));

        Export export = export("format=csv");

        assertThat(export.status, is(200));
        assertThat(export.contentType, startsWith("text/csv; charset=UTF-8"));
        assertThat(export.disposition, is("attachment; filename=\"user-states-" + project.id() + ".csv\""));
        assertThat(export.bytes[0] & 0xFF, is(0xEF));
        String text = new String(export.bytes, 3, export.bytes.length - 3, StandardCharsets.UTF_8);
        assertThat(Arrays.asList(text.split("\r\n", -1)), contains(
                "user_key,notification_id,project_id,seen_at,read_at,dismissed_at,archived_at,changed_at",
                userKey("a") + ",-UUL1DA--1Rah7eZmVOJQg," + project.id() + ",,,," + Timestamps.format(now) + "," + Timestamps.format(now),
                ""));
    }

    /**
     * Memory: the rows go out a page of {@link ExportContract#PAGE_ROWS} at a time. Time: an answer holds at most about
     * {@link ExportContract#ANSWER_BYTES}, whatever its limit; the cursors lead through the rest.
     */
    @Test
    void aLargeExportComesInAnswersOfBoundedBytesEachReadAPageAtATime() throws SQLException {
        int count = 1_000;
        List<StateWrite> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            writes.add(new StateWrite(project.id(), userKey("u" + i), "notification-" + "x".repeat(40) + i,
                                      UserState.READ, herald.clock().millis()));
        }
        upsert(writes);
        herald.clock().advance(SETTLE.plusMillis(1));
        ExportFigures figures = herald.services().exportFigures();
        long pagesBefore = figures.pages();

        int exported = 0;
        List<Integer> answerBytes = new ArrayList<>();
        String cursor = "";
        String more = "true";
        while (more.equals("true") && answerBytes.size() < 100) {
            Export export = export("limit=100000&cursor=" + cursor);
            exported += export.lines().size();
            answerBytes.add(export.bytes.length);
            cursor = export.cursor;
            more = export.more;
        }

        assertThat(exported, is(count));
        assertThat(answerBytes.size(), greaterThanOrEqualTo(count * 300 / ANSWER_BYTES));
        assertThat(answerBytes.stream().max(Integer::compare).orElseThrow(), lessThanOrEqualTo(ANSWER_BYTES));
        assertThat(figures.largestPage(), lessThanOrEqualTo((long) PAGE_ROWS));
        assertThat(figures.pages() - pagesBefore, greaterThanOrEqualTo((long) count / PAGE_ROWS));
    }

    @Test
    void badRequestsAreTheInteractionExportsErrors() {
        String path = "/projects/" + project.id() + "/export/user-states";
        assertError(path + "?limit=0", 400, "limit");
        assertError(path + "?limit=100001", 400, "limit");
        assertError(path + "?limit=ten", 400, "limit");
        assertError(path + "?format=xml", 400, "format");
        assertError(path + "?cursor=not-a-cursor", 400, "cursor");
        assertError(path + "?since=yesterday", 400, "since");
        assertError(path + "?since=2026-11-02T00:00:00Z&until=2026-11-01T00:00:00Z", 400, "until");
        assertError(path + "?limit=1&limit=abc", 400, "limit");
        assertError(path + "?format=csv&format=ndjson", 400, "format");
        assertError(path + "?until=2026-11-02T00:00:00Z&until=2026-11-02T00:00:00Z", 400, "until");
        String othersCursor = export(herald.project().id(), "").cursor;
        assertError(path + "?cursor=" + othersCursor, 400, "cursor");
        String interactionsCursor;
        try (Http1ClientResponse response = AdminClient.request(http, Method.GET, "/api/v1/admin/projects/"
                        + project.id() + "/export/interactions")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN).request()) {
            interactionsCursor = response.headers().first(ExportService.CURSOR).orElseThrow();
        }
        assertError(path + "?cursor=" + interactionsCursor, 400, "cursor");
        assertError("/projects/no-such-project/export/user-states", 404, null);
        assertThat(admin.call(Method.POST, path, "{}").status(), is(405));
        try (Http1ClientResponse response = http.get("/api/v1/admin" + path)
                .header(HeaderNames.AUTHORIZATION, "Bearer " + VIEWER_TOKEN).request()) {
            assertThat(response.status().code(), is(403));
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

    private int write(String token, String notificationId, String state) {
        try (Http1ClientResponse response = http.post("/api/v1/public/" + key.key() + "/users/me/state")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"notificationId\":\"" + notificationId + "\",\"state\":\"" + state + "\"}")) {
            return response.status().code();
        }
    }

    private void upsert(List<StateWrite> writes) throws SQLException {
        try (Connection connection = herald.database().connect()) {
            upsert(connection, writes);
        }
    }

    /** The writers' own statement, in the connection's transaction. */
    private void upsert(Connection connection, List<StateWrite> writes) throws SQLException {
        List<StateRows.Row> folded = StateRows.fold(writes);
        try (PreparedStatement statement = connection.prepareStatement(rows.sql(folded.size()))) {
            rows.bind(statement, 1, folded);
            statement.executeUpdate();
        }
    }

    private static String userKey(String sub) {
        return UserIdentity.userKey("export-test", sub);
    }

    private Export export(String query) {
        return export(project.id(), query);
    }

    private Export export(String projectId, String query) {
        try (Http1ClientResponse response = AdminClient.request(http, Method.GET, "/api/v1/admin/projects/" + projectId
                        + "/export/user-states" + (query.isEmpty() ? "" : "?" + query))
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN).request()) {
            byte[] bytes = response.entity().hasEntity() ? response.as(byte[].class) : new byte[0];
            return new Export(response.status().code(), bytes,
                              response.headers().first(HeaderNames.CONTENT_TYPE).orElse(null),
                              response.headers().first(ExportService.CURSOR).orElse(null),
                              response.headers().first(ExportService.MORE).orElse(null),
                              response.headers().first(HeaderNames.CONTENT_DISPOSITION).orElse(null));
        }
    }

    private record Export(int status, byte[] bytes, String contentType, String cursor, String more,
                          String disposition) {

        String text() {
            return new String(bytes, StandardCharsets.UTF_8);
        }

        List<String> lines() {
            String text = text();
            return text.isEmpty() ? List.of() : Arrays.asList(text.substring(0, text.length() - 1).split("\n", -1));
        }

        List<JsonObject> objects() {
            return lines().stream()
                    .map(line -> Json.parseObject(line.getBytes(StandardCharsets.UTF_8))
                            .orElseThrow(() -> new AssertionError("not one JSON object: " + line)))
                    .toList();
        }
    }
}
