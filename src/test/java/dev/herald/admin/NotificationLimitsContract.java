package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;
import dev.herald.api.Timestamps;
import dev.herald.feed.FeedBound;
import dev.herald.locale.LanguageTag;
import dev.herald.notification.Action;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code limits.message-bytes} (the default, 32 KiB) and {@code limits.feed-bytes} (set to {@value #FEED_BYTES} here,
 * so that a few notifications reach it), run against each database by a subclass.
 */
abstract class NotificationLimitsContract extends HeraldServerTest {

    static final int FEED_BYTES = 200_000;
    private static final int MESSAGE_BYTES = 32_768;
    /** Four bytes in UTF-8, two UTF-16 units. */
    private static final String EMOJI = "\uD83D\uDE00";
    /**
     * What the bound counts for each entry beyond what an answer without languages serves: the {@code locale} member
     * an answer in another language gives it, with the longest tag its project's default may be (docs/api.md#languages).
     */
    private static final int LOCALE_ALLOWANCE = ",\"locale\":\"\"".length() + LanguageTag.MAX_LENGTH;
    /** Six of these fit under FEED_BYTES, seven do not. */
    private static final String BIG = "x".repeat(30_000);
    private static final Pattern FEED_TOO_LARGE = Pattern.compile(
            "The project's published notifications would make a feed of ([0-9,]+) bytes( for a key that shows past"
                    + " ones)?; the limit is 200,000 \\(limits.feed-bytes\\)(\\. Archive ended ones .*)?");

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;
    /** Sees past and future notifications: its answer is the largest any key of the project can get. */
    private String wideKey;

    NotificationLimitsContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    static void startWithSmallFeedLimit(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                             "limits.feed-bytes", String.valueOf(FEED_BYTES)));
    }

    @BeforeEach
    void freshProject() {
        herald.clock().set(START);
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        wideKey = admin.created("/projects/" + projectId + "/api-keys", "{\"showPast\":true,\"showFuture\":true}")
                .getString("key");
    }

    @Test
    void aMessageOfExactlyTheLimitInBytesIsAccepted() {
        String emojis = EMOJI.repeat(MESSAGE_BYTES / 4);
        AdminClient.Answer created = post("{\"message\":" + quoted(emojis) + "}");
        assertThat(created.status(), is(201));
        assertThat(created.object().getString("message"), is(emojis));

        String document = documentOfBytes(MESSAGE_BYTES);
        AdminClient.Answer rich = post("{\"message\":" + document + "}");
        assertThat(rich.status(), is(201));
        assertThat(rich.object().getString("message"), is(document));

        String path = "/notifications/" + rich.object().getString("id");
        String mixed = "\u20ac" + EMOJI.repeat(MESSAGE_BYTES / 4 - 1) + "a";   // 3 + 32,764 + 1
        assertThat(admin.call(Method.PATCH, path, "{\"message\":" + quoted(mixed) + "}").status(), is(200));
    }

    @Test
    void oneByteOverTheLimitIsRefusedNamingMessage() {
        // 32,769 bytes in 16,387 UTF-16 units: far under any limit counted in characters.
        String emojis = EMOJI.repeat(MESSAGE_BYTES / 4 - 1) + "abcde";
        String expected = "message is too long: 32,769 bytes in UTF-8, more than the 32,768 allowed"
                + " (limits.message-bytes)";
        for (String message : List.of(quoted(emojis), documentOfBytes(MESSAGE_BYTES + 1))) {
            AdminClient.Answer refused = post("{\"message\":" + message + "}");
            assertThat(refused.status(), is(400));
            assertThat(refused.object(), is(Json.createObjectBuilder().add("error", expected)
                    .add("code", "VALIDATION_ERROR").add("details", Json.createObjectBuilder().add("field", "message"))
                    .build()));
        }

        JsonObject draft = admin.created(notificationsPath(), "{\"message\":\"m\"}");
        String path = "/notifications/" + draft.getString("id");
        AdminClient.Answer update = admin.call(Method.PATCH, path, "{\"message\":" + quoted(emojis) + "}");
        assertThat(update.status(), is(400));
        assertThat(update.object().getJsonObject("details").getString("field"), is("message"));
        assertThat(admin.call(Method.GET, path).object(), is(draft));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(1));
    }

    @Test
    void publishingIsRefusedOnceTheFeedCouldExceedTheLimit() {
        // Past, current and future ones alike: a key with showPast and showFuture is served all of them.
        List<String> dates = List.of(dates(-48, -24), dates(-1, 1), dates(24, 48));
        int accepted = 0;
        AdminClient.Answer answer;
        while ((answer = post(published(BIG) + dates.get(accepted % 3) + "}")).status() == 201) {
            accepted++;
        }
        assertThat(accepted, is(6));
        assertThat(answer.status(), is(409));
        assertThat(answer.object().keySet(), is(Set.of("error", "code")));
        assertThat(answer.object().getString("code"), is("FEED_TOO_LARGE"));
        long figure = figure(answer);
        assertThat(figure, greaterThan((long) FEED_BYTES));

        byte[] served = servedFeed();
        assertThat(JsonBodies.array(new String(served, StandardCharsets.UTF_8)), hasSize(6));
        assertThat(served.length, lessThanOrEqualTo(FEED_BYTES));
        // Exact, not an estimate: the refused write would have added its entry and a comma to what is served, and
        // each of the seven its locale member in an answer in another language.
        int entryBytes = (served.length - 2 - 5) / 6;
        assertThat(figure, is((long) served.length + 1 + entryBytes + 7 * LOCALE_ALLOWANCE));
        assertThat(admin.call(Method.GET, notificationsPath() + "?status=PUBLISHED").array(), hasSize(6));
    }

    @Test
    void draftsAreNotCountedAndUnpublishingOrDeletingMakesRoom() {
        List<String> published = fillWithSixBig();
        String draft = admin.created(notificationsPath(), "{\"message\":" + quoted(BIG) + "}").getString("id");
        admin.created(notificationsPath(), "{\"message\":" + quoted(BIG) + ",\"status\":\"ARCHIVED\"}");

        AdminClient.Answer refused = admin.call(Method.PATCH, "/notifications/" + draft, "{\"status\":\"PUBLISHED\"}");
        assertThat(refused.status(), is(409));
        assertThat(refused.object().getString("code"), is("FEED_TOO_LARGE"));
        assertThat(admin.call(Method.GET, "/notifications/" + draft).object().getString("status"), is("DRAFT"));

        assertThat(admin.call(Method.DELETE, "/notifications/" + published.get(0)).status(), is(204));
        assertThat(admin.call(Method.PATCH, "/notifications/" + draft, "{\"status\":\"PUBLISHED\"}").status(), is(200));
        assertThat(post(published(BIG) + "}").status(), is(409));

        assertThat(admin.call(Method.PATCH, "/notifications/" + published.get(1), "{\"status\":\"ARCHIVED\"}").status(),
                   is(200));
        assertThat(post(published(BIG) + "}").status(), is(201));
        assertThat(servedFeed().length, lessThanOrEqualTo(FEED_BYTES));
    }

    @Test
    void aPublishedNotificationGrowsOnlyIntoTheRoomLeft() {
        fillWithSixBig();
        int served = servedFeed().length;
        int entryOverhead = (served - 2 - 5) / 6 - BIG.length();
        // One more whose message leaves exactly 10 bytes of room (its comma counts too, and each of the seven entries'
        // locale member).
        int length = FEED_BYTES - served - 10 - 1 - entryOverhead - 7 * LOCALE_ALLOWANCE;
        String path = "/notifications/" + admin.created(notificationsPath(), published("y".repeat(length)) + "}")
                .getString("id");
        assertThat(servedFeed().length, is(FEED_BYTES - 10 - 7 * LOCALE_ALLOWANCE));

        assertThat(admin.call(Method.PATCH, path, "{\"preset\":\"default123\"}").status(), is(200));
        assertThat(admin.call(Method.PATCH, path, "{\"preset\":\"default1234567890\"}").status(), is(200));
        assertThat(servedFeed().length, is(FEED_BYTES - 7 * LOCALE_ALLOWANCE));
        for (String growth : List.of("{\"preset\":\"default12345678901\"}",
                                     "{\"image\":\"https://cdn.example.com/a.png\"}",
                                     "{\"title\":\"T\"}",
                                     "{\"startDate\":\"2026-11-22T09:00:00Z\"}",
                                     "{\"endDate\":\"2026-11-23T09:00:00Z\"}",
                                     "{\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\","
                                             + "\"target\":\"_blank\"}}}",
                                     "{\"message\":" + quoted("y".repeat(length + 1)) + "}")) {
            AdminClient.Answer refused = admin.call(Method.PATCH, path, growth);
            assertThat(growth, refused.status(), is(409));
            assertThat(figure(refused), greaterThan((long) FEED_BYTES));
        }
        // The same size, or less, is always allowed.
        assertThat(admin.call(Method.PATCH, path, "{\"preset\":\"default0987654321\"}").status(), is(200));
        assertThat(admin.call(Method.PATCH, path, "{\"message\":" + quoted("z".repeat(length - 100)) + "}").status(),
                   is(200));
        assertThat(servedFeed().length, is(FEED_BYTES - 100 - 7 * LOCALE_ALLOWANCE));
    }

    /**
     * Issue 32: an answer in another language may serve a notification in its longest translation, with a locale
     * member naming it (docs/api.md#languages), so that is what the bound counts of it.
     */
    @Test
    void aNotificationCountsAsItsLongestLanguageWithItsLocale() {
        fillWithSixBig();
        int served = servedFeed().length;
        AdminClient.Answer refused = post(published("small") + ",\"translations\":{\"fr\":{\"message\":"
                + quoted(BIG) + "}}}");
        assertThat(refused.status(), is(409));
        assertThat(refused.object().getString("code"), is("FEED_TOO_LARGE"));
        // Its French entry is as large as each of the six: theirs, its comma, its locale member and the six others'.
        int entryBytes = (served - 2 - 5) / 6;
        assertThat(figure(refused), is((long) served + 1 + entryBytes + ",\"locale\":\"fr\"".length()
                + 6 * LOCALE_ALLOWANCE));

        String id = post(published("small") + ",\"translations\":{\"fr\":{\"message\":\"petit\"}}}").object()
                .getString("id");
        String french = "/notifications/" + id + "/translations/fr";
        AdminClient.Answer grown = admin.call(Method.PUT, french, "{\"message\":" + quoted(BIG) + "}");
        assertThat(grown.status(), is(409));
        assertThat(grown.object().getString("code"), is("FEED_TOO_LARGE"));
        assertThat(admin.call(Method.GET, "/notifications/" + id + "/translations").object().getJsonObject("fr")
                           .getString("message"), is("petit"));
        assertThat("a draft counts for nothing", admin.call(Method.PATCH, "/notifications/" + id,
                "{\"status\":\"DRAFT\",\"translations\":{\"fr\":{\"message\":" + quoted(BIG) + "}}}").status(), is(200));
    }

    /** The bound counts a message as the feed writes it, escaped, not as it is stored. */
    @Test
    void jsonEscapingIsCountedAsServed() throws SQLException {
        // The API refuses control characters now; a row stored before keeps them. 20,000 bytes stored, 120,000
        // served: each is written as \u0001 (measured by the next write, as a row without a stored size).
        assertThat(post(published("\u0001".repeat(20_000)) + "}").status(), is(400));
        insertByHand(1, "\u0001".repeat(20_000), i -> "controls");
        // 30,000 bytes stored, 60,000 served: \" for each quote (a serialized document's quotes cost the same).
        assertThat(post(published("\"".repeat(30_000)) + "}").status(), is(201));
        // 10,000 more bytes stored: 60,000 in all, far under the limit as stored, but 200,000 and more served.
        AdminClient.Answer refused = post(published("\"".repeat(10_000)) + "}");
        assertThat(refused.status(), is(409));
        assertThat(figure(refused), greaterThan(200_000L));

        byte[] served = servedFeed();
        assertThat(served.length, greaterThan(180_000));
        assertThat(served.length, lessThanOrEqualTo(FEED_BYTES));
    }

    @Test
    void concurrentPublishesCannotExceedTheLimitTogether() throws Exception {
        List<String> drafts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            drafts.add(admin.created(notificationsPath(), "{\"message\":" + quoted(BIG) + "}").getString("id"));
        }
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String draft = i < 8 ? drafts.get(i) : null;
                statuses.add(threads.submit(() -> {
                    start.await();
                    return draft == null
                            ? post(published(BIG) + "}").status()
                            : admin.call(Method.PATCH, "/notifications/" + draft, "{\"status\":\"PUBLISHED\"}").status();
                }));
            }
            start.countDown();
            int accepted = 0;
            for (Future<Integer> status : statuses) {
                int code = status.get();
                assertThat(code == 201 || code == 200 || code == 409, is(true));
                accepted += code == 409 ? 0 : 1;
            }
            assertThat(accepted, is(6));
        } finally {
            threads.shutdownNow();
        }
        assertThat(admin.call(Method.GET, notificationsPath() + "?status=PUBLISHED").array(), hasSize(6));
        assertThat(servedFeed().length, lessThanOrEqualTo(FEED_BYTES));
    }

    /**
     * Rows without a stored size (written before migration 7, or by hand) are measured before a bound is read, and a
     * project over the limit (lowered since, say) can always shrink, unpublish or delete, never grow.
     */
    @Test
    void aProjectOverTheLimitCanOnlyShrink() throws SQLException {
        insertByHand(10, BIG, i -> "byhand" + i);
        AdminClient.Answer refused = post(published("m") + "}");
        assertThat(refused.status(), is(409));
        assertThat(figure(refused), greaterThan(10 * 30_000L));

        assertThat(admin.call(Method.PATCH, "/notifications/byhand0", "{\"message\":\"short\"}").status(), is(200));
        assertThat(admin.call(Method.PATCH, "/notifications/byhand1", "{\"status\":\"ARCHIVED\"}").status(), is(200));
        assertThat(admin.call(Method.PATCH, "/notifications/byhand2", "{\"endDate\":null}").status(), is(200));
        assertThat(admin.call(Method.DELETE, "/notifications/byhand3").status(), is(204));
        assertThat(admin.call(Method.PATCH, "/notifications/byhand4", "{\"preset\":\"default2\"}").status(), is(409));
        assertThat("still over the limit", servedFeed().length, greaterThan(FEED_BYTES));

        assertThat(admin.call(Method.PATCH, "/notifications/byhand5", "{\"status\":\"DRAFT\"}").status(), is(200));
        assertThat(post(published("m") + "}").status(), is(201));
        assertThat(servedFeed().length, lessThanOrEqualTo(FEED_BYTES));
    }

    /** A feed holds at most 1000 notifications: the bound adds up the 1000 largest, not every published one. */
    @Test
    void onlyTheThousandLargestPublishedCount() throws SQLException {
        // 1001 small ones, by hand for speed (so measured by the refused write), with ids as long as the store's.
        insertByHand(1001, "m", i -> String.format("byhand%012d", i));
        Project project = new Project(projectId, "p", START.toEpochMilli());
        long small = FeedBound.entryBytes(new Notification("byhand000000000000", projectId, NotificationStatus.PUBLISHED,
                                                           null, "m", null, Action.NONE, "default", null, null, 0, 0));
        ApiException refused = assertThrows(ApiException.class,
                                            () -> herald.notification(project).message("x".repeat(FEED_BYTES)).save());
        assertThat(refused.status(), is(Status.CONFLICT_409));
        // The refused one and the 999 largest others, with brackets and commas; its id is as long as theirs.
        long big = small - 1 + FEED_BYTES;
        Matcher figure = FEED_TOO_LARGE.matcher(refused.getMessage());
        assertThat(refused.getMessage(), figure.matches(), is(true));
        assertThat(Long.parseLong(figure.group(1).replace(",", "")), is(2 + 999 + 999 * small + big));
    }

    /**
     * The finding: a year of expired announcements stopped a project from publishing although every key's feed was
     * empty. Without a key that shows the past, ended ones do not count; a key that would show them is checked.
     */
    @Test
    void endedNotificationsCountOnlyForKeysThatShowThePast() {
        assertThat(admin.call(Method.DELETE, "/api-keys/" + wideKey).status(), is(204));
        String key = admin.created("/projects/" + projectId + "/api-keys", "{\"showFuture\":true}").getString("key");
        for (int i = 0; i < 12; i++) {
            AdminClient.Answer ended = post(published(BIG) + dates(-48, -24) + "}");
            assertThat(ended.status(), is(201));
        }
        List<String> current = fillWithSixBig();
        assertThat("the seventh current one is still refused", post(published(BIG) + "}").status(), is(409));
        assertThat(JsonBodies.array(new String(servedFeed(key), StandardCharsets.UTF_8)), hasSize(current.size()));

        AdminClient.Answer showPast = admin.call(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}");
        assertThat(showPast.status(), is(409));
        assertThat(showPast.object().getString("code"), is("FEED_TOO_LARGE"));
        assertThat(showPast.object().getString("error"), containsString(
                "for a key that shows past ones; the limit is 200,000 (limits.feed-bytes). Archive ended ones (POST "
                        + "/api/v1/admin/projects/" + projectId + "/notifications/archive?state=ended)"));
        assertThat(admin.call(Method.POST, "/projects/" + projectId + "/api-keys", "{\"showPast\":true}").status(),
                   is(409));

        AdminClient.Answer archived = admin.call(Method.POST, notificationsPath() + "/archive?state=ended");
        assertThat(archived.status(), is(200));
        assertThat(archived.object(), is(Json.createObjectBuilder().add("archived", 12).build()));
        assertThat(admin.call(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}").status(), is(200));
        assertThat(admin.call(Method.GET, notificationsPath() + "?state=ended").array(), hasSize(0));
        assertThat(admin.call(Method.GET, notificationsPath() + "?state=archived").array(), hasSize(12));
    }

    /** Moving an ended notification's end into the future brings it back into the feeds: it is checked. */
    @Test
    void anEndedNotificationMadeCurrentAgainIsChecked() {
        assertThat(admin.call(Method.PATCH, "/api-keys/" + wideKey, "{\"showPast\":false}").status(), is(200));
        fillWithSixBig();
        String ended = admin.created(notificationsPath(), published(BIG) + dates(-48, -24) + "}").getString("id");
        AdminClient.Answer revived = admin.call(Method.PATCH, "/notifications/" + ended,
                                                "{\"endDate\":\"" + START.plus(Duration.ofDays(1)) + "\"}");
        assertThat(revived.status(), is(409));
        assertThat(revived.object().getString("code"), is("FEED_TOO_LARGE"));
    }

    @Test
    void aNotificationSavedAlreadyEndedIsWarned() {
        AdminClient.Answer ended = post(published("m") + dates(-48, -24) + "}");
        assertThat(ended.status(), is(201));
        assertThat(ended.warning(), is("299 - \"endDate " + Timestamps.format(START.minus(Duration.ofHours(24)).toEpochMilli())
                + " is past: the notification is ended as it is saved, and only keys with showPast show it\""));
        assertThat("a draft is not shown anyway", post("{\"message\":\"m\"" + dates(-48, -24) + "}").warning(),
                   is(nullValue()));
        AdminClient.Answer current = post(published("m") + dates(-1, 1) + "}");
        assertThat(current.warning(), is(nullValue()));
        AdminClient.Answer endedByPatch = admin.call(Method.PATCH, "/notifications/" + current.object().getString("id"),
                "{\"endDate\":\"" + START.minus(Duration.ofMinutes(1)) + "\"}");
        assertThat(endedByPatch.status(), is(200));
        assertThat(endedByPatch.warning(), containsString(" is past: the notification is ended as it is saved"));
    }

    @Test
    void bulkArchiveTakesEndedOnlyAndSaysWhatItTakes() {
        post(published("ended") + dates(-48, -24) + "}");
        post(published("live") + dates(-1, 1) + "}");
        post("{\"message\":\"draft\"" + dates(-48, -24) + "}");
        AdminClient.Answer missing = admin.call(Method.POST, notificationsPath() + "/archive");
        assertThat(missing.status(), is(400));
        assertThat(missing.object().getJsonObject("details").getString("field"), is("state"));
        AdminClient.Answer other = admin.call(Method.POST, notificationsPath() + "/archive?state=live");
        assertThat(other.status(), is(400));
        assertThat(other.object().getJsonObject("details").getJsonArray("allowed").toString(), is("[\"ended\"]"));
        assertThat(admin.call(Method.GET, notificationsPath() + "/archive").status(), is(405));
        assertThat(admin.call(Method.POST, "/projects/nope/notifications/archive?state=ended").status(), is(404));
        assertThat(admin.call(Method.POST, notificationsPath() + "/archive?state=ended").object().getInt("archived"),
                   is(1));
        assertThat(admin.call(Method.GET, notificationsPath() + "?state=live").array(), hasSize(1));
        assertThat(admin.call(Method.GET, notificationsPath() + "?state=draft").array(), hasSize(1));
        assertThat("nothing left to archive",
                   admin.call(Method.POST, notificationsPath() + "/archive?state=ended").object().getInt("archived"),
                   is(0));
    }

    /** Published rows written without the store, so without a stored size: as before migration 7. */
    private void insertByHand(int count, String message, IntFunction<String> id) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO notifications (id, project_id, status, message, action_type, preset, created_at,"
                             + " updated_at) VALUES (?, ?, 'PUBLISHED', ?, 'NO_ACTION', 'default', ?, ?)")) {
            for (int i = 0; i < count; i++) {
                insert.setString(1, id.apply(i));
                insert.setString(2, projectId);
                insert.setString(3, message);
                insert.setLong(4, START.toEpochMilli() + i);
                insert.setLong(5, START.toEpochMilli() + i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private List<String> fillWithSixBig() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            ids.add(admin.created(notificationsPath(), published(BIG) + "}").getString("id"));
            herald.clock().advance(Duration.ofMillis(1));
        }
        return ids;
    }

    private AdminClient.Answer post(String body) {
        return admin.call(Method.POST, notificationsPath(), body);
    }

    private String notificationsPath() {
        return "/projects/" + projectId + "/notifications";
    }

    /** The body of a published notification with this message, without its closing brace. */
    private static String published(String message) {
        return "{\"status\":\"PUBLISHED\",\"message\":" + quoted(message);
    }

    private static String dates(int startHours, int endHours) {
        return ",\"startDate\":\"" + START.plus(Duration.ofHours(startHours)) + "\",\"endDate\":\""
                + START.plus(Duration.ofHours(endHours)) + "\"";
    }

    private static String quoted(String text) {
        return Json.createValue(text).toString();
    }

    /** A rich-text document whose compact serialization is exactly {@code bytes} long. */
    private static String documentOfBytes(int bytes) {
        String empty = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"\"}]}";
        return empty.replace("\"text\":\"\"", "\"text\":\"" + "x".repeat(bytes - empty.length()) + "\"");
    }

    private static long figure(AdminClient.Answer answer) {
        Matcher matcher = FEED_TOO_LARGE.matcher(answer.object().getString("error"));
        assertThat(answer.object().getString("error"), matcher.matches(), is(true));
        return Long.parseLong(matcher.group(1).replace(",", ""));
    }

    private byte[] servedFeed() {
        return servedFeed(wideKey);
    }

    private byte[] servedFeed(String key) {
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status(), is(Status.OK_200));
            return response.as(byte[].class);
        }
    }
}
