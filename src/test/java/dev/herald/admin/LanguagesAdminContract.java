package dev.herald.admin;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import dev.herald.account.Accounts;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
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
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.hamcrest.Matchers.not;

/**
 * Issue 32, the management API's side of languages (docs/api.md#languages): a project's default and required
 * languages, a notification's own language and translations, the translation routes, and what publishing requires;
 * run against each database by a subclass.
 */
abstract class LanguagesAdminContract extends HeraldServerTest {

    private static final String FR = "{\"title\":\"Soldes\",\"message\":\"Moiti\u00e9 prix\"}";

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;

    LanguagesAdminContract(Http1Client http) {
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

    // Projects

    @Test
    void aProjectHasADefaultAndRequiredLanguagesCanonicalised() {
        JsonObject plain = admin.call(Method.GET, "/projects/" + projectId).object();
        assertThat(plain.getString("defaultLocale"), is("en"));
        assertThat(plain.getJsonArray("requiredLocales"), is(JsonValue.EMPTY_JSON_ARRAY));

        JsonObject project = admin.created("/projects", "{\"name\":\"q\",\"defaultLocale\":\"PT-br\","
                + "\"requiredLocales\":[\"FR\",\"zh-hant-tw\",\"fr\"]}");
        assertThat(project.getString("defaultLocale"), is("pt-BR"));
        assertThat(project.getJsonArray("requiredLocales"), is(JsonBodies.array("[\"fr\",\"zh-Hant-TW\"]")));
        String path = "/projects/" + project.getString("id");
        assertThat(admin.call(Method.GET, path).object(), is(project));

        AdminClient.Answer patched = admin.call(Method.PATCH, path, "{\"requiredLocales\":[\"de\"]}");
        assertThat(patched.body(), patched.status(), is(200));
        assertThat("the name stays", patched.object().getString("name"), is("q"));
        assertThat(patched.object().getJsonArray("requiredLocales"), is(JsonBodies.array("[\"de\"]")));
        assertThat(admin.call(Method.PATCH, path, "{\"requiredLocales\":null}").object()
                           .getJsonArray("requiredLocales"), is(JsonValue.EMPTY_JSON_ARRAY));
        assertThat(admin.call(Method.PATCH, path, "{\"defaultLocale\":\"de\"}").object().getString("defaultLocale"),
                   is("de"));
        JsonObject line = admin.call(Method.GET, "/audit?targetId=" + project.getString("id")).array().getJsonObject(0);
        assertThat(line.getString("action"), is("project.updated"));
        assertThat(line.getJsonObject("details").getJsonObject("defaultLocale"),
                   is(JsonBodies.object("{\"from\":\"pt-BR\",\"to\":\"de\"}")));
        admin.call(Method.PATCH, path, "{\"name\":\"r\"}");
        assertThat("a name alone is a rename", admin.call(Method.GET, "/audit?targetId=" + project.getString("id"))
                .array().getJsonObject(0).getString("action"), is("project.renamed"));
    }

    static Stream<Arguments> badProjectLanguages() {
        String fiftyOne = tags(51);
        return Stream.of(Arguments.of("{\"defaultLocale\":\"en_US\"}", "defaultLocale"),
                         Arguments.of("{\"defaultLocale\":5}", "defaultLocale"),
                         Arguments.of("{\"defaultLocale\":\"\"}", "defaultLocale"),
                         Arguments.of("{\"defaultLocale\":\"en-u-ca-buddhist\"}", "defaultLocale"),
                         Arguments.of("{\"defaultLocale\":\"en-" + "abcdefgh-".repeat(4) + "a\"}", "defaultLocale"),
                         Arguments.of("{\"requiredLocales\":\"fr\"}", "requiredLocales"),
                         Arguments.of("{\"requiredLocales\":[\"fr\",1]}", "requiredLocales[1]"),
                         Arguments.of("{\"requiredLocales\":[\"fr\",\"x-private\"]}", "requiredLocales[1]"),
                         Arguments.of("{\"requiredLocales\":" + fiftyOne + "}", "requiredLocales"));
    }

    @ParameterizedTest
    @MethodSource("badProjectLanguages")
    void badProjectLanguagesAreRefusedNamingTheField(String languages, String field) {
        String body = "{\"name\":\"n\"," + languages.substring(1);
        AdminClient.Answer created = admin.call(Method.POST, "/projects", body);
        assertThat(created.body(), created.status(), is(400));
        assertThat(created.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(created.object().getJsonObject("details").getString("field"), is(field));
        AdminClient.Answer patched = admin.call(Method.PATCH, "/projects/" + projectId, languages);
        assertThat(patched.status(), is(400));
        assertThat(patched.object().getJsonObject("details").getString("field"), is(field));
        JsonObject project = admin.call(Method.GET, "/projects/" + projectId).object();
        assertThat(project.getString("defaultLocale"), is("en"));
        assertThat(project.getJsonArray("requiredLocales"), is(JsonValue.EMPTY_JSON_ARRAY));
    }

    /** The refusal names the tag that is wrong by its place: "FR, de-at, xx-invalid-tag-123456789" did not say which. */
    @Test
    void aMalformedRequiredTagIsNamedByItsPlace() {
        AdminClient.Answer refused = admin.call(Method.PATCH, "/projects/" + projectId,
                                                "{\"requiredLocales\":[\"FR\",\"de-at\",\"xx-invalid-tag-123456789\"]}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("requiredLocales[2]"));
        assertThat(refused.object().getString("error"), startsWith("requiredLocales[2] is \"xx-invalid-tag-123456789\";"
                + " requiredLocales must hold BCP 47 language tags"));
    }

    @Test
    void fiftyRequiredLanguagesAreAccepted() {
        String fifty = tags(50);
        AdminClient.Answer patched = admin.call(Method.PATCH, "/projects/" + projectId,
                                                "{\"requiredLocales\":" + fifty + "}");
        assertThat(patched.body(), patched.status(), is(200));
        assertThat(patched.object().getJsonArray("requiredLocales"), hasSize(50));

        // Forty tags of 29 characters: well-formed, but more than the column's 1000 characters with their commas.
        String long40 = IntStream.range(0, 40).mapToObj(i -> "\"" + tag(i) + "-Latn-US-abcdefgh-bcdefghi\"")
                .collect(Collectors.joining(",", "[", "]"));
        AdminClient.Answer refused = admin.call(Method.PATCH, "/projects/" + projectId,
                                                "{\"requiredLocales\":" + long40 + "}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("requiredLocales"));
        assertThat(refused.object().getString("error"), containsString("1000 characters"));
        String long30 = IntStream.range(0, 30).mapToObj(i -> "\"" + tag(i) + "-Latn-US-abcdefgh-bcdefghi\"")
                .collect(Collectors.joining(",", "[", "]"));
        assertThat(admin.call(Method.PATCH, "/projects/" + projectId, "{\"requiredLocales\":" + long30 + "}")
                           .status(), is(200));
    }

    @Test
    void notificationsWithoutALocaleFollowTheDefaultUnlessOneHasATranslationInTheNewOne() {
        String following = created("{\"message\":\"Hello\",\"translations\":{\"fr\":" + FR + "}}");
        String own = created("{\"message\":\"Hallo\",\"locale\":\"de\",\"translations\":{\"es\":{\"message\":\"Hola\"}}}");
        assertThat(notification(following).getString("locale"), is("en"));

        AdminClient.Answer refused = admin.call(Method.PATCH, "/projects/" + projectId, "{\"defaultLocale\":\"fr\"}");
        assertThat(refused.body(), refused.status(), is(409));
        assertThat(refused.object().getString("code"), is("LOCALE_CONFLICT"));
        assertThat(refused.object().getString("error"), containsString(following));
        assertThat(admin.call(Method.GET, "/projects/" + projectId).object().getString("defaultLocale"), is("en"));

        assertThat("a notification with its own locale does not follow",
                   admin.call(Method.PATCH, "/projects/" + projectId, "{\"defaultLocale\":\"es\"}").status(), is(200));
        assertThat(notification(following).getString("locale"), is("es"));
        assertThat(notification(own).getString("locale"), is("de"));
        assertThat("a translation in the new default is refused for a follower",
                   admin.call(Method.PATCH, "/notifications/" + following,
                              "{\"translations\":{\"es\":{\"message\":\"Hola\"}}}").status(), is(400));
    }

    // A notification's languages

    @Test
    void aNotificationHasItsLanguageAndTranslationsKeptAsWritten() {
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"Half price\",\"locale\":null,"
                + "\"translations\":{\"PT-br\":{\"title\":\"  Promo\\u00e7\\u00e3o  \",\"message\":\"Metade<script>x</script>\","
                + "\"image\":\"https://cdn.example.com/pt.png\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":"
                + "\"https://example.com/pt\",\"target\":\"_self\"}}},\"fr\":{\"message\":null}}}");
        assertThat(created.getString("locale"), is("en"));
        JsonObject translations = created.getJsonObject("translations");
        assertThat("canonical tags, in order", List.copyOf(translations.keySet()), is(List.of("fr", "pt-BR")));
        assertThat(translations.getJsonObject("fr"), is(JsonBodies.object(
                "{\"title\":null,\"message\":null,\"image\":null,\"imageAlt\":null,\"action\":null,\"outdated\":false}")));
        JsonObject pt = translations.getJsonObject("pt-BR");
        assertThat(pt.getString("title"), is("Promo\u00e7\u00e3o"));
        assertThat(pt.getString("message"), is("Metade"));
        assertThat(pt.getJsonObject("action").getJsonObject("data").getString("url"), is("https://example.com/pt"));
        JsonObject removal = created.getJsonArray("removed").getJsonObject(0);
        assertThat(removal.getString("field"), is("translations.pt-BR.message"));
        String id = created.getString("id");
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/translations").object(), is(translations));

        JsonObject own = admin.call(Method.PATCH, "/notifications/" + id, "{\"locale\":\"EN-gb\",\"translations\":"
                + "{\"de\":{\"message\":\"Halber Preis\"}}}").object();
        assertThat(own.getString("locale"), is("en-GB"));
        assertThat("replaced whole", List.copyOf(own.getJsonObject("translations").keySet()), is(List.of("de")));

        JsonObject content = versions(id).getJsonObject(0).getJsonObject("content");
        assertThat(content.getString("locale"), is("en-GB"));
        assertThat("as the view, but a description only when set", content.getJsonObject("translations"),
                   is(JsonBodies.object("{\"de\":{\"title\":null,\"message\":\"Halber Preis\",\"image\":null,"
                                        + "\"action\":null}}")));
        assertThat(own.getJsonObject("translations").getJsonObject("de").get("imageAlt"), is(JsonValue.NULL));
        JsonObject first = versions(id).getJsonObject(1).getJsonObject("content");
        assertThat("no locale of its own then", first.containsKey("locale"), is(false));

        AdminClient.Answer restored = admin.call(Method.POST, "/notifications/" + id + "/versions/1/restore");
        assertThat(restored.body(), restored.status(), is(200));
        assertThat(restored.object().getString("locale"), is("en"));
        // Brought back by the restore: their words older than now, to read again (OutdatedTranslationsContract).
        JsonObject toReadAgain = JsonBodies.object(translations.toString().replace("\"outdated\":false",
                                                                                   "\"outdated\":true"));
        assertThat(restored.object().getJsonObject("translations"), is(toReadAgain));

        JsonObject copy = admin.call(Method.POST, "/notifications/" + id + "/duplicate").object();
        assertThat(copy.getJsonObject("translations"), is(toReadAgain));
        assertThat(copy.getString("locale"), is("en"));

        admin.call(Method.PATCH, "/notifications/" + id, "{\"translations\":{\"fr\":" + FR + "}}");
        admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}");
        AdminClient.Answer draft = admin.call(Method.PUT, "/notifications/" + id + "/draft",
                                              "{\"translations\":{\"fr\":{\"message\":\"<b>Bient\u00f4t</b>\"}},"
                                                      + "\"locale\":\"EN\"}");
        assertThat(draft.body(), draft.status(), is(200));
        assertThat(draft.object().getJsonObject("changes").getJsonObject("translations").getJsonObject("fr")
                           .getString("message"), is("<b>Bient\u00f4t</b>"));
        assertThat(draft.object().getJsonObject("changes").getString("locale"), is("en"));
        assertThat("a draft changes nothing yet", notification(id).getJsonObject("translations").getJsonObject("fr")
                .getString("message"), is("Moiti\u00e9 prix"));
    }

    static Stream<Arguments> badTranslations() {
        String many = translations(51, "m");
        return Stream.of(
                Arguments.of("\"locale\":\"en_US\"", "locale"),
                Arguments.of("\"locale\":7", "locale"),
                Arguments.of("\"translations\":[]", "translations"),
                Arguments.of("\"translations\":{\"en_US\":{\"message\":\"m\"}}", "translations.en_US"),
                Arguments.of("\"translations\":{\"fr\":\"Bonjour\"}", "translations.fr"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"a\"},\"FR\":{\"message\":\"b\"}}",
                             "translations.FR"),
                Arguments.of("\"translations\":{\"en\":{\"message\":\"m\"}}", "translations.en"),
                Arguments.of("\"locale\":\"fr\",\"translations\":{\"fr\":{\"message\":\"m\"}}", "translations.fr"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"colour\":\"red\"}}",
                             "translations.fr.colour"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"" + "x".repeat(32_769) + "\"}}",
                             "translations.fr.message"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"<script>x</script>\"}}",
                             "translations.fr.message"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"<p></p>\"}}", "translations.fr.message"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":5}}", "translations.fr.message"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\"}]}}}",
                             "translations.fr.message"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"title\":\"two\\nlines\"}}",
                             "translations.fr.title"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"title\":\"" + "t".repeat(201) + "\"}}",
                             "translations.fr.title"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"image\":\"javascript:alert(1)\"}}",
                             "translations.fr.image"),
                // A member of another type was named by its own name alone, as if it were the notification's.
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"title\":5}}", "translations.fr.title"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"image\":[]}}", "translations.fr.image"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":"
                                     + "{\"url\":\"javascript:alert(1)\",\"target\":\"_self\"}}}}",
                             "translations.fr.action.data.url"),
                Arguments.of("\"translations\":{\"fr\":{\"message\":\"m\",\"action\":{\"type\":\"JUMP\"}}}",
                             "translations.fr.action.type"),
                Arguments.of("\"translations\":" + many, "translations"));
    }

    @ParameterizedTest
    @MethodSource("badTranslations")
    void badLanguagesAreRefusedNamingTheField(String members, String field) {
        AdminClient.Answer created = admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\"," + members + "}");
        assertThat(created.body(), created.status(), is(400));
        assertThat(created.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(created.object().getJsonObject("details").getString("field"), is(field));
        String id = created("{\"message\":\"m\"}");
        AdminClient.Answer patched = admin.call(Method.PATCH, "/notifications/" + id, "{" + members + "}");
        assertThat(patched.status(), is(400));
        assertThat(patched.object().getJsonObject("details").getString("field"), is(field));
        assertThat(admin.call(Method.PUT, "/notifications/" + id + "/draft", "{" + members + "}").status(), is(400));
        assertThat(notification(id).getJsonObject("translations"), is(JsonValue.EMPTY_JSON_OBJECT));
    }

    @Test
    void fiftyTranslationsAreAcceptedWithinTheirTotalSize() {
        String fifty = translations(50, "m".repeat(5_000));
        AdminClient.Answer created = admin.call(Method.POST, notificationsPath(),
                                                "{\"message\":\"m\",\"translations\":" + fifty + "}");
        assertThat(created.status(), is(201));
        assertThat(created.object().getJsonObject("translations").keySet(), hasSize(50));

        // Nine of the longest message: more than eight times limits.message-bytes as stored.
        String nine = translations(9, "m".repeat(32_000));
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(),
                                                "{\"message\":\"m\",\"translations\":" + nine + "}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("translations"));
        assertThat(refused.object().getString("error"), containsString("262,144 allowed"));
    }

    /**
     * Translations at their cap make notifications of a quarter of a megabyte: a page of them stops under a
     * megabyte and names the next, so every one is read, a bounded answer at a time (docs/api.md#pages).
     */
    @Test
    void pagesOfNotificationsWithTheMostTranslationsStayUnderAMegabyte() {
        String eight = translations(8, "m".repeat(32_000));
        for (int i = 0; i < 6; i++) {
            created("{\"message\":\"" + "o".repeat(30_000) + "\",\"translations\":" + eight + "}");
        }
        int read = 0;
        String path = notificationsPath() + "?limit=100";
        int pages = 0;
        while (path != null) {
            AdminClient.Answer page = admin.call(Method.GET, path);
            assertThat(page.status(), is(200));
            assertThat(page.body().length(), org.hamcrest.Matchers.lessThanOrEqualTo(1 << 20));
            read += page.array().size();
            pages++;
            path = page.link() == null ? null
                    : page.link().substring(page.link().indexOf("/api/v1/admin") + "/api/v1/admin".length(),
                                            page.link().indexOf('>'));
        }
        assertThat(read, is(6));
        assertThat(pages, org.hamcrest.Matchers.greaterThan(1));

        // Quotes are two bytes as stored: the cap counts what is kept, not what was sent.
        String quoted = translations(9, "\\\"".repeat(16_000));
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(),
                                                "{\"message\":\"m\",\"translations\":" + quoted + "}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("translations"));
    }

    // Publishing

    @Test
    void publishingRefusesATranslationWithoutAMessageNamingIt() {
        String body = "{\"message\":\"m\",\"translations\":{\"fr\":{\"title\":\"Titre\"}}";
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(), body + ",\"status\":\"PUBLISHED\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("translations.fr.message"));

        String id = created(body + "}");
        AdminClient.Answer published = admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}");
        assertThat(published.status(), is(400));
        assertThat(published.object().getJsonObject("details").getString("field"), is("translations.fr.message"));
        assertThat(notification(id).getString("status"), is("DRAFT"));

        assertThat(admin.call(Method.PUT, "/notifications/" + id + "/translations/fr", "{\"message\":\"Texte\"}")
                           .status(), is(200));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}").status(), is(200));

