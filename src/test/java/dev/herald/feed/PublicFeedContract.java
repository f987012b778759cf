package dev.herald.feed;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import dev.herald.apikey.ApiKey;
import dev.herald.apikey.OrderBy;
import dev.herald.notification.Action;
import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Get Notifications (docs/api.md, GET /api/v1/public/{apiKey}/notifications), run against each database by a subclass.
 */
abstract class PublicFeedContract extends HeraldServerTest {

    private static final String MISSING_KEY = "{\"error\":\"API key is required\",\"code\":\"MISSING_API_KEY\"}";
    private static final String INVALID_KEY = "{\"error\":\"Invalid API key\",\"code\":\"INVALID_API_KEY\"}";

    private final Http1Client client;
    private final URI uri;

    PublicFeedContract(Http1Client client, URI uri) {
        this.client = client;
        this.uri = uri;
    }

    @BeforeEach
    void resetClock() {
        herald.clock().set(START);
    }

    @Test
    void aMissingKeyIsRequired() throws Exception {
        try (Http1ClientResponse response = client.get("/api/v1/public/notifications").request()) {
            assertThat(response.status(), is(Status.UNAUTHORIZED_401));
            assertThat(response.headers().contentType().orElseThrow().mediaType().text(), is("application/json"));
            assertThat(response.as(String.class), is(MISSING_KEY));
        }
        RawHttp.Response emptySegment = RawHttp.exchange(uri, "GET /api/v1/public//notifications HTTP/1.1\r\nHost: x");
        assertThat(emptySegment.status(), is(401));
        assertThat(emptySegment.body(), is(MISSING_KEY));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "short",
            "abcdefghijabcdefghijabcdefghij1",                                      // 31 characters
            "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcdefghijabcde",    // 65 characters
            "abcdefghij-abcdefghij-abcdefghij-abc",                                // not alphanumeric
            "Zz0UnknownButWellFormedKeyZz0UnknownButWellFormed"
    })
    void malformedAndUnknownKeysAreInvalid(String key) {
        assertUnauthorized(key, INVALID_KEY);
    }

    @Test
    void aRevokedKeyGetsTheSameAnswerAsAnUnknownOne() {
        Project project = herald.project();
        herald.notification(project).save();
        assertUnauthorized(herald.revokedKey(project).key(), INVALID_KEY);
    }

    @Test
    void keysAreCaseSensitive() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String otherCase = key.key().chars().anyMatch(Character::isLowerCase)
                ? key.key().toUpperCase() : key.key().toLowerCase();
        assertUnauthorized(otherCase, INVALID_KEY);
    }

    @Test
    void servesExactlyThePublicNotificationFields() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        Notification full = herald.notification(project)
                .image("https://cdn.example.com/banner.png")
                .action(new Action(Action.Type.LINK, "https://example.com/offer", "_blank"))
                .preset("banner")
                .start(Instant.parse("2026-11-22T09:00:00.123Z"))
                .end(Instant.parse("2026-12-01T00:00:00Z"))
                .createdAt(START.minusSeconds(60))
                .save();
        Notification bare = herald.notification(project)
                .action(new Action(Action.Type.CLOSE, null, null))
                .createdAt(START.minusSeconds(120))
                .save();

        try (Http1ClientResponse response = client.get(feedPath(key)).request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().contentType().orElseThrow().mediaType().text(), is("application/json"));
            JsonArray feed = JsonBodies.array(response.as(String.class));
            assertThat(feed, hasSize(2));

            JsonObject first = feed.getJsonObject(0);
            assertThat(first.keySet(), is(Set.of("id", "message", "image", "action", "preset", "startDate", "endDate")));
            assertThat(first.getString("id"), is(full.id()));
            assertThat(first.get("message"), is(instanceOfString(full.message())));
            assertThat(first.getString("image"), is("https://cdn.example.com/banner.png"));
            assertThat(first.getString("preset"), is("banner"));
            assertThat(first.getString("startDate"), is("2026-11-22T09:00:00.123Z"));
            assertThat(first.getString("endDate"), is("2026-12-01T00:00:00.000Z"));
            JsonObject link = first.getJsonObject("action");
            assertThat(link.keySet(), is(Set.of("type", "data")));
            assertThat(link.getString("type"), is("LINK"));
            assertThat(link.getJsonObject("data").keySet(), is(Set.of("url", "target")));
            assertThat(link.getJsonObject("data").getString("url"), is("https://example.com/offer"));
            assertThat(link.getJsonObject("data").getString("target"), is("_blank"));

            JsonObject second = feed.getJsonObject(1);
            assertThat(second.getString("id"), is(bare.id()));
            assertThat(second.keySet(), is(Set.of("id", "message", "image", "action", "preset", "startDate", "endDate")));
            assertThat(second.get("image"), is(JsonValue.NULL));
            assertThat(second.get("startDate"), is(JsonValue.NULL));
            assertThat(second.get("endDate"), is(JsonValue.NULL));
            assertThat(second.getString("preset"), is("default"));
            assertThat(second.getJsonObject("action").getString("type"), is("CLOSE"));
            assertThat(second.getJsonObject("action").get("data"), is(JsonValue.NULL));
        }
    }

    /** Today's clients see today's answer: the label is a member added only where one was set (docs/api.md). */
    @Test
    void aLinksLabelIsServedOnlyWhereOneIsSet() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        herald.notification(project).action(new Action(Action.Type.LINK, "https://example.com/offer", "_blank"))
                .createdAt(START.minusSeconds(60)).save();
        herald.notification(project)
                .action(new Action(Action.Type.LINK, "https://example.com/notes", "_self", "Read the notes"))
                .createdAt(START.minusSeconds(30)).save();

        try (Http1ClientResponse response = client.get(feedPath(key)).request()) {
            String body = response.as(String.class);
            assertThat(body, containsString("\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/notes\","
                    + "\"target\":\"_self\",\"label\":\"Read the notes\"}},\"preset\""));
            assertThat(body, containsString("\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/offer\","
                    + "\"target\":\"_blank\"}},\"preset\""));
        }
    }

    @Test
    void longAndNonAsciiMessagesComeBackVerbatim() {
        Project project = herald.project();
        String message = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"" + "Grüße 🎉 ".repeat(5000) + "\"}]}";
        herald.notification(project).message(message).save();
        JsonArray feed = feed(herald.key(project));
        // Compared as a boolean: a failure would print the whole 50 KB message twice.
        assertThat("message came back unchanged", feed.getJsonObject(0).getString("message").equals(message), is(true));
    }

    @Test
    void onlyPublishedNotificationsAreServed() {
        Project project = herald.project();
        Notification published = herald.notification(project).save();
        herald.notification(project).status(NotificationStatus.DRAFT).save();
        herald.notification(project).status(NotificationStatus.ARCHIVED).save();
        assertThat(ids(feed(herald.key(project, true, true, OrderBy.DEFAULT))), contains(published.id()));
    }

    @Test
    void currentNotificationsAreAlwaysServedWithInclusiveBounds() {
        Project project = herald.project();
        Instant now = START;
        Notification open = herald.notification(project).createdAt(now.minusSeconds(5)).save();
        Notification startsNow = herald.notification(project).start(now).createdAt(now.minusSeconds(4)).save();
        Notification endsNow = herald.notification(project).end(now).createdAt(now.minusSeconds(3)).save();
        Notification running = herald.notification(project).start(now.minusSeconds(3600)).end(now.plusSeconds(3600))
                .createdAt(now.minusSeconds(2)).save();
        herald.notification(project).end(now.minusMillis(1)).createdAt(now.minusSeconds(1)).save();
        herald.notification(project).start(now.plusMillis(1)).createdAt(now.minusSeconds(1)).save();

        assertThat(ids(feed(herald.key(project))),
                   contains(running.id(), endsNow.id(), startsNow.id(), open.id()));
    }

    @Test
    void pastNotificationsAppearOnlyWithShowPast() {
        Project project = herald.project();
        Notification current = herald.notification(project).createdAt(START.minusSeconds(2)).save();
        Notification past = herald.notification(project).start(START.minusSeconds(7200)).end(START.minusSeconds(3600))
                .createdAt(START.minusSeconds(1)).save();

        assertThat(ids(feed(herald.key(project, false, false, OrderBy.DEFAULT))), contains(current.id()));
        assertThat(ids(feed(herald.key(project, false, true, OrderBy.DEFAULT))), contains(current.id()));
        assertThat(ids(feed(herald.key(project, true, false, OrderBy.DEFAULT))), contains(past.id(), current.id()));
    }

    @Test
    void futureNotificationsAppearOnlyWithShowFuture() {
        Project project = herald.project();
        Notification current = herald.notification(project).createdAt(START.minusSeconds(2)).save();
        Notification future = herald.notification(project).start(START.plusSeconds(3600))
                .createdAt(START.minusSeconds(1)).save();

        assertThat(ids(feed(herald.key(project, false, false, OrderBy.DEFAULT))), contains(current.id()));
        assertThat(ids(feed(herald.key(project, true, false, OrderBy.DEFAULT))), contains(current.id()));
        assertThat(ids(feed(herald.key(project, false, true, OrderBy.DEFAULT))), contains(future.id(), current.id()));
    }

    @Test
    void classificationFollowsTheClock() {
        Project project = herald.project();
        Notification later = herald.notification(project).start(START.plusSeconds(60)).end(START.plusSeconds(120)).save();
        ApiKey key = herald.key(project);

        assertThat(ids(feed(key)), is(empty()));
        herald.clock().advance(Duration.ofSeconds(60));
        assertThat(ids(feed(key)), contains(later.id()));
        herald.clock().advance(Duration.ofSeconds(60).plusMillis(1));
        assertThat(ids(feed(key)), is(empty()));
    }

    @Test
    void otherProjectsNotificationsAreNeverServed() {
        Project mine = herald.project();
        Project theirs = herald.project();
        Notification own = herald.notification(mine).save();
        herald.notification(theirs).save();
        assertThat(ids(feed(herald.key(mine, true, true, OrderBy.DEFAULT))), contains(own.id()));
    }

    /**
     * Four current notifications with ties in every sort key: n2 and n3 share createdAt and startDate, n1 and n3
     * share endDate; n1 has no start, n2 no end. Created in the order n1, n2, n3, n4.
     */
    static Stream<Arguments> orderings() {
        return Stream.of(
                Arguments.of(OrderBy.CREATED_AT_DESC, List.of("n4", "n3", "n2", "n1")),
                Arguments.of(OrderBy.CREATED_AT_ASC, List.of("n1", "n3", "n2", "n4")),
                Arguments.of(OrderBy.START_DATE_ASC, List.of("n1", "n4", "n3", "n2")),
                Arguments.of(OrderBy.START_DATE_DESC, List.of("n3", "n2", "n4", "n1")),
                Arguments.of(OrderBy.END_DATE_ASC, List.of("n4", "n3", "n1", "n2")),
                Arguments.of(OrderBy.END_DATE_DESC, List.of("n2", "n3", "n1", "n4")));
    }

    @ParameterizedTest
    @MethodSource("orderings")
    void eachOrderByIsStableWithNullsAndTies(OrderBy orderBy, List<String> expected) {
        Project project = herald.project();
        Instant now = START;
        var created = new java.util.LinkedHashMap<String, String>();
        created.put(herald.notification(project).end(now.plusSeconds(5 * 3600)).createdAt(now.minusSeconds(40)).save().id(), "n1");
        created.put(herald.notification(project).start(now.minusSeconds(2 * 3600)).createdAt(now.minusSeconds(30)).save().id(), "n2");
        created.put(herald.notification(project).start(now.minusSeconds(2 * 3600)).end(now.plusSeconds(5 * 3600))
                            .createdAt(now.minusSeconds(30)).save().id(), "n3");
        created.put(herald.notification(project).start(now.minusSeconds(3 * 3600)).end(now.plusSeconds(3600))
                            .createdAt(now.minusSeconds(20)).save().id(), "n4");

        List<String> served = ids(feed(herald.key(project, false, false, orderBy))).stream().map(created::get).toList();
        assertThat(served, is(expected));
    }

    @Test
    void theNewestThousandAreKeptThenOrdered() {
        Project project = herald.project();
        for (int i = 0; i < 1003; i++) {
            herald.notification(project).createdAt(START.minusSeconds(2000 - i)).save();
        }
        JsonArray oldestFirst = feed(herald.key(project, false, false, OrderBy.CREATED_AT_ASC));
        assertThat(oldestFirst, hasSize(1000));
        assertThat(oldestFirst.getJsonObject(0).getString("id"),
                   is(ids(feed(herald.key(project))).get(999)));
        // The three oldest are the ones left out: the first served was created fourth.
        assertThat(ids(oldestFirst).get(0), is(ids(feed(herald.key(project, false, false, OrderBy.CREATED_AT_DESC))).get(999)));
    }

    @Test
    void anUnchangedFeedRevalidatesWith304() {
        Project project = herald.project();
        herald.notification(project).save();
        ApiKey key = herald.key(project);

        String tag;
        try (Http1ClientResponse response = client.get(feedPath(key)).request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().first(HeaderNames.CACHE_CONTROL).orElseThrow(), is("no-cache"));
            tag = response.headers().first(HeaderNames.ETAG).orElseThrow();
            assertThat(tag, startsWith("\""));
        }
        for (String ifNoneMatch : List.of(tag, "W/" + tag, "\"other\", " + tag, "*")) {
            try (Http1ClientResponse response = client.get(feedPath(key)).header(HeaderNames.IF_NONE_MATCH, ifNoneMatch)
                    .request()) {
                assertThat(ifNoneMatch, response.status(), is(Status.NOT_MODIFIED_304));
                assertThat(response.headers().first(HeaderNames.ETAG).orElseThrow(), is(tag));
                assertThat(response.entity().hasEntity(), is(false));
            }
        }
        herald.notification(project).save();
        try (Http1ClientResponse response = client.get(feedPath(key)).header(HeaderNames.IF_NONE_MATCH, tag).request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(response.headers().first(HeaderNames.ETAG).orElseThrow(), is(not(tag)));
            assertThat(JsonBodies.array(response.as(String.class)), hasSize(2));
        }
    }

    @Test
    void otherMethodsAre405WithAllow() {
        ApiKey key = herald.key(herald.project());
        try (Http1ClientResponse response = client.post(feedPath(key)).submit("{}")) {
            assertThat(response.status(), is(Status.METHOD_NOT_ALLOWED_405));
            assertThat(response.headers().first(HeaderNames.ALLOW).orElseThrow(), is("GET, HEAD, OPTIONS"));
            assertThat(JsonBodies.object(response.as(String.class)).getString("code"), is("METHOD_NOT_ALLOWED"));
        }
    }

    @Test
    void headAnswersLikeGetWithoutTheContent() throws Exception {
        Project project = herald.project();
        herald.notification(project).save();
        ApiKey key = herald.key(project);
        String get;
        try (Http1ClientResponse response = client.get(feedPath(key)).request()) {
            get = response.as(String.class);
        }
        // Pipelined on one connection: the HEAD answer must end with its headers, or the GET after it is misread.
        RawHttp.Response answers = RawHttp.exchange(uri, "HEAD " + feedPath(key) + " HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api/v1/public/notifications HTTP/1.1\r\nHost: x");
        assertThat(answers.status(), is(200));
        assertThat(answers.headers().get("content-length"), is(String.valueOf(get.getBytes(StandardCharsets.UTF_8).length)));
        assertThat(answers.headers().get("etag").startsWith("\""), is(true));
        assertThat(answers.body(), startsWith("HTTP/1.1 401 "));

        RawHttp.Response refused = RawHttp.exchange(uri, "HEAD /api/v1/public/track/x HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /api/v1/public/notifications HTTP/1.1\r\nHost: x");
        assertThat(refused.status(), is(405));
        assertThat(refused.body(), startsWith("HTTP/1.1 401 "));
    }

    @Test
    void unknownRoutesAreJson404() {
        for (String path : List.of("/api/v1/public/nothing/here", "/elsewhere")) {
            try (Http1ClientResponse response = client.get(path).request()) {
                assertThat(path, response.status(), is(Status.NOT_FOUND_404));
                assertThat(response.as(String.class), is("{\"error\":\"Not found\",\"code\":\"NOT_FOUND\"}"));
            }
        }
    }

    /**
     * The feed never serves executable content, whatever is in the database: rows written past the management API
     * (here through the store itself) with every payload of issue 22 are served in the allow-list's form, a document
     * hidden behind a comment alone, with its javascript: link null and without the attributes its types do not
     * define, a document followed by more as no document.
     */
    @Test
    void whatIsWrittenPastTheApiIsServedInTheAllowListsForm() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String hostile = "<p onclick=\"alert(1)\" style=\"color:red\">Hello <a href=\" JaVaScRiPt:alert(1)\">world</a></p>"
                + "<img src=\"x\" onerror=\"alert(1)\"><script>alert(1)</script><svg onload=\"alert(1)\"></svg>"
                + "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe><math><mi xlink:href=\"javascript:alert(1)\">m"
                + "</mi></math><img src=\"data:image/svg+xml,<svg onload=alert(1)>\"><form action=\"https://evil.example/\">"
                + "<input name=q>Send</form><a href=\"https://example.com/notes\">notes</a>";
        String document = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"go\",\"marks\":[{\"type\":"
                + "\"link\",\"attrs\":{\"href\":\"javascript:alert(1)\",\"onclick\":\"alert(1)\",\"style\":\"x\"}}]},"
                + "{\"type\":\"image\",\"attrs\":{\"src\":\"https://cdn.example.com/i.png\",\"onerror\":[\"alert(1)\"],"
                + "\"style\":[\"x\"],\"action\":[\"javascript:alert(1)\"],\"data\":[\"javascript:alert(1)\"],\"alt\":7}}]}";
        String html = herald.notification(project).message(hostile).createdAt(START.minusSeconds(3)).save().id();
        String hidden = herald.notification(project).message("/**/" + document).createdAt(START.minusSeconds(2)).save().id();
        String more = herald.notification(project).message(document + ";").createdAt(START.minusSeconds(1)).save().id();

        JsonArray feed = feed(key);

        assertThat(ids(feed), contains(more, hidden, html));
        assertThat(feed.getJsonObject(2).getString("message"),
                   is("<p>Hello world</p>Send<a href=\"https://example.com/notes\">notes</a>"));
        // Issue 29: only the attributes of each type (one of another kind null), whatever the others hold.
        assertThat(feed.getJsonObject(1).getString("message"), is("{\"type\":\"doc\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"go\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":null}}]},{\"type\":\"image\","
                + "\"attrs\":{\"src\":\"https://cdn.example.com/i.png\",\"alt\":null}}]}"));
        assertThat(feed.getJsonObject(0).getString("message"), is("&#123;" + document.substring(1) + ";"));
    }

    /**
     * Issue 29: text that the first allow-list stored and that a browser reads as a tag one reading later
     * ({@code &lt;&lt;&lt;<!---->!---->!---->img src=x onerror=…>}, for every depth, and what the management API stored of
     * it) is never served as a tag: parsed as a browser parses it, each message holds no image and no handler.
     */
    @Test
    void textThatWouldBecomeATagOneReadingLaterIsNeverServedAsOne() {
        Project project = herald.project();
        ApiKey key = herald.key(project);
        String tag = "img src=x onerror=alert(document.domain)>";
        int rows = 0;
        for (int k = 1; k <= 8; k++) {
            String payload = "&lt;".repeat(k) + "<!---->" + "!---->".repeat(k - 1) + tag;
            herald.notification(project).message(payload).createdAt(START.minusSeconds(++rows)).save();
            if (k >= 3) {
                // What the first allow-list stored of it: the tag itself, or the same shape k - 3 deep.
                String stored = k == 3 ? "<" + tag : "<".repeat(k - 3) + "<!---->" + "!---->".repeat(k - 4) + tag;
                herald.notification(project).message(stored).createdAt(START.minusSeconds(++rows)).save();
            }
        }

        JsonArray feed = feed(key);

        assertThat(feed.size(), is(rows));
        for (JsonValue item : feed) {
            String message = item.asJsonObject().getString("message");
            org.jsoup.nodes.Element body = org.jsoup.Jsoup.parseBodyFragment(message).body();
            assertThat(message, body.select("img"), hasSize(0));
            assertThat(message, body.select("[onerror]"), hasSize(0));
        }
    }

    private void assertUnauthorized(String key, String body) {
        try (Http1ClientResponse response = client.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(key, response.status(), is(Status.UNAUTHORIZED_401));
            assertThat(key, response.as(String.class), is(body));
        }
    }

    private JsonArray feed(ApiKey key) {
        try (Http1ClientResponse response = client.get(feedPath(key)).request()) {
            assertThat(response.status(), is(Status.OK_200));
            return JsonBodies.array(response.as(String.class));
        }
    }

    private static String feedPath(ApiKey key) {
        return "/api/v1/public/" + key.key() + "/notifications";
    }

    private static List<String> ids(JsonArray feed) {
        return feed.stream().map(JsonValue::asJsonObject).map(item -> item.getString("id")).toList();
    }

    private static org.hamcrest.Matcher<JsonValue> instanceOfString(String expected) {
        return is((JsonValue) jakarta.json.Json.createValue(expected));
    }
}
