package dev.herald.admin;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.Json;
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
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * Notifications in the management API (docs/api.md#management-api), run against each database by a subclass.
 */
abstract class NotificationsAdminContract extends HeraldServerTest {

    /** One character, two UTF-16 units, four bytes of UTF-8. */
    private static final String EMOJI = "\uD83D\uDE00";
    private static final List<String> NOTIFICATION_FIELDS = List.of("title", "message", "status", "image", "imageAlt",
                                                                    "action", "preset", "startDate", "endDate",
                                                                    "audience", "locale", "translations");
    private static final String LINK = "{\"type\":\"LINK\",\"data\":{\"url\":\"https://example.com/offer\",\"target\":\"_self\"}}";

    private final Http1Client http;
    private final AdminClient admin;
    private String projectId;
    private String key;

    NotificationsAdminContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    static void startWithAdminToken(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @BeforeEach
    void freshProject() {
        herald.clock().set(START);
        projectId = admin.created("/projects", "{\"name\":\"p\"}").getString("id");
        key = admin.created("/projects/" + projectId + "/api-keys", "{}").getString("key");
    }

    /**
     * Two tabs of the console saved over each other without a word (a product manager's trial). A PATCH with
     * If-Match applies only to the notification as read, named by the ETag of its GET or of the PATCH that wrote it.
     */
    @Test
    void aChangeSentWithAnOlderTagIsRefusedAndChangesNothing() {
        String id = admin.created(notificationsPath(), "{\"message\":\"Hello\"}").getString("id");
        String tag = etag(Method.GET, id, null, null);
        assertThat(tag, startsWith("\""));

        String afterTabA = etag(Method.PATCH, id, tag, "{\"title\":\"Tab A\"}");
        assertThat(afterTabA, not(is(tag)));

        try (Http1ClientResponse tabB = patch(id, tag, "{\"title\":\"Tab B\"}")) {
            assertThat(tabB.status().code(), is(412));
            JsonObject error = JsonBodies.object(tabB.as(String.class));
            assertThat(error.getString("code"), is("CHANGED_SINCE_READ"));
            assertThat(error.getString("error"), containsString("read it again"));
        }
        assertThat(admin.call(Method.GET, "/notifications/" + id).object().getString("title"), is("Tab A"));
        assertThat("the tag of the notification as it is", etag(Method.PATCH, id, afterTabA, "{\"title\":\"B\"}"),
                   not(is(afterTabA)));
        assertThat("any", etag(Method.PATCH, id, "*", "{\"title\":\"C\"}"), not(is((String) null)));
        assertThat("none: as before", admin.call(Method.PATCH, "/notifications/" + id, "{\"title\":\"D\"}").status(),
                   is(200));
    }

    private Http1ClientResponse patch(String id, String ifMatch, String json) {
        return AdminClient.request(http, Method.PATCH, "/api/v1/admin/notifications/" + id)
                .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN)
                .header(HeaderNames.IF_MATCH, ifMatch)
                .header(HeaderNames.CONTENT_TYPE, "application/json").submit(json);
    }

    /** The ETag of a GET, or of a PATCH sent with If-Match, which must succeed. */
    private String etag(Method method, String id, String ifMatch, String json) {
        try (Http1ClientResponse answer = method == Method.GET
                ? AdminClient.request(http, Method.GET, "/api/v1/admin/notifications/" + id)
                        .header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN).request()
                : patch(id, ifMatch, json)) {
            assertThat(answer.status().code(), is(200));
            return answer.headers().first(HeaderNames.ETAG).orElse(null);
        }
    }

    @Test
    void aNewNotificationIsADraftWithDefaults() {
        AdminClient.Answer created = admin.call(Method.POST, notificationsPath(), "{\"message\":\"Hello\"}");
        assertThat(created.status(), is(201));
        JsonObject notification = created.object();
        assertThat(notification.keySet(), is(Set.of("id", "projectId", "status", "title", "message", "image", "imageAlt",
                                                    "action", "preset", "startDate", "endDate", "audience", "locale",
                                                    "translations", "createdAt", "updatedAt")));
        assertThat(notification.getString("id").matches("[a-zA-Z0-9_-]+"), is(true));
        assertThat(created.location(), is("/api/v1/admin/notifications/" + notification.getString("id")));
        assertThat(notification.getString("projectId"), is(projectId));
        assertThat(notification.getString("status"), is("DRAFT"));
        assertThat(notification.getString("message"), is("Hello"));
        assertThat(notification.get("title"), is(JsonValue.NULL));
        assertThat(notification.get("image"), is(JsonValue.NULL));
        assertThat(notification.get("imageAlt"), is(JsonValue.NULL));
        assertThat(notification.getJsonObject("action"), is(JsonBodies.object("{\"type\":\"NO_ACTION\",\"data\":null}")));
        assertThat(notification.getString("preset"), is("default"));
        assertThat(notification.get("startDate"), is(JsonValue.NULL));
        assertThat(notification.get("endDate"), is(JsonValue.NULL));
        assertThat(notification.getString("createdAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(notification.getString("updatedAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat("a draft is not served", publicFeed(), hasSize(0));
    }

    @Test
    void everyFieldIsKeptAndAPublishedOneIsServed() {
        JsonObject created = admin.created(notificationsPath(), "{\"message\":{\"type\":\"doc\",\"content\":[]},"
                + "\"status\":\"PUBLISHED\",\"image\":\"https://cdn.example.com/a.png\",\"action\":" + LINK + ","
                + "\"preset\":\"banner\",\"startDate\":\"2026-11-22T09:00:00+01:00\",\"endDate\":\"2026-11-23T00:00:00Z\"}");
        assertThat(created.getString("message"), is("{\"type\":\"doc\",\"content\":[]}"));
        assertThat(created.getString("startDate"), is("2026-11-22T08:00:00.000Z"));
        assertThat(created.getJsonObject("action").getJsonObject("data").getString("target"), is("_self"));

        JsonObject served = publicFeed().getJsonObject(0);
        assertThat(served.getString("id"), is(created.getString("id")));
        assertThat(served.getString("message"), is("{\"type\":\"doc\",\"content\":[]}"));
        assertThat(served.getString("image"), is("https://cdn.example.com/a.png"));
        assertThat(served.getString("preset"), is("banner"));
        assertThat(served.getJsonObject("action"), is(JsonBodies.object(LINK)));
        assertThat(served.getString("endDate"), is("2026-11-23T00:00:00.000Z"));
    }

    static Stream<Arguments> refusedBodies() {
        return Stream.of(
                Arguments.of("{}", "message"),
                Arguments.of("{\"message\":\"\"}", "message"),
                Arguments.of("{\"message\":\"   \"}", "message"),
                Arguments.of("{\"message\":5}", "message"),
                Arguments.of("{\"message\":[\"a\"]}", "message"),
                Arguments.of("{\"message\":null}", "message"),
                Arguments.of("{\"message\":\"m\",\"status\":\"LIVE\"}", "status"),
                Arguments.of("{\"message\":\"m\",\"status\":\"published\"}", "status"),
                Arguments.of("{\"message\":\"m\",\"status\":null}", "status"),
                Arguments.of("{\"message\":\"m\",\"image\":\"javascript:alert(1)\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"image\":\"/relative.png\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"image\":\"ftp://example.com/a.png\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"image\":\"https://\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"image\":7}", "image"),
                Arguments.of("{\"message\":\"m\",\"action\":\"LINK\"}", "action"),
                Arguments.of("{\"message\":\"m\",\"action\":null}", "action"),
                Arguments.of("{\"message\":\"m\",\"action\":{}}", "action.type"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"OPEN\"}}", "action.type"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\"}}", "action.data"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"CLOSE\",\"data\":{\"url\":\"https://a.example\"}}}",
                             "action.data"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"javascript:alert(1)\","
                                     + "\"target\":\"_blank\"}}}", "action.data.url"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"target\":\"_blank\"}}}",
                             "action.data.url"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\","
                                     + "\"target\":\"_top\"}}}", "action.data.target"),
                Arguments.of(linkWithLabel("\"\""), "action.data.label"),
                Arguments.of(linkWithLabel("\"   \""), "action.data.label"),
                Arguments.of(linkWithLabel("\"" + "b".repeat(61) + "\""), "action.data.label"),
                Arguments.of(linkWithLabel("7"), "action.data.label"),
                Arguments.of(linkWithLabel("\"Read\\nmore\""), "action.data.label"),
                Arguments.of(linkWithLabel("\"Read\\tmore\""), "action.data.label"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"NO_ACTION\",\"data\":{\"label\":\"Go\"}}}",
                             "action.data"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"CLOSE\",\"data\":{\"label\":\"Got it\"}}}",
                             "action.data"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":null}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"big banner\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"<script>\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"../modal\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"banner.dark\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"b\u00e4nner\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"preset\":\"" + "p".repeat(65) + "\"}", "preset"),
                Arguments.of("{\"message\":\"m\",\"startDate\":\"tomorrow\"}", "startDate"),
                Arguments.of("{\"message\":\"m\",\"endDate\":\"2026-11-22T10:00:00\"}", "endDate"),
                Arguments.of("{\"message\":\"m\",\"startDate\":\"2026-11-23T00:00:00Z\",\"endDate\":\"2026-11-22T23:59:59.999Z\"}",
                             "endDate"));
    }

    @ParameterizedTest
    @MethodSource("refusedBodies")
    void badInputIsRefusedNamingTheField(String body, String field) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(body, answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(body, answer.object().getJsonObject("details").getString("field"), is(field));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    private static String linkWithLabel(String label) {
        return "{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\","
                + "\"target\":\"_blank\",\"label\":" + label + "}}}";
    }

    @Test
    void aLinksLabelIsKeptServedAndMeasuredInCharacters() {
        String label = EMOJI.repeat(59) + "!";
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"m\",\"status\":\"PUBLISHED\","
                + "\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example/\",\"target\":\"_blank\","
                + "\"label\":\"" + label + "\"}}}");
        JsonObject action = JsonBodies.object("{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example/\","
                + "\"target\":\"_blank\",\"label\":\"" + label + "\"}}");
        assertThat(created.getJsonObject("action"), is(action));
        assertThat(admin.call(Method.GET, "/notifications/" + created.getString("id")).object().getJsonObject("action"),
                   is(action));
        assertThat(publicFeed().getJsonObject(0).getJsonObject("action"), is(action));
    }

    /** A label is a member of the link: an action sent without one has none, as it has no other member it omits. */
    @Test
    void aLabelNullOrLeftOutIsNoLabelAndAnUpdatedActionWithoutOneDropsIt() {
        JsonObject created = admin.created(notificationsPath(), linkWithLabel("\"Read the notes\""));
        String path = "/notifications/" + created.getString("id");
        JsonObject unlabelled = JsonBodies.object("{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\","
                + "\"target\":\"_blank\"}}");

        assertThat(admin.call(Method.PATCH, path, "{\"action\":{\"type\":\"LINK\",\"data\":{\"url\":"
                + "\"https://a.example\",\"target\":\"_blank\"}}}").object().getJsonObject("action"), is(unlabelled));
        assertThat(admin.created(notificationsPath(), linkWithLabel("null")).getJsonObject("action"), is(unlabelled));
    }

    static Stream<Arguments> unknownFields() {
        String writable = "title, message, status, image, imageAlt, action, preset, startDate, endDate, audience,"
                + " locale, translations";
        return Stream.of(
                Arguments.of("{\"message\":\"hi\",\"stauts\":\"PUBLISHED\"}", "stauts",
                             "unknown field \"stauts\"; did you mean \"status\"?"),
                Arguments.of("{\"message\":\"hi\",\"Status\":\"PUBLISHED\"}", "Status",
                             "unknown field \"Status\"; did you mean \"status\"?"),
                Arguments.of("{\"mesage\":\"hi\"}", "mesage", "unknown field \"mesage\"; did you mean \"message\"?"),
                Arguments.of("{\"message\":\"hi\",\"start_date\":\"2026-11-23T00:00:00Z\"}", "start_date",
                             "unknown field \"start_date\"; did you mean \"startDate\"?"),
                Arguments.of("{\"message\":\"hi\",\"colour\":\"red\"}", "colour",
                             "unknown field \"colour\"; writable fields: " + writable),
                Arguments.of("{\"message\":\"hi\",\"id\":\"n1\"}", "id",
                             "field \"id\" is read-only; writable fields: " + writable),
                Arguments.of("{\"message\":\"hi\",\"updatedAt\":null}", "updatedAt",
                             "field \"updatedAt\" is read-only; writable fields: " + writable));
    }

    @ParameterizedTest
    @MethodSource("unknownFields")
    void anUnknownFieldIsRefusedOnCreate(String body, String field, String message) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.validationError(message, field, NOTIFICATION_FIELDS)));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** {@code {"stauts":"PUBLISHED"}} answered 200 and changed nothing: the sender believed it had published. */
    @ParameterizedTest
    @MethodSource("unknownFields")
    void anUnknownFieldIsRefusedOnUpdateAndChangesNothing(String body, String field, String message) {
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"m\"}");
        String path = "/notifications/" + created.getString("id");
        herald.clock().advance(Duration.ofMinutes(1));

        AdminClient.Answer answer = admin.call(Method.PATCH, path, body);
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.validationError(message, field, NOTIFICATION_FIELDS)));
        assertThat(admin.call(Method.GET, path).object(), is(created));
    }

    static Stream<Arguments> unknownActionFields() {
        return Stream.of(
                Arguments.of("{\"typ\":\"CLOSE\"}", "action.typ", "unknown field \"action.typ\"; did you mean \"action.type\"?",
                             List.of("action.type", "action.data")),
                Arguments.of("{\"type\":\"CLOSE\",\"url\":\"https://a.example\"}", "action.url",
                             "unknown field \"action.url\"; writable fields: action.type, action.data",
                             List.of("action.type", "action.data")),
                Arguments.of("{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\",\"target\":\"_self\","
                                     + "\"traget\":\"_blank\"}}", "action.data.traget",
                             "unknown field \"action.data.traget\"; did you mean \"action.data.target\"?",
                             List.of("action.data.url", "action.data.target", "action.data.label")));
    }

    @ParameterizedTest
    @MethodSource("unknownActionFields")
    void anUnknownFieldInsideAnActionIsNamedByItsPath(String action, String field, String message, List<String> allowed) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\",\"action\":" + action + "}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.validationError(message, field, allowed)));
    }

    static Stream<Arguments> fixedSets() {
        String statuses = "[\"DRAFT\",\"PUBLISHED\",\"ARCHIVED\"]";
        String types = "[\"NO_ACTION\",\"LINK\",\"CLOSE\"]";
        return Stream.of(
                Arguments.of("{\"message\":\"m\",\"status\":\"LIVE\"}", "status",
                             "status must be one of DRAFT, PUBLISHED, ARCHIVED", statuses),
                Arguments.of("{\"message\":\"m\",\"status\":null}", "status",
                             "status must be one of DRAFT, PUBLISHED, ARCHIVED", statuses),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"OPEN\"}}", "action.type",
                             "action.type must be one of NO_ACTION, LINK, CLOSE", types),
                Arguments.of("{\"message\":\"m\",\"action\":{}}", "action.type",
                             "action.type is required, one of NO_ACTION, LINK, CLOSE", types),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"https://a.example\","
                                     + "\"target\":\"_top\"}}}", "action.data.target",
                             "action.data.target must be one of _blank, _self", "[\"_blank\",\"_self\"]"));
    }

    @ParameterizedTest
    @MethodSource("fixedSets")
    void aFieldOfAFixedSetListsItsValues(String body, String field, String message, String allowed) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.object("{\"error\":\"" + message + "\",\"code\":\"VALIDATION_ERROR\","
                + "\"details\":{\"field\":\"" + field + "\",\"allowed\":" + allowed + "}}")));
    }

    @Test
    void anUnknownStatusToListByListsTheStatuses() {
        AdminClient.Answer answer = admin.call(Method.GET, notificationsPath() + "?status=LIVE");
        assertThat(answer.status(), is(400));
        assertThat(answer.body(), is("{\"error\":\"status must be one of DRAFT, PUBLISHED, ARCHIVED\","
                + "\"code\":\"VALIDATION_ERROR\",\"details\":{\"field\":\"status\","
                + "\"allowed\":[\"DRAFT\",\"PUBLISHED\",\"ARCHIVED\"]}}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"\"", "\"  \\n \""})
    void aBlankMessageIsToldItIsBlankNotTooLong(String message) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + message + "}");
        assertThat(answer.object(), is(JsonBodies.validationError("message must not be empty or blank", "message",
                                                                  List.of())));
    }

    private static final String NOTHING_TO_SHOW = "message shows nothing: no text and no image once what the content"
            + " allow-list does not keep is removed (docs/api.md#message-content)";

    /** The console's empty editor, and markup around nothing: a blank item the widget would count unread. */
    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\"}]}",
                            "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":\" \\u200b\"}]}]}",
                            "\"<p></p>\"", "\"<p> &nbsp; </p><br>\"", "\"\\u200b\"", "\"<b> </b><img src=x>\""})
    void aMessageThatShowsNothingIsRefusedAsDraftOrPublished(String message) {
        for (String status : List.of("DRAFT", "PUBLISHED")) {
            AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                                   "{\"status\":\"" + status + "\",\"message\":" + message + "}");
            assertThat(answer.body(), answer.status(), is(400));
            assertThat(answer.object().getString("error"), is(NOTHING_TO_SHOW));
            assertThat(answer.object().getJsonObject("details").getString("field"), is("message"));
        }
        String id = admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\"}").object().getString("id");
        assertThat(admin.call(Method.PATCH, "/notifications/" + id, "{\"message\":" + message + "}").status(), is(400));
    }

    /** An image alone is something to show. */
    @ParameterizedTest
    @ValueSource(strings = {"\"<p> <img src=\\\"https://a.example/i.png\\\"></p>\"",
                            "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"image\",\"attrs\":{\"src\":\"https://a.example/i.png\"}}]}]}"})
    void anImageAloneIsAMessage(String message) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"status\":\"PUBLISHED\",\"message\":" + message + "}");
        assertThat(answer.body(), answer.status(), is(201));
    }

    @Test
    void aDateOutOfRangeSaysTheRange() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":\"m\",\"startDate\":\"1969-12-31T23:59:59Z\"}");
        assertThat(answer.object(), is(JsonBodies.validationError(
                "startDate is out of range: from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z", "startDate", List.of())));
    }

    @Test
    void aLinkUrlThatIsNoStringIsNamedByItsPath() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\",\"action\":"
                + "{\"type\":\"LINK\",\"data\":{\"url\":5,\"target\":\"_self\"}}}");
        assertThat(answer.object().getString("error"), is("action.data.url must be a string"));
        assertThat(answer.object().getJsonObject("details").getString("field"), is("action.data.url"));
    }

    /** A paragraph whose one text carries a link mark to {@code href}. */
    private static String linkedText(String href) {
        return "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"Sale\",\"marks\":[{\"type\":\"bold\"},{\"type\":\"link\",\"attrs\":{\"href\":" + href
                + ",\"target\":\"_blank\"}}]}]}]}";
    }

    /** An image node with the given attribute. */
    private static String image(String attribute, String value) {
        return "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[]},"
                + "{\"type\":\"image\",\"attrs\":{\"alt\":\"a\",\"" + attribute + "\":" + value + "}}]}";
    }

    static Stream<Arguments> refusedRichText() {
        String link = "message.content[0].content[0].marks[1].attrs.href";
        return Stream.of(
                Arguments.of(linkedText("\"javascript:alert(1)\""), link),
                Arguments.of(linkedText("\"JavaScript:alert(1)\""), link),
                Arguments.of(linkedText("\" javascript:alert(1)\""), link),
                Arguments.of(linkedText("\"java\\tscript:alert(1)\""), link),
                Arguments.of(linkedText("\"vbscript:msgbox(1)\""), link),
                Arguments.of(linkedText("\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\""), link),
                Arguments.of(linkedText("\"/account/delete\""), link),
                Arguments.of(linkedText("\"//evil.example/x\""), link),
                Arguments.of(linkedText("\"mailto:sales@example.com\""), link),
                Arguments.of(linkedText("\"ftp://example.com/file\""), link),
                Arguments.of(linkedText("\"https://\""), link),
                Arguments.of(linkedText("5"), link),
                Arguments.of(linkedText("{\"url\":\"https://a.example\"}"), link),
                Arguments.of(image("src", "\"data:image/svg+xml,<svg onload=alert(1)>\""), "message.content[1].attrs.src"),
                Arguments.of(image("src", "\"img/banner.png\""), "message.content[1].attrs.src"),
                Arguments.of(image("src", "[\"https://a.example/i.png\"]"), "message.content[1].attrs.src"),
                Arguments.of("{\"type\":\"doc\",\"content\":[{\"type\":\"embed\",\"data\":{\"frame\":{\"src\":"
                                     + "\"javascript:alert(1)\"}}}]}", "message.content[0].data.frame.src"));
    }

    /**
     * Issue 29: a node or mark carries only the attributes its type defines (docs/api.md#message-content), whatever
     * their value: a handler, a style or a URL attribute given as an array was stored, and a renderer that copies
     * attrs with setAttribute makes ["alert(1)"] the handler alert(1). URL attributes by other names too.
     */
    static Stream<Arguments> attributesATypeDoesNotDefine() {
        String paragraph = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"attrs\":{\"%s\":%s},"
                + "\"content\":[{\"type\":\"text\",\"text\":\"x\",\"marks\":[{\"type\":\"bold\"}]}]}]}";
        String mark = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"x\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"https://a.example/\",\"%s\":%s}}]}]}]}";
        return Stream.of(
                Arguments.of(image("onerror", "[\"alert(document.domain)\"]"), "message.content[1].attrs.onerror"),
                Arguments.of(image("style", "[\"background:url(https://evil.example/)\"]"), "message.content[1].attrs.style"),
                Arguments.of(image("action", "[\"javascript:alert(1)\"]"), "message.content[1].attrs.action"),
                Arguments.of(image("data", "[\"javascript:alert(1)\"]"), "message.content[1].attrs.data"),
                Arguments.of(image("data", "{\"count\":3}"), "message.content[1].attrs.data"),
                Arguments.of(image("onerror", "{\"toString\":\"alert(1)\"}"), "message.content[1].attrs.onerror"),
                Arguments.of(image("onerror", "\"alert(1)\""), "message.content[1].attrs.onerror"),
                Arguments.of(image("url", "\"javascript:alert(1)\""), "message.content[1].attrs.url"),
                Arguments.of(image("SRC", "\"javascript:alert(1)\""), "message.content[1].attrs.SRC"),
                Arguments.of(image("poster", "\"javascript:alert(1)\""), "message.content[1].attrs.poster"),
                Arguments.of(image("xlink:href", "\"javascript:alert(1)\""), "message.content[1].attrs.xlink:href"),
                Arguments.of(image("formaction", "\"javascript:alert(1)\""), "message.content[1].attrs.formaction"),
                Arguments.of(image("background", "\"javascript:alert(1)\""), "message.content[1].attrs.background"),
                Arguments.of(image("srcset", "\"https://a.example/1.png 1x, https://a.example/2.png 2x\""),
                             "message.content[1].attrs.srcset"),
                Arguments.of(image("srcdoc", "\"<p>x</p>\""), "message.content[1].attrs.srcdoc"),
                Arguments.of(image("class", "\"banner\""), "message.content[1].attrs.class"),
                Arguments.of(paragraph.formatted("onclick", "[\"alert(1)\"]"), "message.content[0].attrs.onclick"),
                Arguments.of(paragraph.formatted("style", "[\"color:red\"]"), "message.content[0].attrs.style"),
                Arguments.of(paragraph.formatted("level", "2"), "message.content[0].attrs.level"),
                Arguments.of(mark.formatted("onmouseover", "[\"alert(1)\"]"),
                             "message.content[0].content[0].marks[0].attrs.onmouseover"),
                Arguments.of(mark.formatted("rel", "\"opener\""), "message.content[0].content[0].marks[0].attrs.rel"),
                Arguments.of("{\"type\":\"doc\",\"content\":[{\"type\":\"embed\",\"attrs\":{\"frame\":{\"src\":"
                                     + "\"https://a.example/\"}}}]}", "message.content[0].attrs.frame"));
    }

    @ParameterizedTest
    @MethodSource("attributesATypeDoesNotDefine")
    void aNodeOrMarkCarriesOnlyTheAttributesOfItsType(String document, String field) {
        for (String message : List.of(document, jakarta.json.Json.createValue(document).toString())) {
            AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + message + "}");
            assertThat(message, answer.status(), is(400));
            assertThat(message, answer.object().getJsonObject("details").getString("field"), is(field));
            assertThat(answer.object().getString("error"), startsWith(field + " is not"));
        }
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** Each attribute of its own kind: a level is an integer from 1 to 6, a start an integer, a title a string. */
    static Stream<Arguments> attributesOfAnotherKind() {
        String heading = "{\"type\":\"doc\",\"content\":[{\"type\":\"heading\",\"attrs\":{\"level\":%s}}]}";
        String list = "{\"type\":\"doc\",\"content\":[{\"type\":\"orderedList\",\"attrs\":{\"start\":%s},"
                + "\"content\":[{\"type\":\"listItem\",\"content\":[{\"type\":\"paragraph\"}]}]}]}";
        return Stream.of(
                Arguments.of(heading.formatted("\"2\""), "message.content[0].attrs.level", "an integer from 1 to 6"),
                Arguments.of(heading.formatted("7"), "message.content[0].attrs.level", "an integer from 1 to 6"),
                Arguments.of(heading.formatted("2.5"), "message.content[0].attrs.level", "an integer from 1 to 6"),
                Arguments.of(heading.formatted("[2]"), "message.content[0].attrs.level", "an integer from 1 to 6"),
                Arguments.of(list.formatted("\"3\""), "message.content[0].attrs.start", "an integer of at most 9 digits"),
                Arguments.of(list.formatted("1e10"), "message.content[0].attrs.start", "an integer of at most 9 digits"),
                Arguments.of("{\"type\":\"doc\",\"content\":[{\"type\":\"codeBlock\",\"attrs\":{\"language\":[\"js\"]}}]}",
                             "message.content[0].attrs.language", "a string"),
                Arguments.of(image("title", "{\"x\":1}"), "message.content[1].attrs.title", "a string"));
    }

    @ParameterizedTest
    @MethodSource("attributesOfAnotherKind")
    void anAttributeIsOfItsOwnKind(String document, String field, String kind) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + document + "}");
        assertThat(document, answer.status(), is(400));
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
        assertThat(answer.object().getString("error"), is(field + " must be " + kind));
    }

    /**
     * What the console's editor writes (its schema: heading level, ordered list start, image src, link href and
     * target), the ProseMirror basic schema's spellings (ordered_list order, image alt and title, link title), a
     * code block's language, nulls for attributes not set, and a type Herald does not know without attributes.
     */
    @Test
    void everyAttributeADocumentTypeDefinesIsAccepted() {
        String document = """
                {"type":"doc","content":[
                 {"type":"heading","attrs":{"level":1},"content":[{"type":"text","text":"T"}]},
                 {"type":"heading","attrs":{"level":6}},
                 {"type":"paragraph","attrs":{},"content":[{"type":"text","text":"go","marks":[{"type":"bold"},
                  {"type":"link","attrs":{"href":"https://a.example/","target":"_blank","title":null}}]},
                  {"type":"text","text":"on","marks":[{"type":"link","attrs":{"href":"https://a.example/","target":null}}]},
                  {"type":"image","attrs":{"src":"https://a.example/i.png"}},{"type":"hardBreak"},
                  {"type":"image","attrs":{"src":"https://a.example/j.png","alt":"j","title":null}}]},
                 {"type":"orderedList","attrs":{"start":1},"content":[{"type":"listItem","content":[{"type":"paragraph"}]}]},
                 {"type":"ordered_list","attrs":{"order":-3},"content":[{"type":"list_item","content":[{"type":"paragraph"}]}]},
                 {"type":"codeBlock","attrs":{"language":null},"content":[{"type":"text","text":"x < y"}]},
                 {"type":"code_block","attrs":{"language":"js"}},{"type":"horizontalRule"},
                 {"type":"blockquote","content":[{"type":"paragraph"}]},{"type":"bulletList","attrs":null},
                 {"type":"mention","id":"u1","content":[{"type":"text","text":"@ann","marks":[{"type":"highlight"}]}]}]}""";
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"status\":\"PUBLISHED\","
                + "\"message\":" + document + "}");
        assertThat(answer.body(), answer.status(), is(201));
        assertThat(JsonBodies.object(publicFeed().getJsonObject(0).getString("message")), is(JsonBodies.object(document)));
    }

    /** An iframe's {@code srcdoc} is a document of HTML, not a URL: refused whatever it holds. */
    @Test
    void anAttributeHoldingHtmlIsRefused() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":"
                + image("srcdoc", "\"<script>alert(1)</script>\"") + "}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getJsonObject("details").getString("field"), is("message.content[1].attrs.srcdoc"));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** Outside attrs, HTML's URL attribute names hold a node's own data as well: an object there is walked, not refused. */
    @Test
    void anObjectUnderAnUrlAttributeNameIsWalkedAsDataOutsideAttrs() {
        String node = "{\"type\":\"doc\",\"content\":[{\"type\":\"chart\",\"data\":%s}]}";
        AdminClient.Answer kept = admin.call(Method.POST, notificationsPath(), "{\"message\":"
                + node.formatted("{\"count\":3,\"labels\":[\"a\",\"b\"]}") + "}");
        assertThat(kept.body(), kept.status(), is(201));
        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(), "{\"message\":"
                + node.formatted("{\"link\":{\"href\":\"javascript:alert(1)\"}}") + "}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("message.content[0].data.link.href"));
    }

    /**
     * A string that looks like a document but that this server cannot parse (a browser's JSON.parse can: a number
     * of 1,200 digits) would carry its links past the URL rule unchecked: it is refused.
     */
    @Test
    void aStringThatLooksLikeADocumentMustParse() {
        String hidden = "{\"type\":\"doc\",\"n\":" + "1".repeat(1_200) + ",\"content\":[{\"type\":\"text\","
                + "\"text\":\"x\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":\"javascript:alert(1)\"}}]}]}";
        assertStringMessageRefused(hidden);
    }

    /** {@code message} sent as this string is refused as a whole, and nothing is stored. */
    private void assertStringMessageRefused(String message) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":" + jakarta.json.Json.createValue(message) + "}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getJsonObject("details").getString("field"), is("message"));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /**
     * A string message is stored as sent: with a name twice, a client that keeps the first would read a link the
     * check (which, as Parsson, keeps the last) never saw.
     */
    @Test
    void aStringDocumentWithANameTwiceIsRefused() {
        String hidden = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"marks\":[{\"type\":\"link\","
                + "\"attrs\":{\"href\":\"javascript:alert(1)\",\"href\":\"https://example.com/\"}}]}]}";
        assertStringMessageRefused(hidden);
    }

    /**
     * JSON.parse refuses a byte order mark or a no-break space around a document; a client that trims the string
     * first (JavaScript's trim removes both) would read the link.
     */
    @ParameterizedTest
    @ValueSource(strings = {"\uFEFF |", "\uFEFF\uFEFF|", "\u00A0|", "|\u00A0", "|\uFEFF", "\u2028|\u3000"})
    void aStringDocumentBetweenWhatJavaScriptTrimsIsCheckedToo(String around) {
        assertHiddenDocumentRefused(around);
    }

    /**
     * What more lenient parsers skip or ignore around a document (Gson lenient: comments, a value after the first;
     * Java's strip(), Kotlin's trim(): control characters; zero-width characters): each was stored unchecked, with
     * the javascript: link inside, while such a parser read the document.
     */
    @ParameterizedTest
    @ValueSource(strings = {"/**/|", "\u200b|", "|x", "|\n//", "|;", "|\u2060", "[|]", "// comment\n|",
                            "/* a */ \u200b /* b */|/* c */", "[ \n|, 1]", "\t\r\n|"})
    void aStringDocumentAmongWhatLenientParsersSkipIsCheckedOrRefused(String around) {
        assertHiddenDocumentRefused(around);
    }

    /**
     * Control characters before or after a document (Java's strip() and Kotlin's trim() skip them) were checked as
     * the document's surroundings; they are refused now before anything else, so such a document is never stored:
     * the answer names the control character, not the link.
     */
    @ParameterizedTest
    @ValueSource(strings = {"\u001c|", "\u0000|", "\u0085|", "|\u001f", "\r|", "\u007f|"})
    void aStringDocumentBehindControlCharactersIsRefusedForThem(String around) {
        assertHiddenDocumentRefused(around);
        String document = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}";
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":"
                + jakarta.json.Json.createValue(around.replace("|", document)) + "}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getString("error"), startsWith("message holds a control character, U+"));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /**
     * Every string a notification body carries, at any depth: a control character other than a tab, a line feed or
     * a carriage return before a line feed is refused, naming its field by its path; nothing is stored.
     */
    @ParameterizedTest
    @MethodSource("controlCharacters")
    void controlCharactersAreRefusedInEveryFieldNamingIt(String body, String field, String error) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(body, answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(answer.object().getJsonObject("details").getString("field"), is(field));
        assertThat(answer.object().getString("error"), is(error));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    static Stream<Arguments> controlCharacters() {
        return Stream.of(
                refused("{\"message\":\"" + "\\u0001".repeat(32_000) + "\"}", "message", "U+0001 at character 1"),
                refused("{\"message\":\"Line one\\rLine two\"}", "message", "U+000D at character 9"),
                refused("{\"message\":\"\uD83D\uDE00 Sale\\u0007\"}", "message", "U+0007 at character 7"),
                refused("{\"message\":{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":"
                                + "\"text\",\"text\":\"Hi\\u001b[2J\"}]}]}}", "message.content[0].content[0].text",
                        "U+001B at character 3"),
                Arguments.of("{\"message\":{\"type\":\"doc\",\"\\u0000\":1}}", "message",
                             "message has a member whose name holds a control character" + ALLOWED_CONTROLS),
                refused("{\"message\":\"x\",\"image\":\"https://example.com/a\\u0000.png\"}", "image",
                        "U+0000 at character 22"),
                refused("{\"message\":\"x\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":"
                                + "\"https://example.com/\\u0085\",\"target\":\"_blank\"}}}", "action.data.url",
                        "U+0085 at character 21"),
                refused("{\"message\":\"x\",\"preset\":\"dark\\u007f\"}", "preset", "U+007F at character 5"));
    }

    private static final String ALLOWED_CONTROLS = ": tab, line feed, and carriage return before a line feed are the"
            + " only ones allowed";

    private static Arguments refused(String body, String field, String where) {
        return Arguments.of(body, field, field + " holds a control character, " + where + ALLOWED_CONTROLS);
    }

    /** Tabs, line feeds and Windows line breaks (CR LF, as pasted text and HTML forms send them) are text. */
    @Test
    void tabsLineFeedsAndWindowsLineBreaksAreStoredAsSent() {
        String text = "Title\tdraft\r\nFirst line\nSecond line\r\n";
        JsonObject created = admin.created(notificationsPath(), "{\"message\":" + jakarta.json.Json.createValue(text)
                + "}");
        assertThat(created.getString("message"), is(text));
        assertThat(admin.call(Method.GET, "/notifications/" + created.getString("id")).object().getString("message"),
                   is(text));
    }

    /**
     * Rows stored before control characters were refused (or written past the API) are still read, listed, served
     * (a document behind them with its link null, as any stored document) and changed by a body that does not carry
     * their message; only a new message is held to the rule.
     */
    @Test
    void rowsStoredWithControlCharactersAreStillReadServedAndChanged() {
        dev.herald.project.Project project = new dev.herald.project.Project(projectId, "p", START.toEpochMilli());
        String text = "\u0001".repeat(1_000) + "Bell\u0007";
        String hidden = "\u001c{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"marks\":[{\"type\":"
                + "\"link\",\"attrs\":{\"href\":\"javascript:alert(1)\"}}]}]}";
        String plain = herald.notification(project).message(text).createdAt(START.minusSeconds(2)).save().id();
        String document = herald.notification(project).message(hidden).createdAt(START.minusSeconds(1)).save().id();

        assertThat(admin.call(Method.GET, "/notifications/" + plain).object().getString("message"), is(text));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(2));
        JsonArray feed = publicFeed();
        assertThat(feed.getJsonObject(1).getString("message"), is(text));
        assertThat(feed.getJsonObject(0).getString("message"), is("{\"type\":\"doc\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"x\",\"marks\":[{\"type\":\"link\",\"attrs\":{\"href\":null}}]}]}"));

        AdminClient.Answer archived = admin.call(Method.PATCH, "/notifications/" + plain, "{\"status\":\"ARCHIVED\"}");
        assertThat(archived.body(), archived.status(), is(200));
        assertThat(archived.object().getString("message"), is(text));
        assertThat(admin.call(Method.PATCH, "/notifications/" + document, "{\"message\":"
                + jakarta.json.Json.createValue(hidden) + "}").status(), is(400));
        assertThat(admin.call(Method.DELETE, "/notifications/" + document).status(), is(204));
    }

    /** Text that only contains brackets, braces or comments stays text. */
    @ParameterizedTest
    @ValueSource(strings = {"[Beta] Dark mode is here", "/* launch */ Our new plan", "Use {name} in templates",
                            "// not code", "[] empty brackets", "\u200b[1] first"})
    void textWithBracketsOrCommentsStaysText(String text) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":" + jakarta.json.Json.createValue(text) + "}");
        assertThat(answer.body(), answer.status(), is(201));
        assertThat(answer.object().getString("message"), is(text));
    }

    /** Text that begins with a brace is taken for a document by lenient parsers: it must be one, or it is refused. */
    @Test
    void textThatBeginsWithABraceMustBeADocument() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":\"{not a document\"}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getString("error"), is("message starts with { but is not one JSON document and"
                + " nothing else that this server can read: send a valid rich-text document, or text that does not"
                + " start with {"));
    }

    /**
     * A valid document after what lenient parsers skip is a document, stored when its links pass, and stored alone:
     * JSON.parse reads it as the document it is, and the answer says what went around it.
     */
    @Test
    void aValidDocumentAmongWhatLenientParsersSkipIsStoredAlone() {
        String document = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}";
        String message = "\u200b/* intro */" + document + "\n// end";
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":" + jakarta.json.Json.createValue(message) + "}");
        assertThat(answer.body(), answer.status(), is(201));
        assertThat(answer.object().getString("message"), is(document));
        assertThat(answer.object().getJsonArray("removed"), is(JsonBodies.array(
                "[{\"field\":\"message\",\"reason\":\"OUTSIDE_DOCUMENT\",\"at\":\"\"}]")));
        String spaced = admin.created(notificationsPath(), "{\"message\":" + jakarta.json.Json.createValue(
                "\n  " + document + "\n") + "}").toString();
        assertThat("white space alone is no removal", JsonBodies.object(spaced).containsKey("removed"), is(false));
    }

    /**
     * Issue 22's payloads in one HTML message: stored, answered, read back and served without what could run or make
     * a strict page report, the text kept, and each removal named with where it was, as an editor needs it.
     */
    @Test
    void anHtmlMessageIsStoredInTheAllowListsFormAndTheAnswerSaysWhatWent() {
        String html = "<p onclick=\"alert(1)\" style=\"color:red\">Hello <a href=\" JaVaScRiPt:alert(1)\">world</a></p>"
                + "<img src=\"x\" onerror=\"alert(1)\"><script>alert(1)</script><svg onload=\"alert(1)\"></svg>"
                + "<iframe srcdoc=\"<script>alert(1)</script>\"></iframe><math><mi xlink:href=\"javascript:alert(1)\">m"
                + "</mi></math><img src=\"data:image/svg+xml,<svg onload=alert(1)>\"><form action=\"https://evil.example/\">"
                + "<input name=q>Send</form><p>Read <a href=\"https://example.com/notes\">the notes</a> &amp; more.</p>";
        String canonical = "<p>Hello world</p>Send<p>Read <a href=\"https://example.com/notes\">the notes</a> &amp; more.</p>";
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"status\":\"PUBLISHED\",\"message\":"
                + jakarta.json.Json.createValue(html) + "}");
        assertThat(answer.body(), answer.status(), is(201));
        assertThat(answer.object().getString("message"), is(canonical));
        assertThat(answer.object().getJsonArray("removed"), is(JsonBodies.array("""
                [{"field":"message","reason":"ATTRIBUTE_NOT_ALLOWED","element":"p","attribute":"onclick","at":"p[1]","value":"alert(1)"},
                 {"field":"message","reason":"ATTRIBUTE_NOT_ALLOWED","element":"p","attribute":"style","at":"p[1]","value":"color:red"},
                 {"field":"message","reason":"URL_NOT_ALLOWED","element":"a","attribute":"href","at":"p[1]/a[1]","value":" JaVaScRiPt:alert(1)"},
                 {"field":"message","reason":"URL_NOT_ALLOWED","element":"img","attribute":"src","at":"img[1]","value":"x"},
                 {"field":"message","reason":"ATTRIBUTE_NOT_ALLOWED","element":"img","attribute":"onerror","at":"img[1]","value":"alert(1)"},
                 {"field":"message","reason":"ELEMENT_REMOVED","element":"script","at":"script[1]"},
                 {"field":"message","reason":"ELEMENT_REMOVED","element":"svg","at":"svg[1]"},
                 {"field":"message","reason":"ELEMENT_REMOVED","element":"iframe","at":"iframe[1]"},
                 {"field":"message","reason":"ELEMENT_REMOVED","element":"math","at":"math[1]"},
                 {"field":"message","reason":"URL_NOT_ALLOWED","element":"img","attribute":"src","at":"img[2]","value":"data:image/svg+xml,<svg onload=alert(1)>"},
                 {"field":"message","reason":"ELEMENT_NOT_ALLOWED","element":"form","at":"form[1]"},
                 {"field":"message","reason":"ELEMENT_REMOVED","element":"input","at":"form[1]/input[1]"}]""")));
        String path = "/notifications/" + answer.object().getString("id");
        JsonObject read = admin.call(Method.GET, path).object();
        assertThat(read.getString("message"), is(canonical));
        assertThat("only a write's answer says what went", read.containsKey("removed"), is(false));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is(canonical));

        AdminClient.Answer update = admin.call(Method.PATCH, path, "{\"message\":\"<b style=\\\"x\\\">Bold</b> again\"}");
        assertThat(update.object().getString("message"), is("<b>Bold</b> again"));
        assertThat(update.object().getJsonArray("removed").getJsonObject(0).getString("attribute"), is("style"));
        AdminClient.Answer unrelated = admin.call(Method.PATCH, path, "{\"preset\":\"banner\"}");
        assertThat(unrelated.object().containsKey("removed"), is(false));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is("<b>Bold</b> again"));
    }

    /** Closing every element can make HTML longer than it was sent: the stored form is held to the limit too, and says so. */
    @Test
    void htmlLongerOnceInFormThanTheLimitIsRefusedSayingWhy() {
        String html = "<p>x".repeat(8000);
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":\"" + html + "\"}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getString("error"), is("message is too long once in the content allow-list's form"
                + " (every element closed, every attribute quoted): 64,000 bytes in UTF-8, more than the 32,768 allowed"
                + " (limits.message-bytes)"));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** Nothing the allow-list keeps: refused as empty, not stored as nothing. */
    @Test
    void anHtmlMessageWithNothingTheAllowListKeepsIsRefused() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":\"<script>alert(1)</script><img src=x onerror=alert(1)>\"}");
        assertThat(answer.status(), is(400));
        assertThat(answer.object().getString("error"), is("message is empty once what the content allow-list does not"
                + " keep is removed (docs/api.md#message-content)"));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** In a document's attrs, which renderers copy onto elements, a handler or a style is script or CSS, not content. */
    @ParameterizedTest
    @ValueSource(strings = {"onclick", "ONMOUSEOVER", "onerror", "style"})
    void aHandlerOrAStyleInADocumentsAttrsIsRefused(String attribute) {
        String document = "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"attrs\":{\"" + attribute
                + "\":\"alert(1)\"},\"content\":[{\"type\":\"text\",\"text\":\"x\"}]}]}";
        for (String message : List.of(document, jakarta.json.Json.createValue(document).toString())) {
            AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + message + "}");
            assertThat(message, answer.status(), is(400));
            assertThat(answer.object().getJsonObject("details").getString("field"),
                       is("message.content[0].attrs." + attribute));
        }
        assertThat("outside attrs such names are data", admin.call(Method.POST, notificationsPath(),
                "{\"message\":{\"type\":\"doc\",\"content\":[{\"type\":\"mention\",\"online\":\"yes\",\"style\":"
                        + "\"compact\"}]}}").status(), is(201));
        AdminClient.Answer unknown = admin.call(Method.POST, notificationsPath(), "{\"message\":{\"type\":\"doc\","
                + "\"content\":[{\"type\":\"mention\",\"attrs\":{\"online\":true}}]}}");
        assertThat(unknown.object().getString("error"), is("message.content[0].attrs.online is not allowed: mention is"
                + " no node type Herald knows and carries no attributes (docs/api.md#message-content)"));
    }

    private void assertHiddenDocumentRefused(String around) {
        String document = "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"x\",\"marks\":[{\"type\":"
                + "\"link\",\"attrs\":{\"href\":\"javascript:alert(1)\"}}]}]}";
        String hidden = around.replace("|", document);
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":" + jakarta.json.Json.createValue(hidden) + "}");
        assertThat(answer.body(), answer.status(), is(400));
        // Checked as a document, the link is named; refused as a whole, the message.
        assertThat(answer.object().getJsonObject("details").getString("field"),
                   anyOf(is("message"), is("message.content[0].marks[0].attrs.href")));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    @ParameterizedTest
    @MethodSource("refusedRichText")
    void everyUrlInARichTextMessageMustBeAbsoluteHttp(String document, String field) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + document + "}");
        assertThat(document, answer.status(), is(400));
        assertThat(answer.object().getString("code"), is("VALIDATION_ERROR"));
        assertThat(document, answer.object().getJsonObject("details").getString("field"), is(field));
        assertThat(answer.object().getString("error"), is(field + " must be an absolute http or https URL"));

        // The same document sent as its serialization, as clients receive it, is refused the same way.
        String serialized = JsonBodies.object(document).toString();
        AdminClient.Answer asString = admin.call(Method.POST, notificationsPath(),
                                                 "{\"message\":" + jakarta.json.Json.createValue(serialized) + "}");
        assertThat(serialized, asString.status(), is(400));
        assertThat(asString.object().getJsonObject("details").getString("field"), is(field));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    /** Over 2,048 characters, a URL is told it is too long: whether it is a URL is another question. */
    static Stream<Arguments> tooLongUrls() {
        String url = "https://example.com/" + "x".repeat(2029);
        return Stream.of(
                Arguments.of("{\"message\":\"m\",\"image\":\"" + url + "\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"image\":\"javascript:" + "x".repeat(2038) + "\"}", "image"),
                Arguments.of("{\"message\":\"m\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"" + url
                                     + "\",\"target\":\"_blank\"}}}", "action.data.url"),
                Arguments.of("{\"message\":" + linkedText("\"" + url + "\"") + "}",
                             "message.content[0].content[0].marks[1].attrs.href"));
    }

    @ParameterizedTest
    @MethodSource("tooLongUrls")
    void aUrlOverTheLimitIsRefusedAsTooLong(String body, String field) {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), body);
        assertThat(answer.status(), is(400));
        assertThat(answer.object(), is(JsonBodies.object("{\"error\":\"" + field + " is too long: 2,049 characters, more"
                + " than the 2,048 allowed\",\"code\":\"VALIDATION_ERROR\",\"details\":{\"field\":\"" + field + "\"}}")));
        assertThat(admin.call(Method.GET, notificationsPath()).array(), hasSize(0));
    }

    @Test
    void aValueThatIsNoUrlIsToldSo() {
        AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(),
                                               "{\"message\":\"m\",\"image\":\"cdn.example.com/a.png\"}");
        assertThat(answer.status(), is(400));
        assertThat(answer.body(), is("{\"error\":\"image must be an absolute http or https URL\","
                + "\"code\":\"VALIDATION_ERROR\",\"details\":{\"field\":\"image\"}}"));
    }

    /** 2,048 characters as the writer counts them (code points), though 4,056 UTF-16 units; one more is too long. */
    @Test
    void aUrlIsMeasuredInCharacters() {
        String url = "https://example.com/" + EMOJI.repeat(2028);
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"m\",\"image\":\"" + url + "\","
                + "\"action\":{\"type\":\"LINK\",\"data\":{\"url\":\"" + url + "\",\"target\":\"_blank\"}}}");
        JsonObject stored = admin.call(Method.GET, "/notifications/" + created.getString("id")).object();
        assertThat(stored.getString("image"), is(url));
        assertThat(stored.getJsonObject("action").getJsonObject("data").getString("url"), is(url));

        AdminClient.Answer refused = admin.call(Method.POST, notificationsPath(),
                                                "{\"message\":\"m\",\"image\":\"" + url + EMOJI + "\"}");
        assertThat(refused.object().getString("error"), is("image is too long: 2,049 characters, more than the 2,048 allowed"));
    }

    @Test
    void anUpdateWithAnUnsafeRichTextUrlChangesNothing() {
        JsonObject created = admin.created(notificationsPath(),
                                           "{\"message\":" + linkedText("\"https://example.com/sale\"") + "}");
        String path = "/notifications/" + created.getString("id");
        herald.clock().advance(Duration.ofMinutes(1));

        AdminClient.Answer refused = admin.call(Method.PATCH, path,
                                                "{\"message\":" + linkedText("\"javascript:alert(1)\"") + "}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"),
                   is("message.content[0].content[0].marks[1].attrs.href"));
        AdminClient.Answer serialized = admin.call(Method.PATCH, path, "{\"message\":"
                + jakarta.json.Json.createValue(linkedText("\"data:text/html,x\"")) + "}");
        assertThat(serialized.status(), is(400));
        assertThat(admin.call(Method.GET, path).object(), is(created));
    }

    @Test
    void richTextWithHttpLinksImagesAndPlainTextIsAccepted() {
        for (String message : List.of(
                linkedText("\"https://example.com/sale?c=1#top\""),
                linkedText("\"HTTP://EXAMPLE.COM/\""),
                linkedText("null"),
                image("src", "\"https://cdn.example.com/banner.png\""),
                "{\"type\":\"doc\",\"content\":[{\"type\":\"text\",\"text\":\"javascript:alert(1) is only text here\"}]}",
                "\"Plain text with javascript:alert(1) in it\"",
                "\"not a {document\"")) {
            AdminClient.Answer answer = admin.call(Method.POST, notificationsPath(), "{\"message\":" + message + "}");
            assertThat(message, answer.status(), is(201));
        }
    }

    @Test
    void presetsOfLettersDigitsDashAndUnderscoreAreAccepted() {
        for (String preset : List.of("Banner_2-dark", "x", "p".repeat(64))) {
            JsonObject created = admin.created(notificationsPath(), "{\"message\":\"m\",\"preset\":\"" + preset + "\"}");
            assertThat(created.getString("preset"), is(preset));
        }
    }

    @Test
    void anEndEqualToTheStartIsAccepted() {
        assertThat(admin.call(Method.POST, notificationsPath(), "{\"message\":\"m\",\"startDate\":\"2026-11-23T00:00:00Z\","
                + "\"endDate\":\"2026-11-23T00:00:00Z\"}").status(), is(201));
    }

    @Test
    void listsAreNewestFirstAndFilterByStatus() {
        String first = admin.created(notificationsPath(), "{\"message\":\"1\",\"status\":\"PUBLISHED\"}").getString("id");
        herald.clock().advance(Duration.ofSeconds(1));
        String second = admin.created(notificationsPath(), "{\"message\":\"2\"}").getString("id");
        herald.clock().advance(Duration.ofSeconds(1));
        String third = admin.created(notificationsPath(), "{\"message\":\"3\",\"status\":\"PUBLISHED\"}").getString("id");

        assertThat(ids(admin.call(Method.GET, notificationsPath()).array()), is(List.of(third, second, first)));
        assertThat(ids(admin.call(Method.GET, notificationsPath() + "?status=PUBLISHED").array()),
                   is(List.of(third, first)));
        assertThat(ids(admin.call(Method.GET, notificationsPath() + "?status=ARCHIVED").array()), is(List.of()));
        AdminClient.Answer bad = admin.call(Method.GET, notificationsPath() + "?status=LIVE");
        assertThat(bad.status(), is(400));
        assertThat(bad.object().getJsonObject("details").getString("field"), is("status"));
    }

    @Test
    void anUpdateChangesOnlyWhatItNamesAndMovesUpdatedAt() {
        JsonObject created = admin.created(notificationsPath(), "{\"message\":\"m\",\"image\":\"https://a.example/i.png\","
                + "\"startDate\":\"2026-11-22T09:00:00Z\",\"action\":" + LINK + "}");
        String path = "/notifications/" + created.getString("id");
        herald.clock().advance(Duration.ofMinutes(3));

        AdminClient.Answer patched = admin.call(Method.PATCH, path, "{\"preset\":\"modal\",\"image\":null}");
        assertThat(patched.status(), is(200));
        JsonObject updated = patched.object();
        assertThat(updated.getString("preset"), is("modal"));
        assertThat(updated.get("image"), is(JsonValue.NULL));
        assertThat(updated.getString("message"), is("m"));
        assertThat(updated.getString("startDate"), is("2026-11-22T09:00:00.000Z"));
        assertThat(updated.getJsonObject("action"), is(JsonBodies.object(LINK)));
        assertThat(updated.getString("createdAt"), is("2026-11-22T10:00:00.000Z"));
        assertThat(updated.getString("updatedAt"), is("2026-11-22T10:03:00.000Z"));
        assertThat(admin.call(Method.GET, path).object(), is(updated));

        AdminClient.Answer refused = admin.call(Method.PATCH, path, "{\"endDate\":\"2026-11-22T08:00:00Z\"}");
        assertThat(refused.status(), is(400));
        assertThat(refused.object().getJsonObject("details").getString("field"), is("endDate"));
    }

    @Test
    void publishingAndUnpublishingShowInThePublicApiAtOnce() {
        String path = "/notifications/" + admin.created(notificationsPath(), "{\"message\":\"m\"}").getString("id");
        assertThat(publicFeed(), hasSize(0));
        admin.call(Method.PATCH, path, "{\"status\":\"PUBLISHED\"}");
        assertThat(publicFeed(), hasSize(1));
        admin.call(Method.PATCH, path, "{\"status\":\"ARCHIVED\"}");
        assertThat(publicFeed(), hasSize(0));
    }

    @Test
    void aDeletedNotificationIsGoneButItsInteractionsStay() throws SQLException {
        String id = admin.created(notificationsPath(), "{\"message\":\"m\",\"status\":\"PUBLISHED\"}").getString("id");
        try (Http1ClientResponse response = http.post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json").submit("{\"type\":\"click\"}")) {
            assertThat(response.status(), is(Status.NO_CONTENT_204));
        }
        assertThat(admin.call(Method.DELETE, "/notifications/" + id).status(), is(204));

        assertThat(admin.call(Method.GET, "/notifications/" + id).status(), is(404));
        assertThat(admin.call(Method.DELETE, "/notifications/" + id).status(), is(404));
        assertThat(publicFeed(), hasSize(0));
        try (Http1ClientResponse response = http.post("/api/v1/public/track/" + id)
                .header(HeaderNames.CONTENT_TYPE, "application/json").submit("{\"type\":\"click\"}")) {
            assertThat(response.status(), is(Status.NOT_FOUND_404));
        }
        assertThat(herald.interactions(id), hasSize(1));
    }

    @Test
    void unknownNotificationsAndProjectsAreNotFound() {
        assertThat(admin.call(Method.GET, "/notifications/nope").body(),
                   is("{\"error\":\"Notification not found\",\"code\":\"NOT_FOUND\"}"));
        assertThat(admin.call(Method.PATCH, "/notifications/nope", "{}").status(), is(404));
        assertThat(admin.call(Method.POST, "/projects/nope/notifications", "{\"message\":\"m\"}").status(), is(404));
        assertThat(admin.call(Method.GET, "/projects/nope/notifications").status(), is(404));
    }

    @Test
    void aClientRevalidatingItsCachedFeedSeesAPublishAtOnce() {
        String path = "/notifications/" + admin.created(notificationsPath(), "{\"message\":\"m\"}").getString("id");
        String cachedTag;
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            cachedTag = response.headers().first(HeaderNames.ETAG).orElseThrow();
            assertThat(response.headers().first(HeaderNames.CACHE_CONTROL).orElseThrow(), is("no-cache"));
        }
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.IF_NONE_MATCH, cachedTag).request()) {
            assertThat(response.status(), is(Status.NOT_MODIFIED_304));
        }
        admin.call(Method.PATCH, path, "{\"status\":\"PUBLISHED\"}");
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications")
                .header(HeaderNames.IF_NONE_MATCH, cachedTag).request()) {
            assertThat(response.status(), is(Status.OK_200));
            assertThat(JsonBodies.array(response.as(String.class)), hasSize(1));
        }
    }

    /**
     * Issue 30: a draft of changes to a published notification is kept apart: its feed and its GET serve it as it is
     * until a PATCH applies the changes, which deletes the draft in the same write.
     */
    @Test
    void aDraftOfChangesIsInNoFeedUntilAPatchAppliesItAndDeletesIt() {
        String id = admin.created(notificationsPath(), "{\"message\":\"Old words\",\"status\":\"PUBLISHED\"}")
                .getString("id");
        String path = "/notifications/" + id;
        assertThat(admin.call(Method.GET, path + "/draft").status(), is(404));

        AdminClient.Answer saved = admin.call(Method.PUT, path + "/draft",
                "{\"message\":\"New <b onclick=\\\"steal()\\\">words</b>\",\"preset\":\"banner\"}");
        assertThat(saved.body(), saved.status(), is(200));
        JsonObject changes = saved.object().getJsonObject("changes");
        assertThat("in the allow-list's form, as a PATCH stores it", changes.getString("message"),
                   is("New <b>words</b>"));
        assertThat(saved.object().getString("notificationId"), is(id));
        assertThat(admin.call(Method.GET, path + "/draft").object(), is(saved.object()));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is("Old words"));
        assertThat(publicFeed().getJsonObject(0).getString("preset"), is("default"));
        assertThat(admin.call(Method.GET, path).object().getString("message"), is("Old words"));
        JsonObject listed = admin.call(Method.GET, notificationsPath()).array().getJsonObject(0);
        assertThat("the list says a draft of changes is pending, by whom and when",
                   listed.getJsonObject("draftOfChanges"), is(Json.createObjectBuilder()
                           .add("updatedAt", saved.object().getString("updatedAt"))
                           .add("updatedBy", saved.object().getString("updatedBy")).build()));
        assertThat(admin.call(Method.GET, notificationsPath() + "?state=live").array().getJsonObject(0)
                           .getJsonObject("draftOfChanges"), is(listed.getJsonObject("draftOfChanges")));

        AdminClient.Answer published = admin.call(Method.PATCH, path, changes.toString());
        assertThat(published.status(), is(200));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is("New <b>words</b>"));
        assertThat(publicFeed().getJsonObject(0).getString("preset"), is("banner"));
        assertThat(published.object().getString("status"), is("PUBLISHED"));
        assertThat("applied, it is no longer pending", admin.call(Method.GET, path + "/draft").status(), is(404));
        assertThat(admin.call(Method.GET, notificationsPath()).array().getJsonObject(0).containsKey("draftOfChanges"),
                   is(false));
        List<String> actions = admin.call(Method.GET, "/audit?targetId=" + id).array().stream()
                .map(line -> line.asJsonObject().getString("action")).toList();
        assertThat(actions, is(List.of("notification.updated", "notification.draft-saved", "notification.created")));
    }

    @Test
    void aDiscardedDraftLeavesTheNotificationAsItWas() {
        String path = "/notifications/" + admin.created(notificationsPath(),
                "{\"message\":\"Old words\",\"status\":\"PUBLISHED\"}").getString("id");
        assertThat(admin.call(Method.DELETE, path + "/draft").status(), is(404));
        admin.call(Method.PUT, path + "/draft", "{\"message\":\"First try\"}");
        assertThat(admin.call(Method.PUT, path + "/draft", "{\"message\":\"Second try\"}").object()
                           .getJsonObject("changes").getString("message"), is("Second try"));
        assertThat(admin.call(Method.DELETE, path + "/draft").status(), is(204));
        assertThat(admin.call(Method.GET, path + "/draft").status(), is(404));
        assertThat(publicFeed().getJsonObject(0).getString("message"), is("Old words"));
        assertThat(admin.call(Method.POST, path + "/draft", "{}").status(), is(405));
        assertThat(admin.call(Method.PUT, "/notifications/nope/draft", "{\"message\":\"m\"}").status(), is(404));

        admin.call(Method.PUT, path + "/draft", "{\"message\":\"Third try\"}");
        assertThat(admin.call(Method.DELETE, path).status(), is(204));
        assertThat(admin.call(Method.GET, path + "/draft").status(), is(404));
    }

    static Stream<Arguments> refusedDrafts() {
        return Stream.concat(refusedBodies().filter(arguments -> !arguments.get()[0].equals("{}")),
                             Stream.of(Arguments.of("{\"message\":\"a\\u0007b\"}", "message"),
                                       Arguments.of("{\"status\":\"PUBLISHED\"}", "status"),
                                       Arguments.of("{\"endDate\":\"2026-11-01T00:00:00Z\"}", "endDate")));
    }

    /** A draft is checked as a PATCH body is, against the notification as stored; its status only a PATCH sets. */
    @ParameterizedTest
    @MethodSource("refusedDrafts")
    void aDraftIsRefusedAsAnUpdateIsNamingTheField(String body, String field) {
        String path = "/notifications/" + admin.created(notificationsPath(),
                "{\"message\":\"m\",\"status\":\"PUBLISHED\",\"startDate\":\"2026-11-02T00:00:00Z\"}").getString("id");
        AdminClient.Answer answer = admin.call(Method.PUT, path + "/draft", body);
        assertThat(body, answer.status(), is(400));
        assertThat(body, answer.object().getJsonObject("details").getString("field"), is(field));
        assertThat(admin.call(Method.GET, path + "/draft").status(), is(404));
    }

    @Test
    void otherMethodsAre405() {
        assertThat(admin.call(Method.PUT, "/notifications/x", "{}").status(), is(405));
    }

    private String notificationsPath() {
        return "/projects/" + projectId + "/notifications";
    }

    private JsonArray publicFeed() {
        try (Http1ClientResponse response = http.get("/api/v1/public/" + key + "/notifications").request()) {
            assertThat(response.status(), is(Status.OK_200));
            return JsonBodies.array(response.as(String.class));
        }
    }

    private static List<String> ids(JsonArray array) {
        return array.stream().map(JsonValue::asJsonObject).map(item -> item.getString("id")).toList();
    }
}
