package dev.herald.feed;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import dev.herald.apikey.ApiKey;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

/**
 * Get Notifications in the reader's language (docs/api.md#languages): which language a request is served, how each
 * entry says its own when it differs, the headers that let every cache in between keep the variants apart, and the
 * cache holding one variant per language served. Translations are written with SQL, as the management API stores
 * them, before the key's first request. Run against each database by a subclass.
 */
abstract class FeedLanguagesContract extends HeraldServerTest {

    /** A long staleness bound, as FeedCacheContract's: a slow machine never makes a test's cache drop its keys. */
    static final Map<String, String> SETTINGS = Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                       "feed.cache.max-staleness", "PT30S");
    private static final HeaderName ACCEPT_LANGUAGE = HeaderNames.ACCEPT_LANGUAGE;

    private final Http1Client client;
    private final URI uri;
    private final AdminClient admin;

    FeedLanguagesContract(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
        this.admin = new AdminClient(client);
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    /**
     * zh-Hant-TW → zh-Hant → zh → default: the answer is served in zh-Hant (the first tag the lookup finds among the
     * key's languages); an entry without it in zh, the nearest it has, and one with neither in its own language, each
     * of these two saying which.
     */
    @Test
    void theLookupDropsSubtagsPerEntryDownToItsOwnLanguage() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String both = translated(project, 3, "en", translation("zh-Hant", "繁體") + "," + translation("zh", "中文"));
        String zh = translated(project, 2, "en", translation("zh", "只有中文"));
        String none = herald.notification(project).message("English only").createdAt(START.minusSeconds(1)).save().id();

        Answer answer = get(key, Map.of(ACCEPT_LANGUAGE, "zh-Hant-TW"));

        assertThat(answer.language, is("zh-Hant"));
        JsonArray feed = answer.array();
        assertThat(feed.getJsonObject(2).getString("id"), is(both));
        assertThat(feed.getJsonObject(2).getString("message"), is("繁體"));
        assertThat(feed.getJsonObject(2).containsKey("locale"), is(false));
        assertThat(feed.getJsonObject(1).getString("id"), is(zh));
        assertThat(feed.getJsonObject(1).getString("message"), is("只有中文"));
        assertThat(feed.getJsonObject(1).getString("locale"), is("zh"));
        assertThat(feed.getJsonObject(0).getString("id"), is(none));
        assertThat(feed.getJsonObject(0).getString("message"), is("English only"));
        assertThat(feed.getJsonObject(0).getString("locale"), is("en"));
        assertThat("the locale member comes right after id", answer.body,
                   org.hamcrest.Matchers.containsString("{\"id\":\"" + zh + "\",\"locale\":\"zh\",\"message\""));

        Answer simplified = get(key, Map.of(ACCEPT_LANGUAGE, "zh-Hans-CN"));
        assertThat(simplified.language, is("zh"));
        assertThat(simplified.array().getJsonObject(2).getString("message"), is("中文"));
        assertThat(simplified.array().getJsonObject(2).containsKey("locale"), is(false));

        Answer german = get(key, Map.of(ACCEPT_LANGUAGE, "de-DE"));
        assertThat(german.language, is("en"));
        assertThat(german.body, is(get(key, Map.of()).body));
    }

    @Test
    void readersOfARegionGetTheTextOfItsLanguage() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour") + "," + translation("pt", "Olá"));

        Answer brazil = get(key, Map.of(ACCEPT_LANGUAGE, "pt-BR"));
        assertThat(brazil.language, is("pt"));
        assertThat(brazil.array().getJsonObject(0).getString("message"), is("Olá"));
        Answer quebec = get(key, Map.of(ACCEPT_LANGUAGE, "fr-CA,en;q=0.5"));
        assertThat(quebec.language, is("fr"));
        assertThat(quebec.array().getJsonObject(0).getString("message"), is("Bonjour"));
    }

    /** A translation's title, image and action where it has them; the notification's own where it has none. */
    @Test
    void aTranslationOverridesWhatItSets() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Notification own = herald.notification(project).image("https://cdn.example.com/en.png")
                .action(new dev.herald.notification.Action(dev.herald.notification.Action.Type.LINK,
                                                           "https://example.com/en", "_blank")).save();
        sql("UPDATE notifications SET title = 'Hello', translations = ? WHERE id = ?",
            "{\"de\":{\"title\":\"Hallo\",\"message\":\"Guten Tag\",\"image\":null,\"action\":{\"type\":\"LINK\","
                    + "\"data\":{\"url\":\"https://example.com/de\",\"target\":\"_self\",\"label\":\"Mehr\"}}},"
                    + "\"fr\":{\"title\":null,\"message\":\"Bonjour\",\"image\":\"https://cdn.example.com/fr.png\","
                    + "\"action\":null}}", own.id());

        JsonObject german = get(key, Map.of(ACCEPT_LANGUAGE, "de")).array().getJsonObject(0);
        assertThat(german.getString("title"), is("Hallo"));
        assertThat(german.getString("image"), is("https://cdn.example.com/en.png"));
        assertThat(german.getJsonObject("action").toString(), is("{\"type\":\"LINK\",\"data\":{\"url\":"
                + "\"https://example.com/de\",\"target\":\"_self\",\"label\":\"Mehr\"}}"));
        JsonObject french = get(key, Map.of(ACCEPT_LANGUAGE, "fr")).array().getJsonObject(0);
        assertThat(french.getString("title"), is("Hello"));
        assertThat(french.getString("message"), is("Bonjour"));
        assertThat(french.getString("image"), is("https://cdn.example.com/fr.png"));
        assertThat(french.getJsonObject("action").getJsonObject("data").getString("url"), is("https://example.com/en"));
    }

    /** The token's claim, then ?locale=, then Accept-Language; each only when it finds a language of the key's. */
    @Test
    void theClaimBeatsTheParameterWhichBeatsTheHeader() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("de", "Hallo") + "," + translation("fr", "Bonjour") + ","
                + translation("pt", "Olá"));
        UserTokenMint mint = UserTokenMint.create(admin, project.id());
        String french = "Bearer " + mint.token("reader", Map.of(), "fr-BE", START);
        String japanese = "Bearer " + mint.token("reader", Map.of(), "ja", START);

        assertThat(get(key, "pt", Map.of(HeaderNames.AUTHORIZATION, french, ACCEPT_LANGUAGE, "de")).language,
                   is("fr"));
        assertThat(get(key, "pt", Map.of(HeaderNames.AUTHORIZATION, japanese, ACCEPT_LANGUAGE, "de")).language,
                   is("pt"));
        assertThat(get(key, "pt-PT", Map.of(ACCEPT_LANGUAGE, "de")).language, is("pt"));
        assertThat(get(key, "ja", Map.of(ACCEPT_LANGUAGE, "de")).language, is("de"));
        assertThat(get(key, null, Map.of(HeaderNames.AUTHORIZATION, japanese, ACCEPT_LANGUAGE, "ko, de;q=0.1")).language,
                   is("de"));
        assertThat(get(key, null, Map.of(HeaderNames.AUTHORIZATION, french)).array().getJsonObject(0).getString("message"),
                   is("Bonjour"));
    }

    @Test
    void qValuesOrderTheHeader() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour") + "," + translation("pt", "Olá"));

        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr;q=0.5, pt;q=0.9")).language, is("pt"));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "pt;q=0, fr;q=0.1")).language, is("fr"));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "ja, pt-BR;q=0.8, fr;q=0.7")).language, is("pt"));
        assertThat("q=0 is not wanted", get(key, Map.of(ACCEPT_LANGUAGE, "fr;q=0")).language, is("en"));
    }

    /** RFC 9110 §5.3: a field on two lines is the list of both; the outside review found only the first read. */
    @Test
    void anAcceptLanguageOnTwoLinesIsOneList() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour"));

        RawHttp.Response answer = RawHttp.exchange(uri, "GET " + path(key) + " HTTP/1.1\r\nHost: x\r\n"
                + "Accept-Language: xx\r\nAccept-Language: fr;q=0.8");
        assertThat(answer.status(), is(200));
        assertThat(answer.headers().get("content-language"), is("fr"));
    }

    /** Never a 4xx or 5xx for what a reader's request says about languages: what cannot be read is left out. */
    @Test
    void malformedTagsAndAbsurdHeadersAreIgnored() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour"));
        String plain = get(key, Map.of()).body;

        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "!!, 12-$$, fr;q=abc, fr;q=0.4")).language, is("fr"));
        assertThat(get(key, "✓ fr", Map.of(ACCEPT_LANGUAGE, "fr")).language, is("fr"));
        assertThat(get(key, "", Map.of()).language, is("en"));
        assertThat(get(key, "x".repeat(300), Map.of()).language, is("en"));
        Answer huge = get(key, Map.of(ACCEPT_LANGUAGE, "fr," + "en-US;q=0.5,".repeat(450)));
        assertThat(huge.header.length() > 5000, is(true));
        assertThat("a header of 5 KB is no reader's list", huge.language, is("en"));
        assertThat(huge.body, is(plain));
    }

    /**
     * A user's state names the ETag of the feed the same request gets, in the language it chooses: the state route
     * read the feed without the request's Accept-Language and locale parameter, so its feedTag matched the feed only
     * in the default language or the token's own.
     */
    @Test
    void theStatesFeedTagIsTheFeedsInTheLanguageOfTheRequest() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour"));
        String token = "Bearer " + UserTokenMint.create(admin, project.id()).token("reader", START);

        for (String locale : new String[] {null, "fr"}) {
            for (Map<HeaderName, String> headers : List.of(Map.of(HeaderNames.AUTHORIZATION, token),
                                                           Map.of(HeaderNames.AUTHORIZATION, token, ACCEPT_LANGUAGE, "fr"))) {
                Answer feed = get(key, locale, headers);
                try (Http1ClientResponse state = request("/api/v1/public/" + key.key() + "/users/me/state", locale,
                                                         headers).request()) {
                    assertThat(locale + " " + headers.get(ACCEPT_LANGUAGE),
                               JsonBodies.object(state.as(String.class)).getString("feedTag"), is(feed.etag));
                }
            }
        }
        assertThat("the French feed is another", get(key, "fr", Map.of(HeaderNames.AUTHORIZATION, token)).etag,
                   not(is(get(key, Map.of(HeaderNames.AUTHORIZATION, token)).etag)));
    }

    /** Content-Language and Vary on 200, 304 and HEAD; without a token and with one. */
    @Test
    void everyAnswerSaysItsLanguageAndWhatItVariesBy() throws Exception {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour"));
        String token = "Bearer " + UserTokenMint.create(admin, project.id()).token("reader", START);

        Answer plain = get(key, Map.of());
        assertThat(plain.language, is("en"));
        assertThat(plain.vary, is("Accept-Language"));
        Answer french = get(key, Map.of(ACCEPT_LANGUAGE, "fr"));
        assertThat(french.vary, is("Accept-Language"));
        Answer revalidated = get(key, Map.of(ACCEPT_LANGUAGE, "fr", HeaderNames.IF_NONE_MATCH, french.etag));
        assertThat(revalidated.status, is(304));
        assertThat(revalidated.language, is("fr"));
        assertThat(revalidated.vary, is("Accept-Language"));
        Answer user = get(key, Map.of(ACCEPT_LANGUAGE, "fr", HeaderNames.AUTHORIZATION, token));
        assertThat(user.language, is("fr"));
        assertThat(user.vary, is("Authorization, Accept-Language"));

        RawHttp.Response head = RawHttp.exchange(uri, "HEAD " + path(key) + " HTTP/1.1\r\nHost: x\r\n"
                + "Accept-Language: fr-FR\r\nConnection: close", new byte[0]);
        assertThat(head.status(), is(200));
        assertThat(head.headers().get("content-language"), is("fr"));
        assertThat(head.headers().get("vary"), is("Accept-Language"));
        assertThat(head.headers().get("etag"), is(french.etag));
        assertThat(head.headers().get("content-length"),
                   is(String.valueOf(french.body.getBytes(StandardCharsets.UTF_8).length)));
    }

    /** Each variant has its own ETag, and revalidates with it alone: a cache never takes one language for another. */
    @Test
    void eachVariantHasItsOwnETag() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour") + "," + translation("de", "Hallo"));

        Answer english = get(key, Map.of());
        Answer french = get(key, Map.of(ACCEPT_LANGUAGE, "fr"));
        Answer german = get(key, Map.of(ACCEPT_LANGUAGE, "de"));
        assertThat(french.etag, is(not(english.etag)));
        assertThat(german.etag, is(not(french.etag)));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr-FR")).etag, is(french.etag));

        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr", HeaderNames.IF_NONE_MATCH, french.etag)).status, is(304));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "de", HeaderNames.IF_NONE_MATCH, german.etag)).status, is(304));
        assertThat(get(key, Map.of(HeaderNames.IF_NONE_MATCH, english.etag)).status, is(304));
        Answer other = get(key, Map.of(ACCEPT_LANGUAGE, "de", HeaderNames.IF_NONE_MATCH, french.etag));
        assertThat(other.status, is(200));
        assertThat(other.array().getJsonObject(0).getString("message"), is("Hallo"));
        assertThat(get(key, Map.of(HeaderNames.IF_NONE_MATCH, french.etag)).status, is(200));
    }

    /** Two languages whose bodies agree (an empty answer) still have two ETags: the tag covers the language. */
    @Test
    void variantsWithTheSameBodyHaveDifferentETags() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        forProsInFrenchToo(project);

        Answer english = get(key, Map.of());
        Answer french = get(key, Map.of(ACCEPT_LANGUAGE, "fr"));
        assertThat(french.language, is("fr"));
        assertThat(french.body, is("[]"));
        assertThat(english.body, is("[]"));
        assertThat(french.etag, is(not(english.etag)));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr", HeaderNames.IF_NONE_MATCH, english.etag)).status, is(200));
    }

    /**
     * A request that names no language, or one resolved to the project's default, gets the answer Herald gave
     * before languages, byte for byte, with its ETag: what a key that loaded before the translations were written
     * answers.
     */
    @Test
    void theAnswerInTheDefaultLanguageIsTheOneBeforeLanguages() throws SQLException {
        Project project = herald.project();
        ApiKey before = herald.key(project);
        String first = herald.notification(project).message("Hello").createdAt(START.minusSeconds(2)).save().id();
        herald.notification(project).message("World").createdAt(START.minusSeconds(1)).save();
        Answer old = get(before, Map.of());

        sql("UPDATE notifications SET translations = ? WHERE id = ?", "{" + translation("fr", "Bonjour") + "}", first);
        ApiKey after = herald.key(project);

        for (Map<HeaderName, String> headers : List.of(Map.<HeaderName, String>of(), Map.of(ACCEPT_LANGUAGE, "en-GB"),
                                                       Map.of(ACCEPT_LANGUAGE, "ja, en;q=0.1"))) {
            Answer now = get(after, headers);
            assertThat(headers.toString(), now.body, is(old.body));
            assertThat(headers.toString(), now.etag, is(old.etag));
        }
        assertThat(get(after, Map.of(ACCEPT_LANGUAGE, "fr")).body, is(not(old.body)));
    }

    /** The project's default decides the default variant; a notification in another language says so there. */
    @Test
    void theProjectsDefaultLanguageIsServedToReadersWhoNameNone() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        sql("UPDATE projects SET default_locale = 'de' WHERE id = ?", project.id());
        String german = herald.notification(project).message("Hallo").createdAt(START.minusSeconds(2)).save().id();
        String english = translated(project, 1, "en", translation("de", "Servus"));

        Answer plain = get(key, Map.of());
        assertThat(plain.language, is("de"));
        assertThat(plain.array().getJsonObject(0).getString("id"), is(english));
        assertThat(plain.array().getJsonObject(0).getString("message"), is("Servus"));
        assertThat(plain.array().getJsonObject(0).containsKey("locale"), is(false));
        assertThat(plain.array().getJsonObject(1).getString("id"), is(german));
        assertThat(plain.array().getJsonObject(1).containsKey("locale"), is(false));
        Answer inEnglish = get(key, Map.of(ACCEPT_LANGUAGE, "en-US"));
        assertThat(inEnglish.language, is("en"));
        assertThat(inEnglish.array().getJsonObject(0).containsKey("locale"), is(false));
        assertThat(inEnglish.array().getJsonObject(1).getString("locale"), is("de"));
    }

    /**
     * What was written past the management API is left out, not served half: a translation without a message, one
     * under a tag that is not canonical, one of another shape.
     */
    @Test
    void translationsThatCannotBeServedAreLeftOut() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", "\"FR\":{\"message\":\"Bonjour\"},\"de\":{\"title\":\"Hallo\",\"message\":null},"
                + "\"it\":{\"message\":7},\"es\":{\"message\":\"Hola\",\"action\":{\"type\":\"LINK\",\"data\":null}},"
                + "\"pt\":{\"message\":\"Olá\"}");

        for (String tag : List.of("fr", "de", "it", "es")) {
            assertThat(tag, get(key, Map.of(ACCEPT_LANGUAGE, tag)).language, is("en"));
        }
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "pt")).language, is("pt"));
    }

    /** Answers for users are kept per set of matches and language: a targeted entry in the user's language. */
    @Test
    void aUsersAnswerIsInTheirLanguage() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        forProsInFrenchToo(project);
        UserTokenMint mint = UserTokenMint.create(admin, project.id());
        String pro = "Bearer " + mint.token("pro-reader", Map.of("plan", "pro"), START);
        long built = herald.services().feed().cacheFigures().userBuilds();

        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr", HeaderNames.AUTHORIZATION, pro)).array().getJsonObject(0)
                           .getString("message"), is("Pour les pros"));
        assertThat(get(key, Map.of(HeaderNames.AUTHORIZATION, pro)).array().getJsonObject(0).getString("message"),
                   is("For pros"));
        assertThat(get(key, Map.of(ACCEPT_LANGUAGE, "fr-CA", HeaderNames.AUTHORIZATION, pro)).array()
                           .getJsonObject(0).getString("message"), is("Pour les pros"));
        assertThat("one answer per set and language, the third a hit",
                   herald.services().feed().cacheFigures().userBuilds(), is(built + 2));
        assertThat("a request without a token does not see it", get(key, Map.of(ACCEPT_LANGUAGE, "fr")).array().size(),
                   is(0));
    }

    /**
     * However many Accept-Language values readers send, a key holds one variant per language it has, and the values
     * it remembers stay within their bound.
     */
    @Test
    void variantsAreBoundedByLanguagesNotByHeaderValues() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        translated(project, 1, "en", translation("fr", "Bonjour") + "," + translation("pt", "Olá") + ","
                + translation("zh-Hant", "繁體"));
        get(key, Map.of());
        FeedCacheFigures before = herald.services().feed().cacheFigures();

        List<String> regions = List.of("FR", "CA", "BE", "CH", "BR", "PT", "TW", "HK", "US", "GB");
        int requests = 0;
        for (String language : List.of("fr", "pt", "zh-Hant", "de", "ja")) {
            for (String region : regions) {
                for (int q = 1; q <= 4; q++) {
                    get(key, Map.of(ACCEPT_LANGUAGE, language + "-" + region + ",en;q=0." + q));
                    requests++;
                }
            }
        }

        FeedCacheFigures after = herald.services().feed().cacheFigures();
        assertThat(requests, is(200));
        assertThat("fr, pt and zh-Hant besides the default", after.variants() - before.variants(), is(3L));
        assertThat("no request read the database", after.misses(), is(before.misses()));
        assertThat(after.keys(), is(before.keys()));
        long remembered = FeedCache.MAX_REMEMBERED * (FeedCache.MAX_REMEMBERED_LENGTH + 64L);
        assertThat(after.bytes() - before.bytes(), lessThanOrEqualTo(3 * 2048 + remembered));
    }

    /**
     * limits.feed-bytes holds for every language: a size measured again (migration 21 set them all NULL) is the
     * largest of the notification's languages with a locale member, which is what an answer in another language that
     * serves it in its longest one holds.
     */
    @Test
    void aSizeMeasuredAgainIsItsLargestLanguageWithItsLocaleMember() throws SQLException {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String id = translated(project, 2, "en", translation("fr", "Bonjour, ceci est bien plus long que Hello"));
        translated(project, 1, "en", translation("fr-CA", "Allô"));
        sql("UPDATE notifications SET feed_bytes = NULL WHERE project_id = ?", project.id());

        herald.notification(project).save();

        JsonObject entry = entry(get(key, Map.of(ACCEPT_LANGUAGE, "fr-CA")).array(), id);
        assertThat(entry.getString("locale"), is("fr"));
        assertThat(storedFeedBytes(id), is((long) entry.toString().getBytes(StandardCharsets.UTF_8).length));

        // A write through the management API measures it the same way, with the translations stored with it.
        assertThat(admin.call(io.helidon.http.Method.PATCH, "/notifications/" + id, "{\"preset\":\"banner\"}")
                           .status(), is(200));
        JsonObject changed = entry(get(key, Map.of(ACCEPT_LANGUAGE, "fr-CA")).array(), id);
        assertThat(changed.getString("preset"), is("banner"));
        assertThat(storedFeedBytes(id), is((long) changed.toString().getBytes(StandardCharsets.UTF_8).length));
    }

    private static JsonObject entry(JsonArray feed, String id) {
        return feed.stream().map(value -> value.asJsonObject())
                .filter(value -> value.getString("id").equals(id)).findFirst().orElseThrow();
    }

    // What follows writes and reads the database as the management API stores it.

    /** A notification created {@code secondsAgo} before START, in {@code locale}, with these translations. */
    private String translated(Project project, int secondsAgo, String locale, String translations) throws SQLException {
        String id = herald.notification(project).message("Hello").createdAt(START.minusSeconds(secondsAgo)).save().id();
        sql("UPDATE notifications SET locale = ?, translations = ? WHERE id = ?", locale, "{" + translations + "}", id);
        return id;
    }

    /** A notification for users whose plan is pro, in English and French. */
    private void forProsInFrenchToo(Project project) throws SQLException {
        String targeted = admin.created("/projects/" + project.id() + "/notifications", """
                {"message":"For pros","status":"PUBLISHED",
                 "audience":{"attribute":"plan","operator":"equals","value":"pro"}}""").getString("id");
        sql("UPDATE notifications SET translations = ? WHERE id = ?", "{" + translation("fr", "Pour les pros") + "}",
            targeted);
    }

    private static String translation(String tag, String message) {
        return "\"" + tag + "\":{\"title\":null,\"message\":" + jakarta.json.Json.createValue(message)
                + ",\"image\":null,\"action\":null}";
    }

    private static void sql(String statement, String... parameters) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement update = connection.prepareStatement(statement)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setString(i + 1, parameters[i]);
            }
            update.executeUpdate();
        }
    }

    private static long storedFeedBytes(String id) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement select = connection.prepareStatement("SELECT feed_bytes FROM notifications WHERE id = ?")) {
            select.setString(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private Answer get(ApiKey key, Map<HeaderName, String> headers) {
        return get(key, null, headers);
    }

    /** @param locale the {@code locale} parameter, or null for none */
    private Answer get(ApiKey key, String locale, Map<HeaderName, String> headers) {
        try (Http1ClientResponse response = request(path(key), locale, headers).request()) {
            String body = response.status() == Status.NOT_MODIFIED_304 ? "" : response.as(String.class);
            assertThat(body, response.status().code() == 200 || response.status().code() == 304, is(true));
            return new Answer(response.status().code(), body,
                              response.headers().first(HeaderNames.CONTENT_LANGUAGE).orElse(null),
                              response.headers().first(HeaderNames.VARY).orElse(null),
                              response.headers().first(HeaderNames.ETAG).orElse(null),
                              headers.getOrDefault(ACCEPT_LANGUAGE, ""));
        }
    }

    private Http1ClientRequest request(String path, String locale, Map<HeaderName, String> headers) {
        Http1ClientRequest request = client.get(path);
        if (locale != null) {
            request.queryParam("locale", locale);
        }
        headers.forEach(request::header);
        return request;
    }

    private static String path(ApiKey key) {
        return "/api/v1/public/" + key.key() + "/notifications";
    }

    private record Answer(int status, String body, String language, String vary, String etag, String header) {
        JsonArray array() {
            return JsonBodies.array(body);
        }
    }
}
