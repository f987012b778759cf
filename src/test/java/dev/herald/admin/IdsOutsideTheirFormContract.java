package dev.herald.admin;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Ids in a management path that no id Herald makes could be ({@link Ids#isWellFormed}) are not found, even when a
 * row with that id was written around Herald: two answers put the id they were asked for into a header (the
 * {@code Location} of a new translation, the {@code Content-Disposition} of a CSV export), and Helidon no longer
 * checks answers' headers (HttpVersions). A line break in such an id would have split the answer. And MariaDB
 * compares text ignoring trailing spaces: without the check, {@code {id}%20} found {@code {id}} (an outside test).
 */
abstract class IdsOutsideTheirFormContract extends HeraldServerTest {

    /** A path segment that decodes to a header line of its own. */
    private static final String SPLITTING = "x\r\nX-Injected: yes";
    private static final String SPLITTING_IN_PATH = "x%0D%0AX-Injected:%20yes";

    private final AdminClient admin;
    private final URI uri;
    private String projectId;
    private String notificationId;

    IdsOutsideTheirFormContract(Http1Client http, URI uri) {
        this.admin = new AdminClient(http);
        this.uri = uri;
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @BeforeEach
    void rows() {
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        notificationId = admin.created("/projects/" + projectId + "/notifications", "{\"message\":\"a\"}")
                .getString("id");
    }

    @Test
    void aProjectStoredWithALineBreakInItsIdIsNotFoundSoItsExportHeaderIsNeverMade() throws Exception {
        String stored = SPLITTING + "-" + projectId;
        try (Connection connection = herald.database().connect();
             PreparedStatement copy = connection.prepareStatement(
                     "INSERT INTO projects (id, name, created_at, default_locale, required_locales)"
                     + " SELECT ?, name, created_at, default_locale, required_locales FROM projects WHERE id = ?")) {
            copy.setString(1, stored);
            copy.setString(2, projectId);
            assertThat(copy.executeUpdate(), is(1));
        }
        RawHttp.Response csv = get("/api/v1/admin/projects/" + SPLITTING_IN_PATH + "-" + projectId
                                   + "/export/interactions?format=csv");
        assertThat(csv.body(), csv.status(), is(404));
        assertThat(csv.headers(), not(hasKey("x-injected")));
        assertThat(get("/api/v1/admin/projects/" + projectId + "/export/interactions?format=csv").status(), is(200));
    }

    @Test
    void aNotificationStoredWithALineBreakInItsIdIsNotFoundSoNoLocationNamesIt() throws Exception {
        String stored = SPLITTING + "-" + notificationId;
        moveNotification(notificationId, stored);
        RawHttp.Response translated = put("/api/v1/admin/notifications/" + SPLITTING_IN_PATH + "-" + notificationId
                                          + "/translations/fr", "{\"message\":\"bonjour\"}");
        assertThat(translated.body(), translated.status(), is(404));
        assertThat(translated.headers(), not(hasKey("x-injected")));
        moveNotification(stored, notificationId);
        RawHttp.Response wellFormed = put("/api/v1/admin/notifications/" + notificationId + "/translations/fr",
                                          "{\"message\":\"bonjour\"}");
        assertThat(wellFormed.body(), wellFormed.status(), is(201));
        assertThat(wellFormed.headers().get("location"),
                   is("/api/v1/admin/notifications/" + notificationId + "/translations/fr"));
    }

    /** The client encodes the space: {@code /webhooks/{id}%20}. */
    @Test
    void anIdWithATrailingSpaceNamesNothingOnEveryDatabase() {
        String key = admin.created("/projects/" + projectId + "/api-keys", "{}").getString("key");
        String kid = admin.created("/projects/" + projectId + "/token-keys", "{\"algorithm\":\"HS256\"}")
                .getString("kid");
        String endpoint = admin.created("/projects/" + projectId + "/webhooks",
                                        "{\"url\":\"https://example.com/hook\",\"eventTypes\":[\"notification.created\"]}")
                .getString("id");
        List<String> paths = List.of("/projects/" + projectId + " ", "/notifications/" + notificationId + " ",
                                     "/notifications/" + notificationId + " /stats", "/webhooks/" + endpoint + " ",
                                     "/webhooks/" + endpoint + " /deliveries");
        for (String path : paths) {
            assertThat(path, admin.call(Method.GET, path).status(), is(404));
        }
        assertThat(admin.call(Method.PATCH, "/api-keys/" + key + " ", "{\"showPast\":true}").status(), is(404));
        assertThat(admin.call(Method.DELETE, "/api-keys/" + key + " ").status(), is(404));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + kid + " ").status(), is(404));
        assertThat(admin.call(Method.DELETE, "/webhooks/" + endpoint + " ").status(), is(404));
        for (String filter : List.of("projectId=" + projectId, "targetId=" + kid, "targetId=" + endpoint)) {
            assertThat(filter, admin.call(Method.GET, "/audit?" + filter).body(), is(not("[]")));
            assertThat(filter, admin.call(Method.GET, "/audit?" + filter + " ").body(), is("[]"));
        }
        assertThat("nothing was changed or removed", admin.call(Method.GET, "/webhooks/" + endpoint).status(), is(200));
        assertThat(admin.call(Method.DELETE, "/token-keys/" + kid).status(), is(204));
        assertThat(admin.call(Method.DELETE, "/api-keys/" + key).status(), is(204));
    }

    @Test
    void theIdFormIsWhatHeraldMakesAndWhatTrackingTakes() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(Ids.isWellFormed(Ids.newId()), is(true));
        }
        assertThat(Ids.isWellFormed("a"), is(true));
        assertThat(Ids.isWellFormed("A-z_0".repeat(12) + "abcd"), is(true));
        assertThat(Ids.isWellFormed("a".repeat(65)), is(false));
        for (String id : new String[] {null, "", "a b", "a/b", "a.b", "a%0A", "a\nb", "é", "a:b"}) {
            assertThat(String.valueOf(id), Ids.isWellFormed(id), is(false));
        }
    }

    private void moveNotification(String from, String to) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement move = connection.prepareStatement("UPDATE notifications SET id = ? WHERE id = ?")) {
            move.setString(1, to);
            move.setString(2, from);
            assertThat(move.executeUpdate(), is(1));
        }
    }

    // JSON's syntax takes "\\ud800", which is no character: the answer said "ab?" and the database kept another
    // character (an outside test). A pair is one character, and stays one.
    @Test
    void aSurrogateEscapeWithoutItsPairIsRefusedInEveryBody() throws IOException {
        for (String name : List.of("ab\\ud800", "\\udc00x", "\\ud800\\ud800", "\\udfff\\ud800")) {
            AdminClient.Answer refused = admin.call(Method.POST, "/projects", "{\"name\":\"" + name + "\"}");
            assertThat(name, refused.status(), is(400));
            assertThat(refused.body(), containsString("no surrogate escape without its pair"));
        }
        assertThat(admin.created("/projects", "{\"name\":\"ab\\ud83d\\ude00\"}").getString("name"),
                   is("ab\ud83d\ude00"));
        String published = admin.created("/projects/" + projectId + "/notifications",
                                         "{\"message\":\"a\",\"status\":\"PUBLISHED\"}").getString("id");
        String track = "/api/v1/public/track/" + published + "/enhanced";
        RawHttp.Response refused = post(track, "{\"type\":\"click\",\"metadata\":{\"k\":\"x\\udfff\"}}");
        assertThat(refused.body(), refused.status(), is(400));
        assertThat(refused.body(), containsString("INVALID_BODY"));
        RawHttp.Response paired = post(track, "{\"type\":\"click\",\"metadata\":{\"k\":\"x\\ud83d\\ude00\"}}");
        assertThat(paired.body(), paired.status(), is(204));
    }

    private RawHttp.Response post(String path, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(uri, "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                     + "Content-Length: " + body.length + "\r\nConnection: close", body);
    }

    private RawHttp.Response get(String path) throws IOException {
        return RawHttp.exchange(uri, "GET " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + AdminClient.TOKEN
                                     + "\r\nConnection: close", new byte[0]);
    }

    private RawHttp.Response put(String path, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(uri, "PUT " + path + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + AdminClient.TOKEN
                                     + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                                     + "\r\nConnection: close", body);
    }
}
