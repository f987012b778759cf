package dev.herald.admin;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;

import dev.herald.account.Accounts;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

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
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A translation out of date (docs/api.md, Translations (management)): {@code outdated} once the notification's own
 * text changes after it was written, up to date again when it is written or marked so through its own route, and
 * nowhere but in the answers about a notification; run against each database by a subclass.
 */
abstract class OutdatedTranslationsContract extends HeraldServerTest {

    private static final String TRANSLATED = "{\"message\":\"Half price\",\"title\":\"Sale\",\"translations\":{"
            + "\"fr\":{\"message\":\"Moitié prix\"},\"de\":{\"message\":\"Halber Preis\",\"title\":\"Ausverkauf\"}}}";

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;

    OutdatedTranslationsContract(Http1Client http) {
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
    }

    @Test
    void aNewTranslationIsUpToDateAndAChangeOfTheOwnTextMakesEveryOneOutOfDateUntilItIsChangedBack() {
        JsonObject created = create(TRANSLATED);
        String id = created.getString("id");
        assertOutdated(created, false, false);
        assertOutdated(notification(id), false, false);

        JsonObject edited = patch(id, "{\"message\":\"Half price, today only\"}");
        assertOutdated(edited, true, true);
        assertOutdated(notification(id), true, true);
        JsonObject listed = admin.call(Method.GET, "/notifications/" + id + "/translations").object();
        assertThat(listed.getJsonObject("fr").getBoolean("outdated"), is(true));
        JsonObject inTheList = admin.call(Method.GET, "/projects/" + projectId + "/notifications").array()
                .getJsonObject(0);
        assertOutdated(inTheList, true, true);

        assertOutdated(patch(id, "{\"message\":\"Half price\"}"), false, false);
    }

