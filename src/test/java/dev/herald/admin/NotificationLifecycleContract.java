package dev.herald.admin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.herald.account.Accounts;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Issue 30, point 9: an announcement's title, duplicate, unpublish, delete and version history in the management API
 * (docs/api.md#post-apiv1adminnotificationsidduplicate and the sections after it), run against each database by a subclass.
 */
abstract class NotificationLifecycleContract extends HeraldServerTest {

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;
    private String key;

    NotificationLifecycleContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Accounts.settings());
    }

    @BeforeEach
    void freshProject() {
        herald.clock().set(START);
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        key = admin.created("/projects/" + projectId + "/api-keys", "{}").getString("key");
    }

    @Test
    void aTitleIsKeptStrippedAndServedWhileAFeedWithoutTitlesKeepsItsShape() {
        String untitled = created("{\"message\":\"No heading\",\"status\":\"PUBLISHED\"}");
        assertThat(admin.call(Method.GET, "/notifications/" + untitled).object().get("title"), is(JsonValue.NULL));
        String before = publicFeedText();
        assertThat("absent, not null, when unset", before.contains("title"), is(false));
        assertThat(before, is("[{\"id\":\"" + untitled + "\",\"message\":\"No heading\",\"image\":null,"
                + "\"action\":{\"type\":\"NO_ACTION\",\"data\":null},\"preset\":\"default\",\"startDate\":null,"
                + "\"endDate\":null}]"));

        String titled = created("{\"title\":\"  New <b>reports</b>  \",\"message\":\"Text\",\"status\":\"PUBLISHED\"}");
        JsonObject served = publicFeed().getJsonObject(0);
        assertThat(served.getString("id"), is(titled));
        assertThat("plain text, stripped", served.getString("title"), is("New <b>reports</b>"));
        assertThat(publicFeed().getJsonObject(1).containsKey("title"), is(false));

        assertThat(admin.call(Method.PATCH, "/notifications/" + titled, "{\"title\":\"  \"}").object().get("title"),
                   is(JsonValue.NULL));
        assertThat("a blank title is none", publicFeed().getJsonObject(0).containsKey("title"), is(false));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"message\":\"m\",\"title\":5}", "{\"message\":\"m\",\"title\":\"two\\nlines\"}",
                            "{\"message\":\"m\",\"title\":\"two\\u2028lines\"}",
                            "{\"message\":\"m\",\"title\":\"a\\u0007b\"}", "{\"message\":\"m\",\"title\":{}}"})
    void aTitleThatIsNotOneLineOfTextIsRefusedNamingTheField(String body) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(body, answer.status(), is(400));
        assertThat(body, answer.object().getJsonObject("details").getString("field"), is("title"));
    }

    @Test
    void aTitleIsAtMost200Characters() {
        String emoji = "\uD83D\uDE00";
        assertThat(admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\",\"title\":\"" + emoji.repeat(200)
                + "\"}").status(), is(201));
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\",\"title\":\""
                + "t".repeat(201) + "\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("title"));
    }

    @Test
    void aDuplicateIsANewDraftWithTheContentButNotTheDates() {
        String id = created("{\"title\":\"Sale\",\"message\":\"Half price\",\"status\":\"PUBLISHED\","
                + "\"image\":\"https://cdn.example.com/a.png\",\"preset\":\"banner\","
                + "\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com\",\"target\":\"_blank\"}},"
                + "\"startDate\":\"2026-11-01T00:00:00Z\",\"endDate\":\"2026-12-01T00:00:00Z\"}");
        herald.clock().advance(java.time.Duration.ofMinutes(1));
        AdminClient.Answer copied = admin.call(Method.POST, "/notifications/" + id + "/duplicate");
        assertThat(copied.body(), copied.status(), is(201));
        JsonObject copy = copied.object();
        assertThat(copy.getString("id"), is(not(id)));
        assertThat(copied.location(), is("/api/v1/admin/notifications/" + copy.getString("id")));
        assertThat(copy.getString("projectId"), is(projectId));
        assertThat(copy.getString("status"), is("DRAFT"));
        assertThat(copy.getString("title"), is("Sale"));
        assertThat(copy.getString("message"), is("Half price"));
        assertThat(copy.getString("image"), is("https://cdn.example.com/a.png"));
        assertThat(copy.getString("preset"), is("banner"));
        assertThat(copy.getJsonObject("action").getJsonObject("data").getString("url"), is("https://example.com"));
        assertThat(copy.get("startDate"), is(JsonValue.NULL));
        assertThat(copy.get("endDate"), is(JsonValue.NULL));
        assertThat(copy.getString("createdAt"), is("2026-11-22T10:01:00.000Z"));
        assertThat("a draft is in no feed", publicFeed(), hasSize(1));

        JsonObject line = admin.call(Method.GET, "/audit?targetId=" + copy.getString("id")).array().getJsonObject(0);
        assertThat(line.getString("action"), is("notification.duplicated"));
        assertThat(line.getJsonObject("details").getString("duplicateOf"), is(id));
        assertThat(versions(copy.getString("id")), hasSize(1));
        assertThat(admin.call(Method.POST, "/notifications/nope/duplicate").status(), is(404));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/duplicate").status(), is(405));
    }

    @Test
    void unpublishingTakesItOutOfEveryFeedAndKeepsItsPendingChangesAsTheDraft() {
        String id = created("{\"message\":\"Live words\",\"status\":\"PUBLISHED\"}");
        admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"message\":\"Next words\"}");
        assertThat(publicFeed(), hasSize(1));

        AdminClient.Answer unpublished = admin.call(Method.POST, "/notifications/" + id + "/unpublish");
        assertThat(unpublished.body(), unpublished.status(), is(200));
        assertThat(unpublished.object().getString("status"), is("DRAFT"));
        assertThat(unpublished.object().getString("message"), is("Next words"));
        assertThat(publicFeed(), hasSize(0));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/draft").status(), is(404));
        assertThat(admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0).getString("action"),
                   is("notification.unpublished"));
        assertThat("the live words stay in the history",
                   versions(id).getJsonObject(1).getJsonObject("content").getString("message"), is("Live words"));

        AdminClient.Answer again = admin.call(Method.POST, "/notifications/" + id + "/unpublish");
        assertThat(again.status(), is(409));
        assertThat(again.object().getString("code"), is("NOT_PUBLISHED"));
        assertThat(admin.call(Method.POST, "/notifications/nope/unpublish").status(), is(404));
    }

    @Test
    void everyChangeOfContentIsAVersionAndAChangeOfStatusAloneIsNot() {
        String id = created("{\"title\":\"One\",\"message\":\"The first words\"}");
        herald.clock().advance(java.time.Duration.ofMinutes(1));
        admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"The second words\"}");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"The second words\"}");
        admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"message\":\"Pending words\"}");

        JsonArray versions = versions(id);
        assertThat("newest first; no version for the publish, the same words, nor a draft of changes",
                   versions.stream().map(v -> v.asJsonObject().getInt("version")).toList(), is(List.of(2, 1)));
        JsonObject newest = versions.getJsonObject(0);
        assertThat(newest.getString("savedAt"), is("2026-11-22T10:01:00.000Z"));
        assertThat(newest.getString("savedBy"), startsWith("token:"));
        assertThat(newest.getJsonObject("content"), is(JsonBodies.object("{\"title\":\"One\","
                + "\"message\":\"The second words\",\"image\":null,\"action\":{\"type\":\"NO_ACTION\",\"data\":null},"
                + "\"preset\":\"default\",\"startDate\":null,\"endDate\":null}")));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/versions/1").object().getJsonObject("content")
                           .getString("message"), is("The first words"));

        admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"Pending words\"}");
        assertThat("a draft of changes is a version once published", versions(id), hasSize(3));
    }

    /** Before migration 15, or by an older instance during a rolling upgrade: content no version recorded. */
    @Test
    void contentWrittenWithoutAVersionIsKeptAsOneAtTheNextChange() throws SQLException {
        String id = created("{\"message\":\"Kept by no version\"}");
        try (Connection connection = herald.database().connect();
             PreparedStatement delete = connection.prepareStatement(
                     "DELETE FROM notification_versions WHERE notification_id = ?")) {
            delete.setString(1, id);
            assertThat(delete.executeUpdate(), is(1));
        }
        admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"New words\"}");
        JsonArray versions = versions(id);
        assertThat(versions.stream().map(v -> v.asJsonObject().getInt("version")).toList(), is(List.of(2, 1)));
        assertThat(versions.getJsonObject(1).getString("savedBy"), is("unknown"));
        assertThat(versions.getJsonObject(1).getJsonObject("content").getString("message"), is("Kept by no version"));
    }

    @Test
    void versionsComeAPageAtATime() {
        String id = created("{\"message\":\"v1\"}");
        for (int i = 2; i <= 5; i++) {
            admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"v" + i + "\"}");
        }
        AdminClient.Answer first = admin.call(Method.GET, "/notifications/" + id + "/versions?limit=2");
        assertThat(first.array().stream().map(v -> v.asJsonObject().getInt("version")).toList(), is(List.of(5, 4)));
        assertThat(first.link(), startsWith("</api/v1/admin/notifications/" + id + "/versions?limit=2&cursor="));
        String next = first.link().substring("</api/v1/admin".length(), first.link().indexOf('>'));
        assertThat(admin.call(Method.GET, next).array().stream().map(v -> v.asJsonObject().getInt("version"))
                           .toList(), is(List.of(3, 2)));
    }

    @Test
    void onlyTheNewest100VersionsAreKept() {
        String id = created("{\"message\":\"v1\"}");
        for (int i = 2; i <= 102; i++) {
            admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"v" + i + "\"}");
        }
        JsonArray versions = admin.call(Method.GET, "/notifications/" + id + "/versions?limit=1000").array();
        assertThat(versions, hasSize(100));
        assertThat(versions.getJsonObject(99).getInt("version"), is(3));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/versions/2").status(), is(404));
    }

    @Test
    void aVersionRestoredToADraftIsItsContentAndANewVersion() {
        String id = created("{\"title\":\"Old\",\"message\":\"Old words\",\"preset\":\"banner\"}");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"title\":null,\"message\":\"New words\",\"preset\":\"x\"}");

        AdminClient.Answer restored = admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore");
        assertThat(restored.body(), restored.status(), is(200));
        assertThat(restored.object().getString("status"), is("DRAFT"));
        assertThat(restored.object().getString("title"), is("Old"));
        assertThat(restored.object().getString("message"), is("Old words"));
        assertThat(restored.object().getString("preset"), is("banner"));
        assertThat(versions(id).getJsonObject(0).getInt("version"), is(3));
        JsonObject line = admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0);
        assertThat(line.getString("action"), is("notification.version-restored"));
        assertThat(line.getJsonObject("details").getInt("version"), is(1));
    }

    @Test
    void aVersionRestoredToAPublishedOneIsItsDraftOfChangesAndReachesNoFeed() {
        String id = created("{\"message\":\"Old words\",\"status\":\"PUBLISHED\"}");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":\"Live words\"}");

        AdminClient.Answer restored = admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore");
        assertThat(restored.body(), restored.status(), is(200));
        assertThat(restored.object().getJsonObject("changes").getString("message"), is("Old words"));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is("Live words"));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/draft").object().getJsonObject("changes")
                           .getString("message"), is("Old words"));
        assertThat("no version until it is published", versions(id), hasSize(2));
    }

    @Test
    void unknownNotificationsAndVersionsAre404() {
        String id = created("{\"message\":\"m\"}");
        for (String path : List.of("/notifications/nope/versions", "/notifications/nope/versions/1",
                                   "/notifications/" + id + "/versions/2", "/notifications/" + id + "/versions/0",
                                   "/notifications/" + id + "/versions/x", "/notifications/" + id + "/versions/-1",
                                   "/notifications/" + id + "/versions/99999999999")) {
            assertThat(path, admin.call(Method.GET, path).status(), is(404));
        }
        assertThat(admin.call(Method.POST, "/notifications/" + id + "/versions/7/restore").status(), is(404));
        assertThat(admin.call(Method.POST, "/notifications/" + id + "/versions").status(), is(405));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/versions/1/restore").status(), is(405));
    }

    @Test
    void aDeletedNotificationTakesItsVersionsWithIt() {
        String id = created("{\"message\":\"m\",\"status\":\"PUBLISHED\"}");
        assertThat(admin.call(Method.DELETE, "/notifications/" + id).status(), is(204));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/versions").status(), is(404));
        assertThat(publicFeed(), hasSize(0));
        assertThat(admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0).getString("action"),
                   is("notification.deleted"));
    }

    @Test
    void aViewerReadsTheHistoryButChangesNothing() {
        String id = created("{\"message\":\"m\",\"status\":\"PUBLISHED\"}");
        Map<String, String> victor = Map.of("Authorization", "Bearer " + Accounts.VICTOR_TOKEN);
        assertThat(Accounts.send(http, Method.GET, "/notifications/" + id + "/versions", null, victor).status(),
                   is(200));
        for (String path : List.of("/duplicate", "/unpublish", "/versions/1/restore")) {
            assertThat(path, Accounts.send(http, Method.POST, "/notifications/" + id + path, null, victor).status(),
                       is(403));
        }
        assertThat(Accounts.send(http, Method.DELETE, "/notifications/" + id, null, victor).status(), is(403));
        assertThat(publicFeed(), hasSize(1));
    }

    private String created(String body) {
        return admin.created(notificationsPath(), body).getString("id");
    }

    private JsonArray versions(String id) {
        AdminClient.Answer answer = admin.call(Method.GET, "/notifications/" + id + "/versions");
        assertThat(answer.body(), answer.status(), is(200));
        return answer.array();
    }

    private String notificationsPath() {
        return "/projects/" + projectId + "/notifications";
    }

    private String publicFeedText() {
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status(), is(Status.OK_200));
            return response.as(String.class);
        }
    }

    private JsonArray publicFeed() {
        return JsonBodies.array(publicFeedText());
    }
}
