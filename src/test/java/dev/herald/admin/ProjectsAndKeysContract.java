package dev.herald.admin;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Projects and API keys in the management API (docs/api.md#management-api), run against each database by a subclass.
 */
abstract class ProjectsAndKeysContract extends HeraldServerTest {

    /** One character, two UTF-16 units, four bytes of UTF-8. */
    private static final String EMOJI = "\uD83D\uDE00";

    private final Http1Client http;
    private final AdminClient admin;

    ProjectsAndKeysContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    static void startWithAdminToken(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    @Test
    void aProjectIsCreatedReadAndListed() {
        AdminClient.Answer created = admin.call(Method.POST, "/projects", "{\"name\":\"  Web shop  \"}");
        assertThat(created.status(), is(201));
        JsonObject project = created.object();
        assertThat(project.keySet(), is(Set.of("id", "name", "defaultLocale", "requiredLocales", "createdAt")));
        assertThat(project.getString("id").matches("[a-zA-Z0-9_-]+"), is(true));
        assertThat(project.getString("name"), is("Web shop"));
        assertThat(project.getString("createdAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(created.location(), is("/api/v1/admin/projects/" + project.getString("id")));

        AdminClient.Answer read = admin.call(Method.GET, "/projects/" + project.getString("id"));
        assertThat(read.status(), is(200));
        assertThat(read.object(), is(project));
        assertThat(admin.call(Method.GET, "/projects").array().contains(project), is(true));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"name\":\"\"}", "{\"name\":\"   \"}", "{\"name\":5}", "{\"name\":null}"})
    void aProjectNeedsAName(String body) {
        AdminClient.Answer answer = admin.call(Method.POST, "/projects", body);
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(answer.object().getJsonObject("details").getString("field"), is("name"));
    }

    @Test
    void aNameOverTwoHundredCharactersIsRefusedAsTooLong() {
        assertThat(admin.call(Method.POST, "/projects", "{\"name\":\"" + "n".repeat(200) + "\"}").status(), is(201));
        AdminClient.Answer refused = admin.call(Method.POST, "/projects", "{\"name\":\"" + "n".repeat(201) + "\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.body(), is("{\"error\":\"name is too long: 201 characters, more than the 200 allowed\","
                + "\"code\":\"VALIDATION_ERROR\",\"details\":{\"field\":\"name\"}}"));
    }

    /** Characters as the writer counts them (code points): an emoji is one, though it is two UTF-16 units. */
    @ParameterizedTest
    @ValueSource(ints = {101, 200})
    void aNameOfEmojiIsMeasuredInCharacters(int count) {
        String name = EMOJI.repeat(count);
        AdminClient.Answer created = admin.call(Method.POST, "/projects", "{\"name\":\"" + name + "\"}");
        assertThat(created.status(), is(201));
        assertThat("as stored", admin.call(Method.GET, "/projects/" + created.object().getString("id")).object()
                .getString("name"), is(name));
    }

    @Test
    void twoHundredAndOneEmojiAreMoreThanTwoHundredCharacters() {
        AdminClient.Answer refused = admin.call(Method.POST, "/projects", "{\"name\":\"" + EMOJI.repeat(201) + "\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getString("error"), is("name is too long: 201 characters, more than the 200 allowed"));
    }

    /**
     * A name is text people read in the console and the audit log: a control character in it (a bell, an escape
     * that clears a terminal, a lone carriage return) is refused on create and on rename, naming the field, and
     * nothing changes; a tab or a line break is text.
     */
    @ParameterizedTest
    @ValueSource(strings = {"\\u0000", "\\u0007", "\\u001b[2J", "\\r", "\\u007f", "\\u009b"})
    void aNameWithAControlCharacterIsRefusedOnCreateAndRename(String control) {
        AdminClient.Answer refused = admin.call(Method.POST, "/projects", "{\"name\":\"Shop" + control + "\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("name"));
        assertThat(refused.object().getString("error"), startsWith("name holds a control character, U+"));
        String project = admin.created("/projects", "{\"name\":\"Shop\"}").getString("id");
        assertThat(admin.call(Method.PATCH, "/projects/" + project, "{\"name\":\"Web" + control + "shop\"}").status(),
                   is(400));
        assertThat(admin.call(Method.GET, "/projects/" + project).object().getString("name"), is("Shop"));
        assertThat(admin.call(Method.PATCH, "/projects/" + project, "{\"name\":\"Web\\tshop\\r\\n\"}").object()
                .getString("name"), is("Web\tshop"));
    }

    @Test
    void aBlankNameIsRequiredNotTooLong() {
        AdminClient.Answer refused = admin.call(Method.POST, "/projects", "{\"name\":\"  \"}");
        assertThat(refused.object().getString("error"), is("name is required: 1 to 200 characters, not blank"));
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsRefused() {
        AdminClient.Answer answer = admin.call(Method.POST, "/projects", "[\"name\"]");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getJsonObject("details").getString("field"), is("body"));
    }

    @Test
    void anUnknownProjectIsNotFound() {
        for (String path : new String[] {"/projects/nope", "/projects/nope/api-keys"}) {
            AdminClient.Answer answer = admin.call(Method.GET, path);
            assertThat(path, answer.status(), is(404));
            assertThat(answer.body(), is("{\"error\":\"Project not found\",\"code\":\"NOT_FOUND\"}"));
        }
        assertThat(admin.call(Method.POST, "/projects/nope/api-keys", "{}").status(), is(404));
    }

    @Test
    void otherMethodsAre405WithAllow() {
        AdminClient.Answer answer = admin.call(Method.PUT, "/projects", "{}");
        assertThat(answer.status(), is(405));
        assertThat(answer.object().getString("code"), is("METHOD_NOT_ALLOWED"));
    }

    @Test
    void aGeneratedKeyHasFortyAlphanumericsAndTheDefaultSettings() {
        String projectId = newProject();
        JsonObject key = admin.created("/projects/" + projectId + "/api-keys", null);
        assertThat(key.keySet(), is(Set.of("key", "projectId", "showPast", "showFuture", "orderBy",
                                                     "requireUserToken", "createdAt", "revokedAt")));
        assertThat(key.getString("key").matches("[a-zA-Z0-9]{40}"), is(true));
        assertThat(key.getString("projectId"), is(projectId));
        assertThat(key.getBoolean("showPast"), is(false));
        assertThat(key.getBoolean("showFuture"), is(false));
        assertThat(key.getString("orderBy"), is("createdAt_desc"));
        assertThat(key.getBoolean("requireUserToken"), is(false));
        assertThat(key.get("revokedAt"), is(JsonValue.NULL));
        assertThat(admin.created("/projects/" + projectId + "/api-keys", "{}").getString("key"),
                   is(not(key.getString("key"))));
    }

    @Test
    void aChosenKeyAndSettingsAreKept() {
        String projectId = newProject();
        String chosen = TestHerald.randomKey();
        JsonObject key = admin.created("/projects/" + projectId + "/api-keys",
                                       "{\"key\":\"" + chosen + "\",\"showPast\":true,\"orderBy\":\"endDate_asc\"}");
        assertThat(key.getString("key"), is(chosen));
        assertThat(key.getBoolean("showPast"), is(true));
        assertThat(key.getString("orderBy"), is("endDate_asc"));
        assertThat(admin.call(Method.GET, "/projects/" + projectId + "/api-keys").array(), hasSize(1));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"key\":\"short\"}", "{\"key\":\"has-dashes-has-dashes-has-dashes-has\"}", "{\"key\":7}",
            "{\"showPast\":\"yes\"}", "{\"showFuture\":1}", "{\"requireUserToken\":\"yes\"}", "{\"orderBy\":\"newest\"}", "{\"orderBy\":null}"})
    void badKeySettingsAreRefusedNamingTheField(String body) {
        AdminClient.Answer answer = admin.call(Method.POST, "/projects/" + newProject() + "/api-keys", body);
        assertThat(body, answer.status(), is(400));
        String field = JsonBodies.object(body).keySet().iterator().next();
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{\"nmae\":\"Shop\"}|nmae|unknown field \"nmae\"; did you mean \"name\"?",
            "{\"name\":\"Shop\",\"owner\":\"me\"}|owner|unknown field \"owner\"; writable fields: name, defaultLocale, requiredLocales",
            "{\"name\":\"Shop\",\"createdAt\":\"2026-11-22T10:00:00.000Z\"}|createdAt|field \"createdAt\" is read-only; writable fields: name, defaultLocale, requiredLocales"})
    void anUnknownFieldIsRefusedWhenAProjectIsCreated(String body, String field, String message) {
        int before = admin.call(Method.GET, "/projects").array().size();
        assertRefused(admin.call(Method.POST, "/projects", body), field, message,
                      List.of("name", "defaultLocale", "requiredLocales"));
        assertThat(admin.call(Method.GET, "/projects").array(), hasSize(before));
    }

    /** Issued (POST) or changed (PATCH): either way no key is added and the one there stays as it was. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "POST|{\"show_past\":true}|show_past|unknown field \"show_past\"; did you mean \"showPast\"?",
            "POST|{\"orderby\":\"endDate_asc\"}|orderby|unknown field \"orderby\"; did you mean \"orderBy\"?",
            "POST|{\"label\":\"web\"}|label|unknown field \"label\"; writable fields: key, showPast, showFuture, orderBy, requireUserToken",
            "POST|{\"revokedAt\":null}|revokedAt|field \"revokedAt\" is read-only; writable fields: key, showPast, showFuture, orderBy, requireUserToken",
            "PATCH|{\"showpast\":true}|showpast|unknown field \"showpast\"; did you mean \"showPast\"?",
            "PATCH|{\"showFutur\":true}|showFutur|unknown field \"showFutur\"; did you mean \"showFuture\"?",
            "PATCH|{\"showPast\":true,\"limit\":5}|limit|unknown field \"limit\"; writable fields: showPast, showFuture, orderBy, requireUserToken",
            "PATCH|{\"key\":\"abc\"}|key|field \"key\" is read-only; writable fields: showPast, showFuture, orderBy, requireUserToken"})
    void anUnknownKeyFieldIsRefusedAndChangesNothing(String method, String body, String field, String message) {
        String keys = "/projects/" + newProject() + "/api-keys";
        JsonObject key = admin.created(keys, "{}");
        boolean issue = method.equals("POST");
        AdminClient.Answer answer = admin.call(Method.create(method), issue ? keys : "/api-keys/" + key.getString("key"),
                                               body);
        List<String> writable = issue ? List.of("key", "showPast", "showFuture", "orderBy", "requireUserToken")
                : List.of("showPast", "showFuture", "orderBy", "requireUserToken");
        assertRefused(answer, field, message, writable);
        assertThat(admin.call(Method.GET, keys).array(), is(JsonBodies.array("[" + key + "]")));
    }

    private static void assertRefused(AdminClient.Answer answer, String field, String message, List<String> allowed) {
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.validationError(message, field, allowed)));
    }

    @Test
    void anUnknownOrderingListsTheOrderings() {
        String project = newProject();
        String expected = "{\"error\":\"orderBy must be one of createdAt_desc, createdAt_asc, startDate_asc,"
                + " startDate_desc, endDate_asc, endDate_desc\",\"code\":\"VALIDATION_ERROR\",\"details\":"
                + "{\"field\":\"orderBy\",\"allowed\":[\"createdAt_desc\",\"createdAt_asc\",\"startDate_asc\","
                + "\"startDate_desc\",\"endDate_asc\",\"endDate_desc\"]}}";
        assertThat(admin.call(Method.POST, "/projects/" + project + "/api-keys", "{\"orderBy\":\"newest\"}").body(),
                   is(expected));
        String key = admin.created("/projects/" + project + "/api-keys", "{}").getString("key");
        assertThat(admin.call(Method.PATCH, "/api-keys/" + key, "{\"orderBy\":\"createdAt\"}").body(), is(expected));
    }

    @Test
    void aKeyInUseIsAConflict() {
        String chosen = TestHerald.randomKey();
        admin.created("/projects/" + newProject() + "/api-keys", "{\"key\":\"" + chosen + "\"}");
        AdminClient.Answer again = admin.call(Method.POST, "/projects/" + newProject() + "/api-keys",
                                              "{\"key\":\"" + chosen + "\"}");
        assertThat(again.status(), is(409));
        assertThat(again.object().getString("code"), is("CONFLICT"));
    }

    @Test
    void settingChangesShowInThePublicApiAtOnce() {
        Project project = herald.project();
        Notification past = herald.notification(project).end(START.minusSeconds(60)).save();
        String key = admin.created("/projects/" + project.id() + "/api-keys", "{}").getString("key");
        assertThat(publicFeed(key), is("[]"));

        AdminClient.Answer patched = admin.call(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}");
        assertThat(patched.status(), is(200));
        assertThat(patched.object().getBoolean("showPast"), is(true));
        assertThat(patched.object().getString("orderBy"), is("createdAt_desc"));
        assertThat(JsonBodies.array(publicFeed(key)).getJsonObject(0).getString("id"), is(past.id()));
    }

    @Test
    void aRevokedKeyStopsWorkingAtOnce() {
        Project project = herald.project();
        String key = admin.created("/projects/" + project.id() + "/api-keys", "{}").getString("key");
        assertThat(publicFeed(key), is("[]"));

        herald.clock().advance(Duration.ofMinutes(5));
        assertThat(admin.call(Method.DELETE, "/api-keys/" + key).status(), is(204));
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status(), is(Status.UNAUTHORIZED_401));
        }
        JsonObject listed = admin.call(Method.GET, "/projects/" + project.id() + "/api-keys").array().getJsonObject(0);
        assertThat(listed.getString("revokedAt"), is("2026-11-22T10:05:00.000Z"));

        herald.clock().advance(Duration.ofMinutes(5));
        assertThat("revoking again changes nothing", admin.call(Method.DELETE, "/api-keys/" + key).status(), is(204));
        assertThat(admin.call(Method.GET, "/projects/" + project.id() + "/api-keys").array().getJsonObject(0)
                           .getString("revokedAt"), is("2026-11-22T10:05:00.000Z"));
    }

    @Test
    void anUnknownKeyIsNotFound() {
        assertThat(admin.call(Method.PATCH, "/api-keys/" + TestHerald.randomKey(), "{}").status(), is(404));
        assertThat(admin.call(Method.DELETE, "/api-keys/" + TestHerald.randomKey()).status(), is(404));
    }

    private String newProject() {
        return admin.created("/projects", "{\"name\":\"p\"}").getString("id");
    }

    private String publicFeed(String key) {
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status(), is(Status.OK_200));
            return response.as(String.class);
        }
    }
}