    static Stream<Arguments> ownMembers() {
        return Stream.of(
                Arguments.of("title", "{\"title\":\"Big sale\"}", true),
                Arguments.of("message", "{\"message\":\"Half price!\"}", true),
                Arguments.of("image", "{\"image\":\"https://cdn.example.com/sale.png\"}", true),
                Arguments.of("imageAlt without an image, served with none", "{\"imageAlt\":\"A price tag\"}", false),
                Arguments.of("action", "{\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/sale\","
                        + "\"target\":\"_self\",\"label\":\"Shop\"}}}", true),
                Arguments.of("preset", "{\"preset\":\"banner\"}", false),
                Arguments.of("startDate", "{\"startDate\":\"2030-01-01T00:00:00Z\"}", false),
                Arguments.of("status", "{\"status\":\"PUBLISHED\"}", false),
                Arguments.of("audience", "{\"audience\":{\"rollout\":50}}", false),
                Arguments.of("locale", "{\"locale\":\"en-GB\"}", false),
                Arguments.of("the same message", "{\"message\":\"Half price\"}", false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("ownMembers")
    void whatATranslationReplacesMakesItOutOfDateWhenItChangesAndNothingElseDoes(String member, String change,
                                                                                boolean outdated) {
        String id = create(TRANSLATED).getString("id");
        assertOutdated(patch(id, change), outdated, outdated);
    }

    @Test
    void aTranslationThatAWriteChangesIsUpToDateAndOneSentAsItWasStaysOutOfDate() {
        String id = create(TRANSLATED).getString("id");
        // As the console saves: the whole text, the translations as they were beside the new message.
        JsonObject saved = patch(id, "{\"message\":\"Half price, today\",\"translations\":{\"fr\":{\"message\":"
                + "\"Moitié prix\"},\"de\":{\"message\":\"Halber Preis\",\"title\":\"Ausverkauf\"}}}");
        assertOutdated(saved, true, true);

        JsonObject translated = patch(id, "{\"translations\":{\"fr\":{\"message\":\"Moitié prix, aujourd'hui\"},"
                + "\"de\":{\"message\":\"Halber Preis\",\"title\":\"Ausverkauf\"}}}");
        assertOutdated(translated, false, true);

        // A change of the translation's own picture is a change of it as well.
        JsonObject pictured = patch(id, "{\"translations\":{\"fr\":{\"message\":\"Moitié prix, aujourd'hui\"},"
                + "\"de\":{\"message\":\"Halber Preis\",\"title\":\"Ausverkauf\",\"image\":"
                + "\"https://cdn.example.com/de.png\"}}}");
        assertOutdated(pictured, false, false);
    }

    @Test
    void writtenThroughItsOwnRouteATranslationIsUpToDateAndAPatchOfNothingMarksItSo() {
        String id = create(TRANSLATED).getString("id");
        patch(id, "{\"title\":\"Big sale\"}");
        int versions = admin.call(Method.GET, "/notifications/" + id + "/versions").array().size();

        AdminClient.Answer reviewed = admin.call(Method.PATCH, "/notifications/" + id + "/translations/fr", "{}");
        assertThat(reviewed.body(), reviewed.status(), is(200));
        assertThat(reviewed.object().getBoolean("outdated"), is(false));
        assertThat(reviewed.object().getString("message"), is("Moitié prix"));
        assertOutdated(notification(id), false, true);
        assertThat("nothing of its content changed: no version", admin.call(Method.GET, "/notifications/" + id
                + "/versions").array().size(), is(versions));

        AdminClient.Answer replaced = admin.call(Method.PUT, "/notifications/" + id + "/translations/de",
                                                 "{\"message\":\"Halber Preis\",\"title\":\"Großer Ausverkauf\"}");
        assertThat(replaced.body(), replaced.status(), is(200));
        assertThat(replaced.object().getBoolean("outdated"), is(false));
        assertOutdated(notification(id), false, false);

        AdminClient.Answer added = admin.call(Method.PUT, "/notifications/" + id + "/translations/es",
                                              "{\"message\":\"Mitad de precio\"}");
        assertThat(added.body(), added.status(), is(201));
        assertThat(added.object().getBoolean("outdated"), is(false));
    }

    @Test
    void outdatedIsAnAnswersMemberThatARequestCannotSet() {
        String id = create(TRANSLATED).getString("id");
        AdminClient.Answer echoed = admin.call(Method.PATCH, "/notifications/" + id, "{\"translations\":{\"fr\":"
                + "{\"message\":\"Moitié prix\",\"outdated\":false}}}");
        assertThat(echoed.body(), echoed.status(), is(400));
        assertThat(echoed.body(), containsString("\"field\":\"translations.fr.outdated\""));
        assertThat(echoed.body(), containsString("read-only"));
        AdminClient.Answer routed = admin.call(Method.PATCH, "/notifications/" + id + "/translations/fr",
                                               "{\"outdated\":false}");
        assertThat(routed.body(), routed.status(), is(400));
        assertThat(routed.body(), containsString("read-only"));
        AdminClient.Answer drafted = admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"translations\":"
                + "{\"fr\":{\"message\":\"m\",\"outdated\":true}}}");
        assertThat(drafted.body(), drafted.status(), is(400));
    }

    @Test
    void versionsDraftsAndTheFeedSayNothingOfItAndADuplicateKeepsIt() {
        String id = create(TRANSLATED).getString("id");
        patch(id, "{\"message\":\"Half price, today\",\"status\":\"PUBLISHED\"}");
        admin.created("/projects/" + projectId + "/api-keys", "{}");
        String key = admin.call(Method.GET, "/projects/" + projectId + "/api-keys").array().getJsonObject(0)
                .getString("key");

        for (JsonValue version : admin.call(Method.GET, "/notifications/" + id + "/versions").array()) {
            JsonObject translations = version.asJsonObject().getJsonObject("content").getJsonObject("translations");
            assertThat(translations.toString(), translations.getJsonObject("fr"), not(hasKey("outdated")));
            assertThat(translations.toString(), translations.getJsonObject("fr"), not(hasKey("basis")));
        }
        admin.call(Method.PUT, "/notifications/" + id + "/draft", "{\"title\":\"Draft\"}");
        JsonObject draft = admin.call(Method.GET, "/notifications/" + id + "/draft").object();
        assertThat(draft.toString(), draft.toString().contains("outdated"), is(false));

        try (Http1ClientResponse feed = http.get("/api/v1/public/" + key + "/notifications")
                .header(io.helidon.http.HeaderNames.ACCEPT_LANGUAGE, "fr").request()) {
            String body = feed.as(String.class);
            assertThat(body, body.contains("Moitié prix"), is(true));
            assertThat(body, body.contains("outdated") || body.contains("basis"), is(false));
        }

        JsonObject copy = admin.call(Method.POST, "/notifications/" + id + "/duplicate").object();
        assertOutdated(copy, true, true);
        assertOutdated(notification(copy.getString("id")), true, true);
    }

    @Test
    void restoringAVersionAsksForEachTranslationItChangesOrBringsBackToBeReadAgain() {
        String id = create(TRANSLATED).getString("id");
        patch(id, "{\"message\":\"Half price, today\"}");
        patch(id, "{\"translations\":{\"fr\":{\"message\":\"Moitié prix, aujourd'hui\"},\"de\":{\"message\":"
                + "\"Halber Preis\",\"title\":\"Ausverkauf\"}}}");
        assertOutdated(notification(id), false, true);

        // Version 1: the first message, and French's first words, older than now whatever they were written against
        // then; German is as it was, and the own text is again what it was written against.
        AdminClient.Answer restored = admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore");
        assertThat(restored.body(), restored.status(), is(200));
        assertOutdated(restored.object(), true, false);
        assertOutdated(notification(id), true, false);

        // Version 2: the message of now, French's first words (which predate it) and German's.
        patch(id, "{\"translations\":{\"de\":{\"message\":\"Halber Preis\",\"title\":\"Ausverkauf\"}}}");
        admin.call(Method.POST, "/notifications/" + id + "/versions/2/restore");
        JsonObject brought = notification(id).getJsonObject("translations");
        assertThat("French brought back: to read again", brought.getJsonObject("fr").getBoolean("outdated"), is(true));
    }

    @Test
    void theImageAndItsDescriptionCountOnlyForTranslationsThatShowThem() {
        String id = create("{\"message\":\"Half price\",\"image\":\"https://cdn.example.com/sale.png\","
                + "\"translations\":{\"fr\":{\"message\":\"Moitié prix\"},\"de\":{\"message\":\"Halber Preis\","
                + "\"image\":\"https://cdn.example.com/de.png\"}}}").getString("id");
        assertOutdated(patch(id, "{\"imageAlt\":\"A price tag\"}"), true, false);
        patch(id, "{\"imageAlt\":null}");
        assertOutdated(patch(id, "{\"image\":\"https://cdn.example.com/sale2.png\"}"), true, false);
        assertOutdated(patch(id, "{\"title\":\"Sale\"}"), true, true);
    }

    @Test
    void theOwnLanguageIsNoTranslationForAnyOfItsRoutes() {
        String id = create(TRANSLATED).getString("id");
        for (Method method : List.of(Method.PATCH, Method.DELETE)) {
            AdminClient.Answer own = method == Method.PATCH
                    ? admin.call(method, "/notifications/" + id + "/translations/en", "{}")
                    : admin.call(method, "/notifications/" + id + "/translations/en");
            assertThat(method + " " + own.body(), own.status(), is(400));
            assertThat(own.body(), containsString("en is the notification's own language"));
        }
    }

    @Test
    void aTranslationKeptBeforeOutOfDateTranslationsIsUpToDateUntilTheOwnTextChanges() throws SQLException {
        String id = create("{\"message\":\"Half price\"}").getString("id");
        // As the version before kept them: no basis.
        try (Connection connection = herald.database().connect();
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE notifications SET translations = ? WHERE id = ?")) {
            update.setString(1, "{\"fr\":{\"title\":null,\"message\":\"Moitié prix\",\"image\":null,\"action\":null}}");
            update.setString(2, id);
            update.executeUpdate();
        }
        assertThat(notification(id).getJsonObject("translations").getJsonObject("fr").getBoolean("outdated"),
                   is(false));
        assertThat(patch(id, "{\"preset\":\"banner\"}").getJsonObject("translations").getJsonObject("fr")
                           .getBoolean("outdated"), is(false));
        assertThat(patch(id, "{\"message\":\"Half price!\"}").getJsonObject("translations").getJsonObject("fr")
                           .getBoolean("outdated"), is(true));
    }

    @Test
    void theAuditLineOfAnEditOfTheOwnTextNamesTheTranslationsItLeftToReadAgainAndAMarkHasALineOfItsOwn() {
        String id = create(TRANSLATED).getString("id");
        patch(id, "{\"message\":\"Half price, today\"}");
        JsonObject edit = admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0);
        assertThat(edit.toString(), edit.getString("action"), is("notification.updated"));
        JsonObject details = edit.getJsonObject("details");
        assertThat(edit.toString(), List.copyOf(details.keySet()), is(List.of("message", "outdatedTranslations")));
        assertThat(details.getJsonObject("outdatedTranslations"), is(JsonBodies.object(
                "{\"from\":[],\"to\":[\"de\",\"fr\"]}")));

        admin.call(Method.PATCH, "/notifications/" + id + "/translations/fr", "{}");
        JsonObject mark = admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0);
        assertThat(mark.toString(), mark.getString("action"), is("notification.updated"));
        assertThat(mark.getJsonObject("details"), is(JsonBodies.object(
                "{\"outdatedTranslations\":{\"from\":[\"de\",\"fr\"],\"to\":[\"de\"]}}")));
    }

    private JsonObject create(String body) {
        return admin.created("/projects/" + projectId + "/notifications", body);
    }

    private JsonObject patch(String id, String body) {
        AdminClient.Answer answer = admin.call(Method.PATCH, "/notifications/" + id, body);
        assertThat(answer.body(), answer.status(), is(200));
        return answer.object();
    }

    private JsonObject notification(String id) {
        return admin.call(Method.GET, "/notifications/" + id).object();
    }

    private static void assertOutdated(JsonObject notification, boolean french, boolean german) {
        JsonObject translations = notification.getJsonObject("translations");
        assertThat(translations.toString(), translations.getJsonObject("fr").getBoolean("outdated"), is(french));
        assertThat(translations.toString(), translations.getJsonObject("de").getBoolean("outdated"), is(german));
    }
}
