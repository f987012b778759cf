package dev.herald.userstate;

import java.io.IOException;
import java.net.URI;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import dev.herald.api.Json;
import dev.herald.apikey.ApiKey;
import dev.herald.identity.UserIdentity;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.RawHttp;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Per-user state (docs/api.md, /api/v1/public/{apiKey}/users/me/…; docs/behaviour.md#per-user-state) with real user
 * tokens, run against each database by a subclass.
 */
abstract class UserStateContract extends HeraldServerTest {

    static final Map<String, String> SETTINGS = Map.of("admin.tokens.0", AdminClient.TOKEN);

    private final Http1Client client;
    private final URI uri;
    private final AdminClient admin;
    private Project project;
    private ApiKey key;
    private UserTokenMint mint;
    private String alice;

    UserStateContract(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
        this.admin = new AdminClient(client);
    }

    @BeforeEach
    void projectWithTokenKey() {
        herald.clock().set(START);
        project = herald.project();
        key = herald.key(project);
        mint = UserTokenMint.create(admin, project.id());
        alice = mint.token("alice@example.com", START);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET state", "POST state", "POST read-all"})
    void everyRouteRequiresAUserToken(String route) {
        String[] methodAndPath = route.split(" ");
        Answer answer = call(Method.create(methodAndPath[0]), methodAndPath[1], null,
                             methodAndPath[0].equals("GET") ? null : "{\"ids\":[]}");
        assertThat(answer.status, is(401));
        JsonObject error = JsonBodies.object(answer.body);
        assertThat(error.getString("code"), is("USER_TOKEN_REQUIRED"));
        assertThat(error.getString("error"), containsString("Authorization: Bearer"));
    }

    @Test
    void theFirstInstantOfEachStateIsKept() {
        Notification notification = herald.notification(project).save();
        assertThat(write(alice, event(notification.id(), "seen")), is(204));
        herald.clock().advance(Duration.ofMinutes(5));
        assertThat(write(alice, "{\"events\":[" + event(notification.id(), "seen") + ","
                + event(notification.id(), "read") + "]}"), is(204));
        herald.clock().advance(Duration.ofMinutes(5));
        assertThat(write(alice, event(notification.id(), "read")), is(204));

        JsonObject state = state(alice).getJsonObject("notifications").getJsonObject(notification.id());
        assertThat(state.getString("seenAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(state.getString("readAt"), is("2026-11-22T10:05:00.000Z"));
        assertThat(state.get("dismissedAt"), is(JsonValue.NULL));
    }

    /** docs/webhooks.md#events-and-payloads: a state is an event the first time a user reaches it, never again. */
    @Test
    void eachStateFirstReachedIsOneUserStateEventItem() throws Exception {
        long now = herald.clock().millis();
        herald.services().webhookEndpoints().create(new dev.herald.webhook.WebhookEndpoint("ep-" + project.id(),
                project.id(), "https://hooks.example/in", null, java.util.List.of("user.state"), "whsec_dGVzdA==",
                null, null, true, null, null, now, now), herald.fixture("webhook.created", project.id(), "ep"));
        Notification notification = herald.notification(project).save();
        assertThat(write(alice, event(notification.id(), "seen")), is(204));
        herald.clock().advance(Duration.ofMinutes(5));
        assertThat(write(alice, "{\"events\":[" + event(notification.id(), "seen") + ","
                + event(notification.id(), "read") + "]}"), is(204));
        herald.clock().advance(Duration.ofMinutes(5));
        assertThat(write(alice, event(notification.id(), "read")), is(204));

        java.util.List<String> items = new java.util.ArrayList<>();
        try (java.sql.Connection connection = herald.database().connect();
             java.sql.PreparedStatement select = connection.prepareStatement(
                     "SELECT id FROM outbox_events WHERE project_id = ? ORDER BY created_at")) {
            select.setString(1, project.id());
            try (java.sql.ResultSet ids = select.executeQuery()) {
                while (ids.next()) {
                    JsonObject payload = JsonBodies.object(herald.services().outbox().seal(ids.getString(1)));
                    assertThat(payload.getString("type"), is("user.state"));
                    payload.getJsonObject("data").getJsonArray("states").forEach(item -> items.add(
                            item.asJsonObject().getString("state") + " " + item.asJsonObject().getString("at")));
                    assertThat("never the token's sub", payload.toString(), not(containsString("alice")));
                }
            }
        }
        assertThat(items, is(java.util.List.of("seen 2026-11-22T10:00:00.000Z", "read 2026-11-22T10:05:00.000Z")));
    }

    @Test
    void theCountsAreThoseOfTheUsersFeedAndNameItsTag() {
        Notification seen = herald.notification(project).save();
        Notification read = herald.notification(project).save();
        Notification dismissed = herald.notification(project).save();
        Notification untouched = herald.notification(project).save();
        write(alice, "{\"events\":[" + event(seen.id(), "seen") + "," + event(read.id(), "read") + ","
                + event(dismissed.id(), "dismissed") + "]}");

        Answer feed = call(Method.GET, "notifications", alice, null);
        JsonObject state = state(alice);
        assertThat(state.getString("feedTag"), is(feed.etag));
        assertThat(state.getJsonObject("notifications").keySet(), containsInAnyOrder(
                JsonBodies.array(feed.body).stream().map(entry -> entry.asJsonObject().getString("id")).toArray()));
        // Unread: seen and untouched (read is read, dismissed is out of the counts); unseen: untouched alone.
        assertThat(state.getInt("unread"), is(2));
        assertThat(state.getInt("unseen"), is(1));
        assertThat(state.getJsonObject("notifications").getJsonObject(untouched.id()).get("seenAt"),
                   is(JsonValue.NULL));
    }

    @Test
    void readAllMarksTheIdsShownAndANotificationPublishedMeanwhileStaysUnread() {
        Notification first = herald.notification(project).save();
        Notification second = herald.notification(project).save();
        Notification publishedMeanwhile = herald.notification(project).save();
        assertThat(call(Method.POST, "read-all", alice,
                        "{\"ids\":[\"" + first.id() + "\",\"" + second.id() + "\"]}").status, is(204));

        JsonObject state = state(alice);
        assertThat(state.getInt("unread"), is(1));
        assertThat(state.getJsonObject("notifications").getJsonObject(publishedMeanwhile.id()).get("readAt"),
                   is(JsonValue.NULL));
        assertThat(state.getJsonObject("notifications").getJsonObject(first.id()).getString("readAt"),
                   is("2026-11-22T10:00:00.000Z"));
    }

    @Test
    void theStateAnswerHasItsOwnTagAndA304() {
        Notification notification = herald.notification(project).save();
        Answer first = call(Method.GET, "state", alice, null);
        assertThat(first.status, is(200));
        assertThat(first.etag, not(is(JsonBodies.object(first.body).getString("feedTag"))));
        assertThat(callIfNoneMatch(alice, first.etag), is(304));

        write(alice, event(notification.id(), "dismissed"));
        assertThat(callIfNoneMatch(alice, first.etag), is(200));
    }

    @Test
    void usersAreApart() {
        Notification notification = herald.notification(project).save();
        write(alice, event(notification.id(), "read"));
        String bob = mint.token("bob@example.com", START);
        assertThat(state(bob).getInt("unread"), is(1));
        assertThat(state(alice).getInt("unread"), is(0));
    }

    @Test
    void idsOfNoNotificationOfTheProjectAreLeftOut() throws SQLException {
        Project other = herald.project();
        Notification othersNotification = herald.notification(other).save();
        Notification mine = herald.notification(project).save();
        assertThat(write(alice, "{\"events\":[" + event(othersNotification.id(), "read") + ","
                + event("madeUp123", "read") + "," + event(mine.id(), "read") + "]}"), is(204));
        assertThat(storedRows("notification_id"), is(List.of(mine.id())));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"notificationId\":\"n1\"}|state",
            "{\"notificationId\":\"n1\",\"state\":\"clicked\"}|state",
            "{\"notificationId\":\"bad id!\",\"state\":\"seen\"}|notificationId",
            "{\"notificationId\":7,\"state\":\"seen\"}|notificationId",
            "{\"state\":\"seen\"}|notificationId",
            "{\"notificationId\":\"n1\",\"state\":\"seen\",\"at\":\"now\"}|at",
            "{\"events\":[]}|events",
            "{\"events\":{}}|events",
            "{\"events\":[{\"notificationId\":\"n1\",\"state\":\"seen\"},{\"notificationId\":\"n1\"}]}|events[1].state",
            "{\"events\":[{\"notificationId\":\"n1\",\"state\":\"seen\"},5]}|events[1]",
            "{\"events\":[{\"notificationId\":\"n1\",\"state\":\"seen\",\"x\":1}]}|events[0].x",
            "{\"events\":[],\"state\":\"seen\"}|events",
            "[1]|body"
    })
    void aBadStateBodyIsA400NamingItsField(String bodyAndField) {
        String[] parts = bodyAndField.split("\\|");
        Answer answer = call(Method.POST, "state", alice, parts[0]);
        assertThat(answer.body, answer.status, is(400));
        JsonObject error = JsonBodies.object(answer.body);
        assertThat(answer.body(), error.getString("code"), is("VALIDATION_ERROR"));
        assertThat(error.getJsonObject("details").getString("field"), is(parts[1]));
    }

    @Test
    void eventsAndIdsAreBounded() {
        String events = IntStream.range(0, 101).mapToObj(i -> event("n" + i, "seen")).collect(Collectors.joining(","));
        Answer tooMany = call(Method.POST, "state", alice, "{\"events\":[" + events + "]}");
        assertThat(tooMany.status, is(400));
        assertThat(JsonBodies.object(tooMany.body).getJsonObject("details").getString("field"), is("events"));

        String ids = IntStream.range(0, 1001).mapToObj(i -> "\"n" + i + "\"").collect(Collectors.joining(","));
        Answer tooManyIds = call(Method.POST, "read-all", alice, "{\"ids\":[" + ids + "]}");
        assertThat(tooManyIds.status, is(400));
        assertThat(JsonBodies.object(tooManyIds.body).getJsonObject("details").getString("field"), is("ids"));
        Answer badId = call(Method.POST, "read-all", alice, "{\"ids\":[\"n1\",\"no good\"]}");
        assertThat(JsonBodies.object(badId.body).getJsonObject("details").getString("field"), is("ids[1]"));
    }

    @Test
    void trackingWithATokenRecordsSeenAndReadAndWithoutOneNoState() throws SQLException {
        Notification notification = herald.notification(project).save();
        assertThat(track(notification.id(), "impression", null), is(204));
        assertThat(storedRows("notification_id"), is(List.of()));

        assertThat(track(notification.id(), "impression", alice), is(204));
        herald.clock().advance(Duration.ofMinutes(1));
        assertThat(track(notification.id(), "click", alice), is(204));
        JsonObject state = state(alice).getJsonObject("notifications").getJsonObject(notification.id());
        assertThat(state.getString("seenAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(state.getString("readAt"), is("2026-11-22T10:01:00.000Z"));
        assertThat(herald.interactions(notification.id()).size(), is(3));
    }

    @Test
    void dismissStaysRefusedByTracking() {
        Notification notification = herald.notification(project).save();
        assertThat(track(notification.id(), "dismiss", alice), is(400));
    }

    @Test
    void erasingAUserRemovesItsRowsAndNoOneElses() throws SQLException {
        Notification notification = herald.notification(project).save();
        String bob = mint.token("bob", START);
        write(alice, event(notification.id(), "read"));
        write(bob, event(notification.id(), "read"));

        assertThat(admin.call(Method.DELETE, "/projects/" + project.id() + "/users/alice@example.com").status(),
                   is(204));
        assertThat(storedRows("user_key"), is(List.of(UserIdentity.userKey(project.id(), "bob"))));
        assertThat(state(alice).getInt("unread"), is(1));
        String audit = admin.call(Method.GET, "/audit?projectId=" + project.id()).body();
        assertThat(audit, containsString("\"user.erased\""));
        assertThat(audit, containsString("\"rows\":1"));
        // The stored key is a guessable pseudonym of the sub: the audit log, which every viewer reads, has neither.
        assertThat(audit, not(containsString(UserIdentity.userKey(project.id(), "alice@example.com"))));
        assertThat(audit, not(containsString("alice@example.com")));

        assertThat(admin.call(Method.DELETE, "/projects/" + project.id() + "/users/nobody").status(), is(204));
        assertThat(admin.call(Method.DELETE, "/projects/p_unknown/users/alice").status(), is(404));
    }

    /**
     * The path's sub is read as sent: the router drops what follows a ";" (matrix parameters), so
     * {@code users/acme;tenant=2} erased the user {@code acme} (an outside review); bytes that are no UTF-8 answered
     * 204, erasing nothing.
     */
    @Test
    void aSubWithASemicolonInThePathErasesThatUserAndNoOther() throws SQLException, IOException {
        Notification notification = herald.notification(project).save();
        write(mint.token("acme", START), event(notification.id(), "read"));
        write(mint.token("acme;tenant=2", START), event(notification.id(), "read"));

        assertThat(eraseAsSent("acme;tenant=2"), is(204));
        assertThat(storedRows("user_key"), is(List.of(UserIdentity.userKey(project.id(), "acme"))));
        write(mint.token("acme;tenant=2", START), event(notification.id(), "read"));
        assertThat(eraseAsSent("acme%3Btenant%3D2"), is(204));
        assertThat(storedRows("user_key"), is(List.of(UserIdentity.userKey(project.id(), "acme"))));
        assertThat("a surrogate in UTF-8 is no character", refusal("q%ED%A0%80"),
                   containsString("its percent-encoded bytes are no UTF-8 text"));
        assertThat("a character cut short", refusal("q%E2%82"),
                   containsString("its percent-encoded bytes are no UTF-8 text"));
        RawHttp.Response stray = erasureAsSent("q%2");
        assertThat("a % without two digits, refused before routing", stray.body(), is("{\"error\":\"Bad Request: the"
                + " path has a % not followed by two hexadecimal digits (a % that is part of a segment, an erased"
                + " user's sub say, is sent as %25)\",\"code\":\"BAD_REQUEST\"}"));
        assertThat(stray.status(), is(400));
        assertThat("a raw # cut the sub short", refusal("acme#2"), containsString("a ? or # stands unencoded"));
        assertThat("a raw ? cut the sub short", refusal("acme?2"), containsString("a ? or # stands unencoded"));
        assertThat("acme is still there", storedRows("user_key"),
                   is(List.of(UserIdentity.userKey(project.id(), "acme"))));
        write(mint.token("élève un+", START), event(notification.id(), "read"));
        assertThat(eraseAsSent("%C3%A9l%C3%A8ve%20un+"), is(204));
        assertThat(storedRows("user_key"), is(List.of(UserIdentity.userKey(project.id(), "acme"))));
    }

    /** The path as written here, not encoded again by a client. */
    private int eraseAsSent(String sub) throws IOException {
        return erasureAsSent(sub).status();
    }

    private RawHttp.Response erasureAsSent(String sub) throws IOException {
        return RawHttp.exchange(uri, "DELETE /api/v1/admin/projects/" + project.id() + "/users/" + sub + " HTTP/1.1\r\n"
                + "Host: x\r\nAuthorization: Bearer " + AdminClient.TOKEN + "\r\nConnection: close\r\n\r\n");
    }

    /** The message of a 400 of the sub's field, which says what in the path's encoding is wrong. */
    private String refusal(String sub) throws IOException {
        RawHttp.Response answer = erasureAsSent(sub);
        assertThat(answer.body(), answer.status(), is(400));
        JsonObject error = JsonBodies.object(answer.body());
        assertThat(answer.body(), error.getString("code"), is("VALIDATION_ERROR"));
        assertThat(error.getJsonObject("details").getString("field"), is("sub"));
        return error.getString("error");
    }

    @Test
    void neitherTheSubNorAnAttributeIsStored() throws SQLException {
        Notification notification = herald.notification(project).save();
        String token = mint.token("carol-sub-42", Map.of("plan", "attr-value-pro-7781", "tags",
                                                         List.of("attr-tag-5512")), START);
        assertThat(write(token, event(notification.id(), "dismissed")), is(204));
        assertThat(track(notification.id(), "click", token), is(204));

        try (Connection connection = herald.database().connect();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT * FROM user_notification_states")) {
            ResultSetMetaData columns = rows.getMetaData();
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= columns.getColumnCount(); i++) {
                names.add(columns.getColumnName(i).toLowerCase());
            }
            assertThat(names, containsInAnyOrder("project_id", "user_key", "notification_id", "seen_at", "read_at",
                                                 "dismissed_at", "archived_at", "changed_at"));
            int count = 0;
            while (rows.next()) {
                count++;
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    String value = String.valueOf(rows.getString(i));
                    assertThat(value, not(containsString("carol-sub-42")));
                    assertThat(value, not(containsString("attr-value-pro-7781")));
                    assertThat(value, not(containsString("attr-tag-5512")));
                }
            }
            assertThat(count, is(1));
        }
    }

    @Test
    void statsCountTheUniqueUsersWhoSawANotification() {
        Notification notification = herald.notification(project).save();
        Notification other = herald.notification(project).save();
        String bob = mint.token("bob", START);
        write(alice, event(notification.id(), "seen"));
        write(alice, event(notification.id(), "read"));
        track(notification.id(), "impression", bob);
        track(notification.id(), "impression", null);
        write(bob, event(other.id(), "dismissed"));

        JsonObject stats = admin.call(Method.GET, "/notifications/" + notification.id() + "/stats").object();
        assertThat(stats.getInt("uniqueUsers"), is(2));
        assertThat(stats.getInt("impression"), is(2));
        assertThat(admin.call(Method.GET, "/notifications/" + notification.id() + "/stats?from=2026-11-23").object()
                           .getInt("uniqueUsers"), is(0));
        JsonObject projectStats = admin.call(Method.GET, "/projects/" + project.id() + "/stats").object();
        Map<String, Integer> perNotification = projectStats.getJsonArray("notifications").stream()
                .map(JsonValue::asJsonObject)
                .collect(Collectors.toMap(entry -> entry.getString("notificationId"),
                                          entry -> entry.getInt("uniqueUsers")));
        assertThat(perNotification.get(notification.id()), is(2));
    }

    @ParameterizedTest
    @ValueSource(strings = {"tenant/user", "a b", "\u00e9", "https://id.example.com/u?x=1#y", "ctl\u0001x", "LONG",
                            "EMOJI"})
    void anySubIsErasedByItsBody(String given) throws SQLException {
        // 256 characters; emoji are two UTF-16 units each, and were refused past 128 (an outside trial).
        String sub = given.equals("LONG") ? "\u00e9".repeat(256)
                : given.equals("EMOJI") ? "\uD83D\uDE00".repeat(256) : given;
        Notification notification = herald.notification(project).save();
        String token = mint.token(sub, START);
        assertThat(write(token, event(notification.id(), "read")), is(204));
        write(alice, event(notification.id(), "read"));

        AdminClient.Answer erased = admin.call(Method.POST, "/projects/" + project.id() + "/users/erase",
                                               Json.builders().createObjectBuilder().add("sub", sub).build().toString());
        assertThat(erased.body(), erased.status(), is(204));
        assertThat(storedRows("user_key"), is(List.of(UserIdentity.userKey(project.id(), "alice@example.com"))));
        assertThat(state(token).getInt("unread"), is(1));
    }

    /** The body route's path is also the path route's for the user "erase": its 405 names both methods. */
    @Test
    void theEraseRoutesOtherMethodsAreRefusedNamingBoth() {
        for (Method method : List.of(Method.GET, Method.PUT)) {
            try (Http1ClientResponse response = AdminClient.request(client, method, "/api/v1/admin/projects/"
                    + project.id() + "/users/erase").header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)
                    .request()) {
                assertThat(response.status().code(), is(405));
                assertThat(response.headers().first(HeaderNames.ALLOW).orElse(null), is("DELETE, POST"));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"sub\":\"\"}", "{\"sub\":7}", "{\"sub\":\"a\",\"x\":1}", "LONG", "LONG_EMOJI"})
    void aBadEraseBodyIsA400(String body) {
        String sent = body.equals("LONG") ? "{\"sub\":\"" + "a".repeat(257) + "\"}"
                : body.equals("LONG_EMOJI") ? "{\"sub\":\"" + "\\ud83d\\ude00".repeat(257) + "\"}" : body;
        AdminClient.Answer answer = admin.call(Method.POST, "/projects/" + project.id() + "/users/erase", sent);
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
    }

    @Test
    void writesOfNotificationsOutsideTheUsersFeedAreLeftOut() throws SQLException {
        String targeted = admin.created("/projects/" + project.id() + "/notifications",
                                        "{\"message\":\"for pro\",\"status\":\"PUBLISHED\",\"audience\":"
                                                + "{\"attribute\":\"plan\",\"operator\":\"equals\","
                                                + "\"value\":\"pro\"}}").getString("id");
        Notification draft = herald.notification(project).status(NotificationStatus.DRAFT).save();
        for (String id : List.of(targeted, draft.id())) {
            assertThat(write(alice, event(id, "seen")), is(204));
            assertThat(call(Method.POST, "read-all", alice, "{\"ids\":[\"" + id + "\"]}").status, is(204));
            assertThat(track(id, "impression", alice), is(204));
            assertThat(track(id, "click", alice), is(204));
        }
        assertThat(storedRows("notification_id"), is(List.of()));
        assertThat(admin.call(Method.GET, "/notifications/" + targeted + "/stats").object().getInt("uniqueUsers"),
                   is(0));
        assertThat(admin.call(Method.GET, "/notifications/" + draft.id() + "/stats").object().getInt("uniqueUsers"),
                   is(0));

        String pro = mint.token("pat", Map.of("plan", "pro"), START);
        assertThat(write(pro, event(targeted, "seen")), is(204));
        assertThat(track(targeted, "click", pro), is(204));
        assertThat(storedRows("notification_id"), is(List.of(targeted)));
    }

    @Test
    void aFeedAnswerForATokenIsPrivateAndOneWithoutIsAsBefore() {
        herald.notification(project).save();
        Answer withToken = call(Method.GET, "notifications", alice, null);
        assertThat(withToken.cacheControl, is(List.of("private, no-cache")));
        // Every feed answer varies by language too (docs/api.md#languages).
        assertThat(withToken.vary, is(List.of("Authorization, Accept-Language")));
        Answer withoutToken = call(Method.GET, "notifications", null, null);
        assertThat(withoutToken.cacheControl, is(List.of("no-cache")));
        assertThat(withoutToken.vary, is(List.of("Accept-Language")));
    }

    @Test
    void projectStatsListANotificationSeenOnlyThroughTheStateRoutes() {
        Notification notification = herald.notification(project).save();
        write(alice, event(notification.id(), "seen"));
        JsonObject projectStats = admin.call(Method.GET, "/projects/" + project.id() + "/stats").object();
        JsonObject entry = projectStats.getJsonArray("notifications").getJsonObject(0);
        assertThat(entry.getString("notificationId"), is(notification.id()));
        assertThat(entry.getInt("uniqueUsers"), is(1));
        assertThat(entry.getInt("impression"), is(0));
    }

    private static String event(String id, String state) {
        return "{\"notificationId\":\"" + id + "\",\"state\":\"" + state + "\"}";
    }

    private int write(String token, String body) {
        return call(Method.POST, "state", token, body).status;
    }

    private JsonObject state(String token) {
        Answer answer = call(Method.GET, "state", token, null);
        assertThat(answer.body, answer.status, is(200));
        return JsonBodies.object(answer.body);
    }

    /** @param route state, read-all or notifications (the feed) */
    private Answer call(Method method, String route, String token, String body) {
        String path = "/api/v1/public/" + key.key() + (route.equals("notifications") ? "/notifications"
                : "/users/me/" + route);
        Http1ClientRequest request = client.method(method).path(path);
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        try (Http1ClientResponse response = body == null ? request.request()
                : request.header(HeaderNames.CONTENT_TYPE, "application/json").submit(body)) {
            return new Answer(response.status().code(), response.entity().hasEntity() ? response.as(String.class) : "",
                              response.headers().first(HeaderNames.ETAG).orElse(null),
                              response.headers().all(HeaderNames.CACHE_CONTROL, List::of),
                              response.headers().all(HeaderNames.VARY, List::of));
        }
    }

    private int callIfNoneMatch(String token, String etag) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key.key() + "/users/me/state")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .header(HeaderNames.IF_NONE_MATCH, etag)
                .request()) {
            return response.status().code();
        }
    }

    private int track(String id, String type, String token) {
        Http1ClientRequest request = client.post("/api/v1/public/track/" + id + "/enhanced");
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        try (Http1ClientResponse response = request.header(HeaderNames.CONTENT_TYPE, "application/json")
                .submit("{\"type\":\"" + type + "\"}")) {
            return response.status().code();
        }
    }

    /** A column of the project's stored state rows, in order. */
    private List<String> storedRows(String column) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = herald.database().connect();
             var statement = connection.prepareStatement("SELECT " + column + " FROM user_notification_states"
                                                                 + " WHERE project_id = ? ORDER BY " + column)) {
            statement.setString(1, project.id());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }

    private record Answer(int status, String body, String etag, List<String> cacheControl, List<String> vary) {
    }
}
