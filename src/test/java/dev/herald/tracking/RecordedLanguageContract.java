package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import dev.herald.changes.Change;
import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.UserTokenMint;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.is;

/**
 * The language an interaction is recorded in (docs/api.md, POST /api/v1/public/track/{notificationId}, {@code locale}),
 * run against each database by a subclass: always one of the notification's languages, read back from the stored rows.
 */
abstract class RecordedLanguageContract extends HeraldServerTest {

    /** A thousand interactions from one client within a minute: more than the public limit lets through. */
    static final Map<String, String> SETTINGS = Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                       "rate-limit.requests", "100000");
    /** English of its own; French and German translated; Italian still being written (no message). */
    private static final String TRANSLATIONS = "{\"de\":{\"title\":null,\"message\":\"Hallo\",\"image\":null,"
            + "\"action\":null},\"fr\":{\"title\":null,\"message\":\"Bonjour\",\"image\":null,\"action\":null},"
            + "\"it\":{\"title\":null,\"message\":null,\"image\":null,\"action\":null}}";

    private final Http1Client client;
    private final AdminClient admin;
    private Project project;
    private Notification translated;

    RecordedLanguageContract(Http1Client client) {
        this.client = client;
        this.admin = new AdminClient(client);
    }

    @BeforeEach
    void translatedNotification() throws SQLException {
        herald.clock().set(START);
        project = herald.project();
        translated = herald.notification(project).save();
        // As the management API stores them (lang-api); set before the first interaction, which reads them.
        update("UPDATE notifications SET locale = 'en', translations = ? WHERE id = ?", TRANSLATIONS, translated.id());
    }

    @Test
    void theBodysLocaleIsLookedUpAmongTheNotificationsLanguagesFirst() throws SQLException {
        track("simple", "{\"type\":\"impression\",\"locale\":\"fr-CA\"}", Map.of());
        track("enhanced", "{\"type\":\"click\",\"locale\":\"de\"}", Map.of("Accept-Language", "fr"));
        track("enhanced", "{\"type\":\"click\",\"locale\":\"DE-at\"}", Map.of());
        assertThat(recorded(translated.id()), is(List.of("fr", "de", "de")));
    }

    @Test
    void withoutOneTheClaimThenTheParameterThenAcceptLanguageDecide() throws SQLException {
        String token = UserTokenMint.create(admin, project.id()).token("alice", Map.of(), "de-CH", START);
        track("simple", "{\"type\":\"impression\"}", Map.of("Accept-Language", "ja, de-AT;q=0.9, fr;q=0.8"));
        track("simple?locale=fr", "{\"type\":\"impression\"}", Map.of("Accept-Language", "de"));
        track("enhanced?locale=fr", "{\"type\":\"impression\"}",
              Map.of("Authorization", "Bearer " + token, "Accept-Language", "fr"));
        assertThat(recorded(translated.id()), is(List.of("de", "fr", "de")));
    }

    @Test
    void noneOfItsLanguagesIsRecordedAsItsOwn() throws SQLException {
        track("simple", "{\"type\":\"impression\",\"locale\":\"ja\"}", Map.of("Accept-Language", "ko"));
        track("simple", "{\"type\":\"impression\",\"locale\":\"it\"}", Map.of());
        assertThat("a translation without a message is no language of it", recorded(translated.id()),
                   is(List.of("en", "en")));
    }

    /** Without a language of its own, the project's default; without translations, whatever the request asks. */
    @Test
    void aNotificationWithoutTranslationsIsRecordedInItsOwnLanguage() throws SQLException {
        Project other = herald.project();
        update("UPDATE projects SET default_locale = 'pt-BR' WHERE id = ?", other.id());
        Notification plain = herald.notification(other).save();
        track(plain.id(), "simple", "{\"type\":\"impression\",\"locale\":\"fr\"}", Map.of("Accept-Language", "de"));
        assertThat(recorded(plain.id()), is(List.of("pt-BR")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"12", "null", "\"\"", "\"fr_FR\"", "{\"tag\":\"fr\"}", "[\"fr\"]", "\"x-fr\"",
            "\"frrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrrr\"", "\"fr\\u0000\""})
    void aMalformedBodyLocaleIsPassedOverNeverRefused(String locale) throws SQLException {
        track("enhanced", "{\"type\":\"impression\",\"locale\":" + locale + "}", Map.of("Accept-Language", "de"));
        assertThat(recorded(translated.id()), is(List.of("de")));
    }

    /**
     * Whatever a client sends, what is recorded is one of the notification's languages: the totals' key cannot be
     * made to grow. The daily totals agree with the rows, language by language.
     */
    @Test
    void hostileTagsGiveOnlyTheNotificationsLanguagesAndTotalsAgreeWithRows() throws SQLException {
        Random random = new Random(32);
        for (int i = 0; i < 1000; i++) {
            track(i % 2 == 0 ? "simple" : "enhanced",
                  "{\"type\":\"impression\",\"locale\":\"" + randomTag(random) + "\"}",
                  Map.of("Accept-Language", randomTag(random) + ", " + randomTag(random) + ";q=0.5"));
        }
        Map<String, Long> rows = grouped("SELECT locale, COUNT(*) FROM interactions WHERE notification_id = ?"
                                                 + " GROUP BY locale", translated.id());
        assertThat(rows.keySet().toString(), Set.of("en", "fr", "de").containsAll(rows.keySet()), is(true));
        assertThat(rows.values().stream().mapToLong(Long::longValue).sum(), is(1000L));
        assertThat("some random tags fall on a language of it", rows.size() > 1, is(true));
        assertThat(grouped("SELECT locale, SUM(total) FROM interaction_daily_totals WHERE notification_id = ?"
                                   + " GROUP BY locale", translated.id()), is(rows));
    }

    /** An edit of a notification announces its project: its languages are read again at its next interaction. */
    @Test
    void aChangeOfItsProjectIsSeenAtTheNextInteractionAndMemoryAnswersMeanwhile() throws SQLException {
        Notification later = herald.notification(project).save();
        // Its creation comes again from the log (ChangeListener: twice, idempotent): once read, memory keeps it.
        assertThat(herald.services().changes().awaitRead(Duration.ofSeconds(5)), is(true));
        track(later.id(), "simple", "{\"type\":\"impression\",\"locale\":\"fr\"}", Map.of());
        LookupFigures before = herald.services().tracking().lookupFigures();
        for (int i = 0; i < 10; i++) {
            track(later.id(), "simple", "{\"type\":\"impression\",\"locale\":\"fr\"}", Map.of("Accept-Language", "de"));
        }
        assertThat("answered from memory", herald.services().tracking().lookupFigures().fromDatabase(),
                   is(before.fromDatabase()));

        update("UPDATE notifications SET translations = ? WHERE id = ?", TRANSLATIONS, later.id());
        herald.services().changes().write(Change.ofProject(project.id()), transaction -> { });
        track(later.id(), "simple", "{\"type\":\"impression\",\"locale\":\"fr\"}", Map.of());
        List<String> recorded = recorded(later.id());
        assertThat(recorded.size(), is(12));
        assertThat(recorded.subList(0, 11), everyItem(is("en")));
        assertThat(recorded.get(11), is("fr"));
    }

    /** Letters, digits, dashes and odd characters of any length: well-formed or not, and mostly no language of it. */
    private static String randomTag(Random random) {
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789---_*;=.";
        StringBuilder tag = new StringBuilder();
        int length = 1 + random.nextInt(random.nextInt(10) == 0 ? 60 : 12);
        for (int i = 0; i < length; i++) {
            tag.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        if (random.nextInt(8) == 0) {
            return List.of("fr", "de-AT", "en-GB", "fr-u-nu-latn")
                    .get(random.nextInt(4)) + (random.nextBoolean() ? "" : "-" + tag);
        }
        return tag.toString();
    }

    private void track(String endpoint, String body, Map<String, String> headers) {
        track(translated.id(), endpoint, body, headers);
    }

    private void track(String notificationId, String endpoint, String body, Map<String, String> headers) {
        String[] endpointAndQuery = endpoint.split("\\?locale=");
        Http1ClientRequest request = client.post("/api/v1/public/track/" + notificationId
                                                         + (endpointAndQuery[0].equals("simple") ? "" : "/enhanced"))
                .header(HeaderNames.CONTENT_TYPE, "application/json");
        if (endpointAndQuery.length > 1) {
            request.queryParam("locale", endpointAndQuery[1]);
        }
        headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
        try (Http1ClientResponse response = request.submit(body)) {
            assertThat(body + " " + headers, response.status().code(), is(204));
        }
    }

    /** The language of each stored interaction of the notification, oldest first. */
    private static List<String> recorded(String notificationId) throws SQLException {
        List<String> locales = new ArrayList<>();
        try (Connection connection = herald.database().connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT locale FROM interactions WHERE notification_id = ? ORDER BY seq")) {
            query.setString(1, notificationId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    locales.add(rows.getString(1));
                }
            }
        }
        return locales;
    }

    private static Map<String, Long> grouped(String sql, String notificationId) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection connection = herald.database().connect();
             PreparedStatement query = connection.prepareStatement(sql)) {
            query.setString(1, notificationId);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    counts.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return counts;
    }

    private static void update(String sql, String... parameters) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement update = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                update.setString(i + 1, parameters[i]);
            }
            assertThat(sql, update.executeUpdate(), is(1));
        }
    }
}
