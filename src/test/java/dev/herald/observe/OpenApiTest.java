package dev.herald.observe;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonSchemaCheck;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;
import dev.herald.support.UserTokenMint;
import dev.herald.wire.RequestBodies;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import io.helidon.webserver.testing.junit5.Socket;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * The OpenAPI document served at {@code /openapi} against the service itself: a walk through every documented
 * operation, each answer's status documented for its route and method, and each JSON body valid against the
 * documented schema. The walk must use every documented operation, and the document must describe every route.
 */
@ServerTest
class OpenApiTest extends HeraldServerTest {

    private static final int RATE_LIMIT = 60;
    /** Room for the walk's notifications, not for one of this size more. */
    private static final int FEED_BYTES = 4096;
    /** alice's token is "alice-token-0123456789abcdef0123456789abcdef". */
    private static final String ALICE_TOKEN_SHA256 = Tokens.sha256("alice-token-0123456789abcdef0123456789abcdef");

    private static final String OLIVE_TOKEN = "olive-token-0123456789abcdef0123456789abcdef";

    private final Http1Client client;
    private final Http1Client observe;
    private final URI uri;
    private final List<Exchange> exchanges = new ArrayList<>();

    OpenApiTest(Http1Client client, @Socket(ObserveSettings.SOCKET) Http1Client observe, URI uri) {
        this.client = client;
        this.observe = observe;
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN,
                                                      "admin.accounts.0.name", "alice",
                                                      "admin.accounts.0.role", "editor",
                                                      "admin.accounts.0.token-sha256", ALICE_TOKEN_SHA256,
                                                      "admin.accounts.1.name", "olive",
                                                      "admin.accounts.1.role", "owner",
                                                      "admin.accounts.1.token-sha256", Tokens.sha256(OLIVE_TOKEN),
                                                      "rate-limit.requests", String.valueOf(RATE_LIMIT),
                                                      "limits.feed-bytes", String.valueOf(FEED_BYTES)));
    }

    @Test
    void everyAnswerOfTheServiceIsDocumented() {
        JsonObject document = parse(send("GET", "/openapi", null, null, false).body()).asJsonObject();
        walkThroughEveryRoute();

        List<String> problems = new ArrayList<>();
        JsonSchemaCheck check = new JsonSchemaCheck(document);
        for (Exchange exchange : exchanges) {
            problems.addAll(problems(document, check, exchange));
        }
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    @Test
    void theWalkUsesEveryDocumentedOperation() {
        JsonObject document = parse(send("GET", "/openapi", null, null, false).body()).asJsonObject();
        walkThroughEveryRoute();
        Set<String> documented = new TreeSet<>();
        document.getJsonObject("paths").forEach((path, operations) -> operations.asJsonObject().keySet()
                .forEach(method -> documented.add(method.toUpperCase(Locale.ROOT) + " " + path)));
        Set<String> used = new TreeSet<>();
        exchanges.stream()
                .filter(exchange -> exchange.status() != 405)   // a method the route does not have
                .forEach(exchange -> used.add(exchange.method() + " " + RouteNames.of(exchange.path())));
        assertThat(used, is(documented));
    }

    @Test
    void theDocumentDescribesEveryRouteThatMetricsName() {
        JsonObject document = parse(send("GET", "/openapi", null, null, false).body()).asJsonObject();
        assertThat(new TreeSet<>(document.getJsonObject("paths").keySet()), is(new TreeSet<>(RouteNames.templates())));
    }

    private void walkThroughEveryRoute() {
        String project = id(send("POST", "/api/v1/admin/projects", "{\"name\":\"Shop\"}", "application/json", true), "id");
        send("POST", "/api/v1/admin/projects", "{}", "application/json", true);
        send("POST", "/api/v1/admin/projects", "{\"nmae\":\"Shop\"}", "application/json", true);
        send("POST", "/api/v1/admin/projects", "{\"name\":\"Shop\"}", "text/plain", true);
        send("GET", "/api/v1/admin/projects", null, null, true);
        send("GET", "/api/v1/admin/projects", null, null, false);
        send("PUT", "/api/v1/admin/projects", "{}", "application/json", true);
        send("POST", "/api/v1/admin/projects", "name=Shop", "application/x-www-form-urlencoded", true);
        assertThat(announcingTooLargeABody("/api/v1/admin/projects").status(), is(413));
        send("GET", "/api/v1/admin/projects/" + project, null, null, true);
        send("GET", "/api/v1/admin/projects/nope", null, null, true);
        send("PATCH", "/api/v1/admin/projects/" + project, "{\"name\":\"Web shop\"}", "application/json", true);
        send("PATCH", "/api/v1/admin/projects/" + project, "{\"name\":\" \"}", "application/json", true);
        send("PATCH", "/api/v1/admin/projects/nope", "{\"name\":\"X\"}", "application/json", true);

        send("POST", "/api/v1/admin/session", "{\"name\":\"alice\",\"token\":"
                + "\"alice-token-0123456789abcdef0123456789abcdef\"}", "application/json", false);
        send("POST", "/api/v1/admin/session", "{\"name\":\"alice\",\"token\":\"wrong\"}", "application/json", false);
        send("POST", "/api/v1/admin/session", "{\"name\":\"alice\"", "application/json", false);
        send("GET", "/api/v1/admin/session", null, null, true);
        send("DELETE", "/api/v1/admin/session", null, null, true);
        send("GET", "/api/v1/admin/sessions", null, null, true);
        send("GET", "/api/v1/admin/sessions?account=no%20such", null, null, true);
        send("DELETE", "/api/v1/admin/sessions?account=alice", null, null, true);
        send("DELETE", "/api/v1/admin/sessions", null, null, true);
        send("PUT", "/api/v1/admin/sessions", "{}", "application/json", true);
        send("DELETE", "/api/v1/admin/sessions/" + "0".repeat(64), null, null, true);
        send("GET", "/api/v1/admin/audit?projectId=" + project + "&limit=2", null, null, true);
        send("GET", "/api/v1/admin/audit?projectId=" + project + "&targetId=" + project, null, null, true);

        walkThroughTheTeam();
        // An in-memory H2 database: 409; the 201 is BackupH2Test's, on a file.
        sendAsOwner("POST", "/api/v1/admin/backups", null);
        send("POST", "/api/v1/admin/backups", null, null, true);
        sendAsOwner("GET", "/api/v1/admin/backups", null);

        String keys = "/api/v1/admin/projects/" + project + "/api-keys";
        String key = id(send("POST", keys, "{\"orderBy\":\"startDate_asc\"}", "application/json", true), "key");
        send("POST", keys, "{\"key\":\"" + key + "\"}", "application/json", true);
        send("POST", keys, "{\"showPast\":\"yes\"}", "application/json", true);
        String revoked = id(send("POST", keys, "{}", "application/json", true), "key");
        send("GET", keys, null, null, true);
        send("PATCH", "/api/v1/admin/api-keys/" + key, "{\"showPast\":true,\"showFuture\":true}", "application/json", true);
        send("DELETE", "/api/v1/admin/api-keys/" + revoked, null, null, true);
        send("DELETE", "/api/v1/admin/api-keys/" + revoked + "x", null, null, true);

        String tokenKeys = "/api/v1/admin/projects/" + project + "/token-keys";
        String kid = id(send("POST", tokenKeys, "{\"algorithm\":\"HS256\"}", "application/json", true), "kid");
        send("POST", tokenKeys, "{\"algorithm\":\"ES256\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\","
                + "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}}", "application/json", true);
        send("POST", tokenKeys, "{\"algorithm\":\"EdDSA\",\"publicKey\":{\"kty\":\"OKP\",\"crv\":\"Ed25519\","
                + "\"x\":\"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo\"}}", "application/json", true);
        send("GET", tokenKeys, null, null, true);
        send("GET", "/api/v1/admin/projects/nope/token-keys", null, null, true);
        send("DELETE", "/api/v1/admin/token-keys/" + kid, null, null, true);
        send("DELETE", "/api/v1/admin/token-keys/nope", null, null, true);

        String notifications = "/api/v1/admin/projects/" + project + "/notifications";
        String linked = id(send("POST", notifications, "{\"message\":\"Hello\",\"status\":\"PUBLISHED\","
                + "\"image\":\"https://cdn.example.com/a.png\",\"action\":{\"type\":\"LINK\",\"data\":{\"url\":"
                + "\"https://example.com\",\"target\":\"_blank\"}},\"startDate\":\"2026-11-01T00:00:00Z\"}",
                "application/json", true), "id");
        String rich = id(send("POST", notifications, "{\"message\":{\"type\":\"doc\",\"content\":[{\"type\":\"text\","
                + "\"text\":\"Hi\"}]},"
                + "\"status\":\"PUBLISHED\",\"action\":{\"type\":\"CLOSE\",\"data\":null}}", "application/json", true), "id");
        send("POST", notifications, "{\"message\":\"x\",\"image\":\"javascript:alert(1)\"}", "application/json", true);
        String tooLarge = "{\"message\":\"" + "x".repeat(FEED_BYTES) + "\",\"status\":\"PUBLISHED\"}";
        assertThat(send("POST", notifications, tooLarge, "application/json", true).status(), is(409));
        send("GET", notifications, null, null, true);
        send("GET", notifications + "?status=PUBLISHED", null, null, true);
        send("GET", notifications + "?status=GONE", null, null, true);
        send("GET", notifications + "?state=ended&limit=1", null, null, true);
        send("POST", notifications + "/archive?state=ended", null, null, true);
        send("POST", notifications + "/archive?state=live", null, null, true);
        send("GET", "/api/v1/admin/notifications/" + linked, null, null, true);
        send("GET", "/api/v1/admin/notifications/nope", null, null, true);
        send("PATCH", "/api/v1/admin/notifications/" + linked, "{\"preset\":\"banner\",\"endDate\":null}",
             "application/json", true);
        send("PATCH", "/api/v1/admin/notifications/" + linked, "{\"endDate\":\"2020-01-01T00:00:00Z\"}",
             "application/json", true);
        assertThat(send("PATCH", "/api/v1/admin/notifications/" + linked, tooLarge, "application/json", true).status(),
                   is(409));
        String draft = "/api/v1/admin/notifications/" + linked + "/draft";
        send("GET", draft, null, null, true);
        send("PUT", draft, "{\"message\":\"Hello <b>again</b>\",\"preset\":\"banner\"}", "application/json", true);
        send("PUT", draft, "{\"status\":\"ARCHIVED\"}", "application/json", true);
        send("PUT", "/api/v1/admin/notifications/nope/draft", "{}", "application/json", true);
        send("GET", draft, null, null, true);
        send("DELETE", draft, null, null, true);
        send("DELETE", draft, null, null, true);
        String lifecycle = "/api/v1/admin/notifications/" + linked;
        send("GET", lifecycle + "/versions?limit=1", null, null, true);
        send("GET", lifecycle + "/versions?limit=0", null, null, true);
        send("GET", "/api/v1/admin/notifications/nope/versions", null, null, true);
        send("GET", lifecycle + "/versions/1", null, null, true);
        send("GET", lifecycle + "/versions/99", null, null, true);
        send("POST", lifecycle + "/versions/1/restore", null, null, true);
        send("POST", lifecycle + "/versions/99/restore", null, null, true);
        String copy = id(send("POST", lifecycle + "/duplicate", null, null, true), "id");
        send("POST", "/api/v1/admin/notifications/nope/duplicate", null, null, true);
        send("PATCH", "/api/v1/admin/notifications/" + copy, "{\"audience\":{\"all\":[{\"attribute\":\"plan\","
             + "\"operator\":\"in\",\"value\":[\"pro\",\"team\"]},{\"rollout\":50}]}}", "application/json", true);
        send("PATCH", "/api/v1/admin/notifications/" + copy, "{\"audience\":{\"any\":[{\"rollout\":101}]}}",
             "application/json", true);
        String check = "/api/v1/admin/notifications/" + copy + "/audience-check";
        send("POST", check, "{\"claims\":{\"sub\":\"u1\",\"attrs\":{\"plan\":\"pro\"}}}", "application/json", true);
        send("POST", check, "{\"claims\":{\"attrs\":{}}}", "application/json", true);
        send("POST", "/api/v1/admin/notifications/nope/audience-check", "{\"claims\":{\"sub\":\"u\"}}",
             "application/json", true);
        send("GET", check, null, null, true);
        send("PATCH", "/api/v1/admin/notifications/" + copy, "{\"audience\":null}", "application/json", true);
        send("POST", "/api/v1/admin/notifications/" + copy + "/versions/1/restore", null, null, true);
        send("POST", "/api/v1/admin/notifications/" + copy + "/unpublish", null, null, true);
        send("POST", "/api/v1/admin/notifications/nope/unpublish", null, null, true);
        send("PATCH", "/api/v1/admin/notifications/" + copy, "{\"title\":\"Copy\",\"status\":\"PUBLISHED\"}",
             "application/json", true);
        send("POST", "/api/v1/admin/notifications/" + copy + "/unpublish", null, null, true);
        walkThroughTranslations(project, copy);

        String feed = "/api/v1/public/" + key + "/notifications";
        Exchange first = send("GET", feed, null, null, false);
        exchanges.add(sendWithHeader("GET", feed, "If-None-Match", first.etag()));
        send("GET", "/api/v1/public/" + revoked + "/notifications", null, null, false);
        send("GET", "/api/v1/public/short/notifications", null, null, false);
        exchanges.add(sendWithHeader("GET", feed, "Authorization", "Bearer not-a-token"));
        send("GET", "/api/v1/public/notifications", null, null, false);
        send("DELETE", feed, null, null, false);

        String track = "/api/v1/public/track/" + linked;
        send("POST", track, "{\"type\":\"impression\"}", "application/json", false);
        send("POST", track, "{\"type\":\"click\"}", "text/plain", false);
        send("POST", track, "{\"type\":\"click\",\"locale\":\"fr-CA\"}", "application/json", false);
        send("POST", track + "/enhanced", "{\"type\":\"conversion\",\"locale\":42}", "application/json", false);
        send("POST", track, "{\"type\":\"conversion\"}", "application/json", false);
        send("POST", track, "<type>click</type>", "application/xml", false);
        send("POST", track, "{\"type\":\"click\",\"pad\":\"" + "x".repeat(70_000) + "\"}", "application/json", false);
        send("POST", "/api/v1/public/track/nope", "{\"type\":\"click\"}", "application/json", false);
        String unknownKid = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"HS256\",\"kid\":\"unknown\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8)) + ".e30.AAAA";
        exchanges.add(exchange("POST", track, request("POST", track).header(HeaderNames.CONTENT_TYPE, "application/json")
                .header(HeaderNames.AUTHORIZATION, "Bearer " + unknownKid).submit("{\"type\":\"click\"}")));
        send("GET", track, null, null, false);
        send("POST", track + "/enhanced", "{\"type\":\"conversion\",\"timestamp\":\"2026-11-22T09:00:00Z\","
                + "\"metadata\":{\"sdk\":\"web\"}}", "application/json", false);
        send("POST", track + "/enhanced", "{\"type\":\"dismiss\"}", "application/json", false);
        send("POST", track + "/enhanced", "{\"kind\":\"click\"}", "application/json", false);

        walkThroughUserState(project, key, revoked, linked);
        walkThroughWebhooks(project);

        send("GET", "/api/v1/admin/notifications/" + linked + "/stats", null, null, true);
        send("GET", "/api/v1/admin/notifications/" + linked + "/stats?from=2026-11-22&to=2026-11-22", null, null, true);
        send("GET", "/api/v1/admin/notifications/" + linked + "/stats?from=yesterday", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/stats", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/stats?locale=en", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/interactions", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/interactions?format=csv", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/interactions?limit=0", null, null, true);
        send("GET", "/api/v1/admin/projects/nope/export/interactions", null, null, true);
        send("DELETE", "/api/v1/admin/projects/" + project + "/export/interactions", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/user-states", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/user-states?format=csv", null, null, true);
        send("GET", "/api/v1/admin/projects/" + project + "/export/user-states?limit=0", null, null, true);
        send("GET", "/api/v1/admin/projects/nope/export/user-states", null, null, true);
        send("DELETE", "/api/v1/admin/projects/" + project + "/export/user-states", null, null, true);
        send("GET", "/api/v1/admin/notifications/" + linked + "/stats?locale=pt-br", null, null, true);
        send("GET", "/api/v1/admin/notifications/" + linked + "/stats?locale=pt_BR", null, null, true);
        send("DELETE", "/api/v1/admin/notifications/" + rich, null, null, true);

        send("GET", "/observe/health", null, null, false);
        send("GET", "/observe/health/live", null, null, false);
        send("GET", "/observe/health/ready", null, null, false);
        send("GET", "/observe/metrics", null, null, false);
        send("GET", "/openapi", null, null, false);
        send("POST", "/observe/metrics", "", "text/plain", false);

        Exchange answer;
        int sent = 0;
        do {
            answer = send("GET", feed, null, null, false);
        } while (answer.status() != 429 && ++sent <= RATE_LIMIT);
        // Missing tokens until this client is blocked (10 by default), then the management API's 429.
        sent = 0;
        do {
            answer = send("GET", "/api/v1/admin/projects", null, null, false);
        } while (answer.status() != 429 && ++sent <= 10);
        send("GET", "/api/v1/admin/projects/" + project, null, null, true);
        // Past both windows, for the next walk.
        herald.clock().advance(java.time.Duration.ofSeconds(61));
    }

    /** Issue 32: a project's languages, a notification's, and its translation routes. */
    private void walkThroughTranslations(String project, String notification) {
        String path = "/api/v1/admin/projects/" + project;
        send("PATCH", path, "{\"defaultLocale\":\"en\",\"requiredLocales\":[\"fr\"]}", "application/json", true);
        send("PATCH", path, "{\"defaultLocale\":\"en_US\"}", "application/json", true);
        String translations = "/api/v1/admin/notifications/" + notification + "/translations";
        send("GET", translations, null, null, true);
        send("GET", "/api/v1/admin/notifications/nope/translations", null, null, true);
        send("POST", translations, "{}", "application/json", true);
        send("PUT", translations + "/FR", "{\"message\":\"Bonjour<script>x</script>\"}", "application/json", true);
        send("PUT", translations + "/fr", "{\"message\":\"Bonjour\",\"title\":\"Salut\"}", "application/json", true);
        send("PUT", translations + "/en_US", "{\"message\":\"Hi\"}", "application/json", true);
        send("PUT", "/api/v1/admin/notifications/nope/translations/fr", "{\"message\":\"m\"}", "application/json", true);
        send("PATCH", translations + "/fr", "{\"image\":\"https://cdn.example.com/fr.png\"}", "application/json", true);
        send("PATCH", translations + "/de", "{\"title\":\"T\"}", "application/json", true);
        send("PATCH", "/api/v1/admin/notifications/" + notification, "{\"locale\":\"en-GB\",\"translations\":"
             + "{\"fr\":{\"message\":\"Bonjour\"},\"de\":{\"message\":null}}}", "application/json", true);
        send("PATCH", "/api/v1/admin/notifications/" + notification, "{\"status\":\"PUBLISHED\"}", "application/json", true);
        send("DELETE", translations + "/de", null, null, true);
        send("DELETE", translations + "/de", null, null, true);
        send("PATCH", path, "{\"defaultLocale\":\"fr\",\"requiredLocales\":[]}", "application/json", true);
        send("GET", translations, null, null, true);
    }

    /** The per-user state routes, with a user token of the project's HS256 key, and the erasure of its user. */
    private void walkThroughUserState(String project, String key, String revoked, String notification) {
        String token = UserTokenMint.create(new AdminClient(client), project).token("walker", herald.clock().instant());
        String state = "/api/v1/public/" + key + "/users/me/state";
        String readAll = "/api/v1/public/" + key + "/users/me/read-all";
        Exchange first = sendAsUser("GET", state, token, null, null);
        exchanges.add(exchange("GET", state, request("GET", state).header(HeaderNames.AUTHORIZATION, "Bearer " + token)
                .header(HeaderNames.IF_NONE_MATCH, first.etag()).request()));
        sendAsUser("GET", state, null, null, null);
        sendAsUser("GET", "/api/v1/public/" + revoked + "/users/me/state", token, null, null);
        sendAsUser("POST", state, token, "{\"notificationId\":\"" + notification + "\",\"state\":\"read\"}",
                   "application/json");
        sendAsUser("POST", state, token, "{\"events\":[{\"notificationId\":\"" + notification
                + "\",\"state\":\"dismissed\"}]}", "application/json");
        sendAsUser("POST", state, token, "{\"events\":[{\"state\":\"seen\"}]}", "application/json");
        sendAsUser("POST", state, token, "{\"state\":\"seen\"}", "text/plain");
        sendAsUser("POST", state, token, "{\"pad\":\"" + "x".repeat(70_000) + "\"}", "application/json");
        sendAsUser("DELETE", state, token, null, null);
        sendAsUser("POST", readAll, token, "{\"ids\":[\"" + notification + "\"]}", "application/json");
        sendAsUser("POST", readAll, token, "{\"ids\":\"all\"}", "application/json");
        sendAsUser("POST", readAll, null, "{\"ids\":[]}", "application/json");
        send("DELETE", "/api/v1/admin/projects/" + project + "/users/walker", null, null, true);
        send("DELETE", "/api/v1/admin/projects/nope/users/walker", null, null, true);
        send("DELETE", "/api/v1/admin/projects/" + project + "/users/" + "x".repeat(257), null, null, true);
        String erase = "/api/v1/admin/projects/" + project + "/users/erase";
        send("POST", erase, "{\"sub\":\"tenant/walker\"}", "application/json", true);
        send("POST", erase, "{\"sub\":\"\"}", "application/json", true);
        send("POST", "/api/v1/admin/projects/nope/users/erase", "{\"sub\":\"a\"}", "application/json", true);
        send("POST", erase, "{\"sub\":\"" + "x".repeat(3000) + "\"}", "application/json", true);
        send("POST", erase, "{\"sub\":\"a\"}", "text/plain", true);
    }

    /** Issue 35: a project's webhook endpoints, their secret's rotation, deliveries and replay. */
    private void walkThroughWebhooks(String project) {
        String list = "/api/v1/admin/projects/" + project + "/webhooks";
        String endpoint = "/api/v1/admin/webhooks/" + id(send("POST", list, "{\"url\":\"https://hooks.example/in\","
                + "\"eventTypes\":[\"notification.created\"],\"description\":\"Slack\"}", "application/json", true),
                "id");
        send("POST", list, "{\"url\":\"ftp://hooks.example/in\",\"eventTypes\":[\"notification.created\"]}",
             "application/json", true);
        send("POST", "/api/v1/admin/projects/nope/webhooks", "{}", "application/json", true);
        send("GET", list, null, null, true);
        send("GET", list + "?limit=0", null, null, true);
        send("PUT", list, "{}", "application/json", true);
        send("GET", endpoint, null, null, true);
        send("GET", "/api/v1/admin/webhooks/nope", null, null, true);
        send("PATCH", endpoint, "{\"enabled\":false}", "application/json", true);
        send("PATCH", endpoint, "{\"eventTypes\":[\"notification.sent\"]}", "application/json", true);
        send("POST", endpoint + "/rotate-secret", null, null, true);
        send("POST", "/api/v1/admin/webhooks/nope/rotate-secret", null, null, true);
        send("GET", endpoint + "/deliveries", null, null, true);
        send("GET", endpoint + "/deliveries?limit=abc", null, null, true);
        send("POST", endpoint + "/deliveries/msg_none/replay", null, null, true);
        send("POST", endpoint + "/replay", "{\"since\":\"2026-01-01T00:00:00Z\"}", "application/json", true);
        send("POST", endpoint + "/replay", "{\"since\":\"yesterday\"}", "application/json", true);
        send("DELETE", endpoint, null, null, true);
        send("DELETE", endpoint, null, null, true);
    }

    /** @param token a user token, or null for none */
    private Exchange sendAsUser(String method, String path, String token, String body, String contentType) {
        Http1ClientRequest request = request(method, path);
        if (token != null) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + token);
        }
        if (contentType != null) {
            request.header(HeaderNames.CONTENT_TYPE, contentType);
        }
        Exchange exchange = exchange(method, path, body == null ? request.request() : request.submit(body));
        exchanges.add(exchange);
        return exchange;
    }

    /** As olive, an owner: a new account each walk, as the walk runs once per test. */
    private void walkThroughTheTeam() {
        String name = "bob-" + java.util.UUID.randomUUID().toString().substring(0, 8);
        String account = "/api/v1/admin/accounts/" + name;
        send("GET", "/api/v1/admin/accounts", null, null, true);
        sendAsOwner("GET", "/api/v1/admin/accounts", null);
        String secret = parse(sendAsOwner("POST", "/api/v1/admin/accounts", "{\"name\":\"" + name
                + "\",\"role\":\"editor\"}").body()).asJsonObject().getJsonObject("invite").getString("secret");
        sendAsOwner("POST", "/api/v1/admin/accounts", "{\"name\":\"" + name + "\",\"role\":\"editor\"}");
        sendAsOwner("POST", "/api/v1/admin/accounts", "{\"name\":\"x\",\"role\":\"admin\"}");
        sendAsOwner("PUT", "/api/v1/admin/accounts", "{}");
        sendAsOwner("GET", account, null);
        sendAsOwner("GET", "/api/v1/admin/accounts/nobody", null);
        send("POST", "/api/v1/admin/invites/accept", "{\"secret\":\"" + secret + "\"}", "application/json", false);
        send("POST", "/api/v1/admin/invites/accept", "{\"secret\":\"" + secret + "\"}", "application/json", false);
        send("POST", "/api/v1/admin/invites/accept", "{}", "application/json", false);
        sendAsOwner("PATCH", account, "{\"role\":\"viewer\"}");
        sendAsOwner("PATCH", account, "{\"disabled\":\"yes\"}");
        sendAsOwner("PATCH", "/api/v1/admin/accounts/nobody", "{\"disabled\":true}");
        sendAsOwner("PATCH", "/api/v1/admin/accounts/alice", "{\"role\":\"viewer\"}");
        sendAsOwner("POST", account + "/reset", null);
        sendAsOwner("POST", "/api/v1/admin/accounts/nobody/reset", null);
    }

    private Exchange sendAsOwner(String method, String path, String body) {
        Http1ClientRequest request = request(method, path).header(HeaderNames.AUTHORIZATION, "Bearer " + OLIVE_TOKEN);
        if (body != null) {
            request.header(HeaderNames.CONTENT_TYPE, "application/json");
        }
        Exchange exchange = exchange(method, path, body == null ? request.request() : request.submit(body));
        exchanges.add(exchange);
        return exchange;
    }

    private List<String> problems(JsonObject document, JsonSchemaCheck check, Exchange exchange) {
        String route = RouteNames.of(exchange.path());
        String where = exchange.method() + " " + exchange.path() + " -> " + exchange.status();
        JsonObject operations = document.getJsonObject("paths").getJsonObject(route);
        JsonObject operation = operations == null ? null : operations.getJsonObject(exchange.method().toLowerCase(Locale.ROOT));
        if (operation == null) {
            // 405 answers a method the route does not have: the error shape is the surface's, checked elsewhere.
            return exchange.status() == 405 ? List.of() : List.of(where + ": no such operation documented");
        }
        JsonObject response = operation.getJsonObject("responses").getJsonObject(String.valueOf(exchange.status()));
        if (response == null) {
            return List.of(where + ": status not documented");
        }
        if (!response.containsKey("content")) {
            return exchange.body().isEmpty() ? List.of() : List.of(where + ": documented without a body, sent " + exchange.body());
        }
        String mediaType = exchange.contentType().split(";")[0].strip();
        JsonObject content = response.getJsonObject("content").getJsonObject(mediaType);
        if (content == null) {
            return List.of(where + ": " + mediaType + " not documented");
        }
        if (!mediaType.equals("application/json")) {
            return List.of();
        }
        return check.problems(parse(exchange.body()), content.getJsonObject("schema")).stream()
                .map(problem -> where + ": " + problem)
                .toList();
    }

    private Exchange send(String method, String path, String body, String contentType, boolean admin) {
        Http1ClientRequest request = request(method, path);
        if (admin) {
            request.header(HeaderNames.AUTHORIZATION, "Bearer " + AdminClient.TOKEN);
        }
        if (contentType != null) {
            request.header(HeaderNames.CONTENT_TYPE, contentType);
        }
        Exchange exchange = exchange(method, path, body == null ? request.request() : request.submit(body));
        exchanges.add(exchange);
        return exchange;
    }

    /**
     * A management body announced one byte over the bound: refused before it is read, so only the head is sent
     * (a client writing the whole megabyte would meet a closed connection).
     */
    private Exchange announcingTooLargeABody(String path) {
        String head = "POST " + path + " HTTP/1.1\r\nHost: herald\r\nAuthorization: Bearer " + AdminClient.TOKEN
                + "\r\nContent-Type: application/json\r\nContent-Length: " + (RequestBodies.MAX_ADMIN_BYTES + 1);
        try {
            RawHttp.Response answer = RawHttp.exchange(uri, head);
            Exchange exchange = new Exchange("POST", path, answer.status(),
                                             answer.headers().getOrDefault("content-type", ""), "", answer.body());
            exchanges.add(exchange);
            return exchange;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Exchange sendWithHeader(String method, String path, String header, String value) {
        return exchange(method, path, request(method, path).header(HeaderNames.create(header), value).request());
    }

    /** Health, metrics and this document are on the operations listener; the API on the public one. */
    private Http1ClientRequest request(String method, String path) {
        boolean operations = path.startsWith("/observe/") || path.equals("/openapi");
        return AdminClient.request(operations ? observe : client, Method.create(method), path);
    }

    private static Exchange exchange(String method, String path, Http1ClientResponse response) {
        try (response) {
            int query = path.indexOf('?');
            return new Exchange(method, query < 0 ? path : path.substring(0, query), response.status().code(),
                                response.headers().first(HeaderNames.CONTENT_TYPE).orElse(""),
                                response.headers().first(HeaderNames.ETAG).orElse(""),
                                response.entity().hasEntity() ? response.as(String.class) : "");
        }
    }

    private static String id(Exchange exchange, String field) {
        return parse(exchange.body()).asJsonObject().getString(field);
    }

    private static JsonValue parse(String json) {
        try (var reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }

    private record Exchange(String method, String path, int status, String contentType, String etag, String body) {
    }
}