        // A draft of changes of the published one may hold a translation still being written; applying it may not.
        String pending = "{\"translations\":{\"fr\":{\"message\":\"Texte\"},\"de\":{\"title\":\"Bald\"}}}";
        AdminClient.Answer draft = admin.call(Method.PUT, "/notifications/" + id + "/draft", pending);
        assertThat(draft.body(), draft.status(), is(200));
        AdminClient.Answer applied = admin.call(Method.PATCH, "/notifications/" + id, pending);
        assertThat(applied.status(), is(400));
        assertThat(applied.object().getJsonObject("details").getString("field"), is("translations.de.message"));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/draft").status(), is(200));
    }

    @Test
    void publishingRequiresTheProjectsRequiredLanguages() {
        admin.call(Method.PATCH, "/projects/" + projectId, "{\"requiredLocales\":[\"en\",\"fr\",\"de\"]}");
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(),
                "{\"message\":\"m\",\"status\":\"PUBLISHED\",\"translations\":{\"fr\":" + FR
                        + ",\"de\":{\"message\":null},\"de-AT\":{\"message\":\"Servus\"}}}");
        assertThat(refused.body(), refused.status(), is(400));
        // A translation without a message is named first, as it is on any publishing.
        assertThat(refused.object().getJsonObject("details").getString("field"), is("translations.de.message"));

        AdminClient.Answer missing = admin.call(Method.POST, notificationsPath(),
                "{\"message\":\"m\",\"status\":\"PUBLISHED\",\"translations\":{\"de-AT\":{\"message\":\"Servus\"}}}");
        assertThat(missing.status(), is(400));
        assertThat(missing.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat("the own locale covers en; de-AT is not de", missing.object().getJsonObject("details"),
                   is(JsonBodies.object("{\"field\":\"translations\",\"missing\":[\"fr\",\"de\"]}")));

        String id = created("{\"message\":\"m\",\"translations\":{\"fr\":" + FR + ",\"de\":{\"message\":\"Halb\"}}}");
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}").status(), is(200));
        assertThat("a project's new requirement unpublishes nothing",
                   admin.call(Method.PATCH, "/projects/" + projectId, "{\"requiredLocales\":[\"es\"]}").status(),
                   is(200));
        assertThat(notification(id).getString("status"), is("PUBLISHED"));
        AdminClient.Answer kept = admin.call(Method.PATCH, "/notifications/" + id, "{\"title\":\"New\"}");
        assertThat("a change that keeps it published is checked", kept.status(), is(400));
        assertThat(kept.object().getJsonObject("details").getJsonArray("missing"),
                   is(JsonBodies.array("[\"es\"]")));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"ARCHIVED\"}").status(), is(200));
        assertThat(admin.call(Method.PUT, "/notifications/" + id + "/translations/es", "{\"message\":\"Mitad\"}")
                           .status(), is(201));
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"status\":\"PUBLISHED\"}").status(), is(200));
        AdminClient.Answer deleted = admin.call(Method.DELETE, "/notifications/" + id + "/translations/es");
        assertThat("a published one keeps what is required", deleted.status(), is(400));
        assertThat(deleted.object().getJsonObject("details").getJsonArray("missing"),
                   is(JsonBodies.array("[\"es\"]")));
    }

    // The translation routes

    @Test
    void aTranslationIsCreatedReplacedChangedAndDeletedAsAChangeOfTheNotification() {
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"Half price\",\"status\":\"PUBLISHED\","
                + "\"image\":\"https://cdn.example.com/a.png\"}");
        String id = created.getString("id");
        String path = "/notifications/" + id + "/translations";
        assertThat(admin.call(Method.GET, path).object(), is(JsonValue.EMPTY_JSON_OBJECT));

        herald.clock().advance(Duration.ofMinutes(1));
        AdminClient.Answer put = admin.call(Method.PUT, path + "/FR", "{\"message\":\"Moiti\u00e9<script>x</script>\"}");
        assertThat(put.body(), put.status(), is(201));
        assertThat(put.location(), is("/api/v1/admin" + path + "/fr"));
        assertThat(put.object().getString("message"), is("Moiti\u00e9"));
        assertThat(put.object().getJsonArray("removed").getJsonObject(0).getString("field"),
                   is("translations.fr.message"));
        JsonObject after = notification(id);
        assertThat(after.getString("updatedAt"), is("2026-11-22T10:01:00.000Z"));
        assertThat(after.getJsonObject("translations").getJsonObject("fr").getString("message"),
                   is("Moiti\u00e9"));
        JsonObject line = admin.call(Method.GET, "/audit?targetId=" + id).array().getJsonObject(0);
        assertThat(line.getString("action"), is("notification.updated"));
        assertThat(line.getJsonObject("details").containsKey("translations"), is(true));
        assertThat(versions(id), hasSize(2));

        AdminClient.Answer replaced = admin.call(Method.PUT, path + "/fr", FR);
        assertThat(replaced.status(), is(200));
        assertThat(replaced.object(), is(JsonBodies.object("{\"title\":\"Soldes\",\"message\":\"Moiti\u00e9 prix\","
                + "\"image\":null,\"imageAlt\":null,\"action\":null,\"outdated\":false}")));

        AdminClient.Answer patched = admin.call(Method.PATCH, path + "/fr",
                                                "{\"image\":\"https://cdn.example.com/fr.png\",\"title\":null}");
        assertThat(patched.body(), patched.status(), is(200));
        assertThat(patched.object(), is(JsonBodies.object("{\"title\":null,\"message\":\"Moiti\u00e9 prix\","
                + "\"image\":\"https://cdn.example.com/fr.png\",\"imageAlt\":null,\"action\":null,\"outdated\":false}")));
        assertThat(versions(id), hasSize(4));

        assertThat(admin.call(Method.DELETE, path + "/fr").status(), is(204));
        assertThat(admin.call(Method.GET, path).object(), is(JsonValue.EMPTY_JSON_OBJECT));
        AdminClient.Answer gone = admin.call(Method.DELETE, path + "/fr");
        assertThat(gone.status(), is(404));
        assertThat(gone.object().getString("code"), is("TRANSLATION_NOT_FOUND"));
        AdminClient.Answer none = admin.call(Method.PATCH, path + "/de", "{\"title\":\"T\"}");
        assertThat(none.status(), is(404));
        assertThat(none.object().getString("code"), is("TRANSLATION_NOT_FOUND"));
        assertThat(admin.call(Method.PUT, "/notifications/nope/translations/fr", FR).status(), is(404));
    }

    @Test
    void aTranslationRouteRefusesABadTagTheOwnLanguageAndABadBody() {
        String id = created("{\"message\":\"m\",\"locale\":\"de\"}");
        String path = "/notifications/" + id + "/translations/";
        for (String tag : List.of("en_US", "x-private", "en-u-ca-buddhist", "a".repeat(40))) {
            AdminClient.Answer refused = admin.call(Method.PUT, path + tag, FR);
            assertThat(tag, refused.status(), is(400));
            assertThat(refused.object().getJsonObject("details").getString("field"), is("locale"));
        }
        AdminClient.Answer own = admin.call(Method.PUT, path + "DE", FR);
        assertThat(own.status(), is(400));
        assertThat(own.object().getJsonObject("details").getString("field"), is("locale"));
        assertThat(own.object().getString("error"), containsString("own language"));

        AdminClient.Answer noMessage = admin.call(Method.PUT, path + "fr", "{\"title\":\"T\"}");
        assertThat(noMessage.status(), is(400));
        assertThat(noMessage.object().getJsonObject("details").getString("field"), is("translations.fr.message"));
        AdminClient.Answer unknown = admin.call(Method.PUT, path + "fr", "{\"message\":\"m\",\"colour\":\"red\"}");
        assertThat(unknown.status(), is(400));
        assertThat(unknown.object().getJsonObject("details").getString("field"), is("translations.fr.colour"));
        admin.call(Method.PUT, path + "fr", FR);
        AdminClient.Answer badImage = admin.call(Method.PATCH, path + "fr", "{\"image\":\"ftp://x\"}");
        assertThat(badImage.status(), is(400));
        assertThat(badImage.object().getJsonObject("details").getString("field"), is("translations.fr.image"));

        // The outside review: Helidon drops a segment's parameters, and es;q=1 acted on es.
        for (String withParameters : List.of("fr;q=1", "fr;foo=bar")) {
            AdminClient.Answer put = admin.call(Method.PUT, path + withParameters, "{\"message\":\"changed\"}");
            assertThat(withParameters, put.status(), is(400));
            assertThat(put.object().getJsonObject("details").getString("field"), is("locale"));
            assertThat(admin.call(Method.DELETE, path + withParameters).status(), is(400));
        }
        assertThat(admin.call(Method.PUT, path + "de-1996-1996", FR).status(), is(400));
        AdminClient.Answer control = admin.call(Method.PATCH, path + "fr", "{\"title\":\"a\\u0000b\"}");
        assertThat(control.status(), is(400));
        assertThat(control.object().getJsonObject("details").getString("field"), is("translations.fr.title"));

        assertThat(admin.call(Method.POST, path + "fr", FR).status(), is(405));
        assertThat(admin.call(Method.POST, "/notifications/" + id + "/translations", FR).status(), is(405));
        assertThat(notification(id).getJsonObject("translations").keySet(), is(java.util.Set.of("fr")));
    }

    @Test
    void aViewerReadsTranslationsAndChangesNone() {
        String id = created("{\"message\":\"m\",\"translations\":{\"fr\":" + FR + "}}");
        Map<String, String> viewer = Map.of("Authorization", "Bearer " + Accounts.VICTOR_TOKEN);
        String path = "/notifications/" + id + "/translations";
        Accounts.Answer read = Accounts.send(http, Method.GET, path, null, viewer);
        assertThat(read.status(), is(200));
        assertThat(read.object().keySet(), is(java.util.Set.of("fr")));
        assertThat(Accounts.send(http, Method.PUT, path + "/de", "{\"message\":\"m\"}", viewer).status(), is(403));
        assertThat(Accounts.send(http, Method.DELETE, path + "/fr", null, viewer).status(), is(403));
        assertThat(Accounts.send(http, Method.PATCH, "/projects/" + projectId, "{\"defaultLocale\":\"de\"}", viewer)
                           .status(), is(403));
        assertThat(notification(id).getJsonObject("translations").keySet(), is(java.util.Set.of("fr")));
    }

    /** {@code count} distinct tags (xaa, xab, …) as a JSON array. */
    private static String tags(int count) {
        return IntStream.range(0, count).mapToObj(i -> "\"" + tag(i) + "\"").collect(Collectors.joining(",", "[", "]"));
    }

    /** {@code count} translations with this message (as it goes between quotes in JSON), as a JSON object. */
    private static String translations(int count, String message) {
        return IntStream.range(0, count).mapToObj(i -> "\"" + tag(i) + "\":{\"message\":\"" + message + "\"}")
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String tag(int i) {
        return "x" + (char) ('a' + i / 26) + (char) ('a' + i % 26);
    }

    private JsonObject notification(String id) {
        return admin.call(Method.GET, "/notifications/" + id).object();
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
}
