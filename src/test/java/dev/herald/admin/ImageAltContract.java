package dev.herald.admin;

import java.util.List;
import java.util.stream.Stream;

import dev.herald.account.Accounts;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * An announcement's image described, {@code imageAlt} (docs/api.md, Objects and Get Notifications): written,
 * validated, kept by PATCH, versions, drafts and duplicates, translated, and served only with an image; run against
 * each database by a subclass.
 */
abstract class ImageAltContract extends HeraldServerTest {

    private static final String SHOE = "https://cdn.example.com/shoe.png";
    private static final String SHOE_PT = "https://cdn.example.com/sapato.png";

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;
    private String key;

    ImageAltContract(Http1Client http) {
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
    void aDescribedImageIsServedWithItsDescriptionRightAfterItStripped() {
        JsonObject created = create("{\"message\":\"Our new shoe\",\"status\":\"PUBLISHED\",\"image\":\"" + SHOE
                + "\",\"imageAlt\":\"  A blue running shoe, side view \"}");
        assertThat(created.getString("imageAlt"), is("A blue running shoe, side view"));
        assertThat(admin.call(Method.GET, "/notifications/" + created.getString("id")).object().getString("imageAlt"),
                   is("A blue running shoe, side view"));

        String body = feedBody(null);
        assertThat(body, containsString("\"image\":\"" + SHOE + "\",\"imageAlt\":\"A blue running shoe, side view\","
                + "\"action\""));
    }

    @Test
    void aFeedWithoutDescriptionsIsServedAsBeforeThem() {
        create("{\"message\":\"Decoration\",\"status\":\"PUBLISHED\",\"image\":\"" + SHOE + "\"}");
        create("{\"message\":\"No picture\",\"status\":\"PUBLISHED\",\"imageAlt\":\"Nothing to describe\"}");

        JsonArray feed = JsonBodies.array(feedBody(null));
        List<String> members = List.of("id", "message", "image", "action", "preset", "startDate", "endDate");
        for (JsonValue entry : feed) {
            assertThat(entry.toString(), List.copyOf(entry.asJsonObject().keySet()), is(members));
        }
    }

    @Test
    void aDescriptionWithoutAnImageIsKeptAndServedOnceTheImageComes() {
        String id = create("{\"message\":\"Soon a picture\",\"status\":\"PUBLISHED\",\"imageAlt\":\"A chart\"}")
                .getString("id");
        assertThat(entry(id, null).containsKey("imageAlt"), is(false));

        AdminClient.Answer pictured = admin.call(Method.PATCH, "/notifications/" + id, "{\"image\":\"" + SHOE + "\"}");
        assertThat(pictured.body(), pictured.status(), is(200));
        assertThat("a PATCH without it keeps it", pictured.object().getString("imageAlt"), is("A chart"));
        assertThat(entry(id, null).getString("imageAlt"), is("A chart"));

        AdminClient.Answer blank = admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":\"   \"}");
        assertThat(blank.object().get("imageAlt"), is(JsonValue.NULL));
        assertThat(entry(id, null).containsKey("imageAlt"), is(false));
        admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":\"A chart again\"}");
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":null}").object().get("imageAlt"),
                   is(JsonValue.NULL));
        assertThat(entry(id, null).containsKey("imageAlt"), is(false));
    }

    /**
     * A translation that keeps the notification's picture keeps its description unless it gives its own; one with its
     * own picture has only its own (the notification's describes another picture).
     */
    @Test
    void eachLanguageDescribesThePictureItServes() {
        String id = create("{\"message\":\"Our new shoe\",\"status\":\"PUBLISHED\",\"locale\":\"en\",\"image\":\""
                + SHOE + "\",\"imageAlt\":\"A blue shoe\",\"translations\":{"
                + "\"fr\":{\"message\":\"Notre chaussure\"},"
                + "\"de\":{\"message\":\"Unser Schuh\",\"imageAlt\":\"Ein blauer Schuh\"},"
                + "\"pt\":{\"message\":\"O nosso sapato\",\"image\":\"" + SHOE_PT + "\"},"
                + "\"es\":{\"message\":\"Nuestro zapato\",\"image\":\"" + SHOE_PT + "\",\"imageAlt\":\"Un zapato\"}}}")
                .getString("id");

        assertThat(entry(id, "fr").getString("imageAlt"), is("A blue shoe"));
        assertThat(entry(id, "de").getString("imageAlt"), is("Ein blauer Schuh"));
        JsonObject pt = entry(id, "pt");
        assertThat(pt.getString("image"), is(SHOE_PT));
        assertThat(pt.toString(), pt.containsKey("imageAlt"), is(false));
        assertThat(entry(id, "es").getString("imageAlt"), is("Un zapato"));

        JsonObject translations = admin.call(Method.GET, "/notifications/" + id + "/translations").object();
        assertThat(translations.getJsonObject("fr").get("imageAlt"), is(JsonValue.NULL));
        assertThat(translations.getJsonObject("de").getString("imageAlt"), is("Ein blauer Schuh"));

        AdminClient.Answer changed = admin.call(Method.PATCH, "/notifications/" + id + "/translations/fr",
                                                "{\"imageAlt\":\"Une chaussure bleue\"}");
        assertThat(changed.body(), changed.status(), is(200));
        assertThat(changed.object().getString("imageAlt"), is("Une chaussure bleue"));
        assertThat(entry(id, "fr").getString("imageAlt"), is("Une chaussure bleue"));
        AdminClient.Answer replaced = admin.call(Method.PUT, "/notifications/" + id + "/translations/de",
                                                 "{\"message\":\"Unser Schuh\"}");
        assertThat("a PUT replaces it whole", replaced.object().get("imageAlt"), is(JsonValue.NULL));
        assertThat(entry(id, "de").getString("imageAlt"), is("A blue shoe"));
    }

    static Stream<Arguments> refusedDescriptions() {
        return Stream.of(Arguments.of("5", "imageAlt must be a string"),
                         Arguments.of("{}", "imageAlt must be a string"),
                         Arguments.of("\"A shoe\\non two lines\"", "imageAlt must be one line: no line break or tab"),
                         Arguments.of("\"A\\tshoe\"", "imageAlt must be one line: no line break or tab"),
                         // Unicode's line and paragraph separators, which JSON carries as they are.
                         Arguments.of("\"A shoe\u2028on two lines\"",
                                      "imageAlt must be one line: no line break or tab"),
                         Arguments.of("\"A shoe\\u2029in two paragraphs\"",
                                      "imageAlt must be one line: no line break or tab"),
                         Arguments.of("\"" + "x".repeat(251) + "\"",
                                      "imageAlt is too long: 251 characters, more than the 250 allowed"),
                         Arguments.of("\"" + "\uD83D\uDC5F".repeat(251) + "\"",
                                      "imageAlt is too long: 251 characters, more than the 250 allowed"));
    }

    @ParameterizedTest
    @MethodSource("refusedDescriptions")
    void aRefusedDescriptionIsSaidNamingItsMemberWhereverItIsWritten(String value, String error) {
        AdminClient.Answer created = admin.call(Method.POST, "/projects/" + projectId + "/notifications",
                                                "{\"message\":\"m\",\"imageAlt\":" + value + "}");
        assertRefused(created, "imageAlt", error);
        String id = create("{\"message\":\"m\",\"imageAlt\":\"Kept\"}").getString("id");
        assertRefused(admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":" + value + "}"), "imageAlt",
                      error);
        assertRefused(admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"imageAlt\":" + value + "}"),
                      "imageAlt", error);
        String inFrench = error.replace("imageAlt", "translations.fr.imageAlt");
        assertRefused(admin.call(Method.PUT, "/notifications/" + id + "/translations/fr",
                                 "{\"message\":\"m\",\"imageAlt\":" + value + "}"), "translations.fr.imageAlt",
                      inFrench);
        assertRefused(admin.call(Method.PATCH, "/notifications/" + id, "{\"translations\":{\"fr\":{\"message\":\"m\","
                + "\"imageAlt\":" + value + "}}}"), "translations.fr.imageAlt", inFrench);
        assertThat("nothing changed", admin.call(Method.GET, "/notifications/" + id).object().getString("imageAlt"),
                   is("Kept"));
    }

    @Test
    void theLongestDescriptionIsTwoHundredFiftyCharactersNotUnits() {
        String longest = "\uD83D\uDC5F".repeat(250);
        JsonObject created = create("{\"message\":\"m\",\"image\":\"" + SHOE + "\",\"imageAlt\":\"" + longest
                + "\",\"status\":\"PUBLISHED\"}");
        assertThat(created.getString("imageAlt"), is(longest));
        assertThat(entry(created.getString("id"), null).getString("imageAlt"), is(longest));
    }

    /**
     * A version names it only when set, so a status change of a notification written before it makes no new version;
     * restoring one from before the description clears it. A duplicate and a draft of changes carry it.
     */
    @Test
    void versionsDraftsAndDuplicatesCarryTheDescription() {
        String id = create("{\"message\":\"m\",\"image\":\"" + SHOE + "\"}").getString("id");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":\"A blue shoe\"}");
        JsonArray versions = admin.call(Method.GET, "/notifications/" + id + "/versions").array();
        assertThat(versions.size(), is(2));
        assertThat(versions.getJsonObject(0).getJsonObject("content").getString("imageAlt"), is("A blue shoe"));
        assertThat(versions.getJsonObject(1).getJsonObject("content").containsKey("imageAlt"), is(false));

        admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}");
        AdminClient.Answer draft = admin.call(Method.PUT, "/notifications/" + id + "/draft",
                                              "{\"imageAlt\":\"A red shoe\"}");
        assertThat(draft.body(), draft.status(), is(200));
        assertThat("the feed keeps the live one", entry(id, null).getString("imageAlt"), is("A blue shoe"));
        AdminClient.Answer applied = admin.call(Method.PATCH, "/notifications/" + id, "{\"imageAlt\":\"A red shoe\"}");
        assertThat(applied.object().getString("imageAlt"), is("A red shoe"));
        assertThat(entry(id, null).getString("imageAlt"), is("A red shoe"));

        JsonObject copy = admin.call(Method.POST, "/notifications/" + id + "/duplicate").object();
        assertThat(copy.getString("imageAlt"), is("A red shoe"));

        AdminClient.Answer restored = admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore");
        assertThat(restored.body(), restored.status(), is(200));
        JsonObject pending = admin.call(Method.GET, "/notifications/" + id + "/draft").object().getJsonObject("changes");
        assertThat("the version before it had none", pending.get("imageAlt"), is(JsonValue.NULL));
        AdminClient.Answer published = admin.call(Method.PATCH, "/notifications/" + id, pending.toString());
        assertThat(published.body(), published.status(), is(200));
        assertThat(published.object().get("imageAlt"), is(JsonValue.NULL));
        assertThat(entry(id, null).containsKey("imageAlt"), is(false));
    }

    private JsonObject create(String body) {
        return admin.created("/projects/" + projectId + "/notifications", body);
    }

    private static void assertRefused(AdminClient.Answer answer, String field, String error) {
        assertThat(answer.body(), answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(answer.object().getString("error"), is(error));
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
    }

    private JsonObject entry(String id, String locale) {
        return JsonBodies.array(feedBody(locale)).stream().map(JsonValue::asJsonObject)
                .filter(entry -> entry.getString("id").equals(id)).findFirst().orElseThrow();
    }

    /** The feed in {@code locale} (null: the project's default); a write shows at once on the same instance. */
    private String feedBody(String locale) {
        var request = http.get("/api/v1/public/" + key + "/notifications");
        if (locale != null) {
            request.header(HeaderNames.ACCEPT_LANGUAGE, locale);
        }
        try (Http1ClientResponse response = request.request()) {
            assertThat(response.status().code(), is(200));
            return response.as(String.class);
        }
    }
}
