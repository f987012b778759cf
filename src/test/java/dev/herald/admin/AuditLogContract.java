package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.account.Accounts;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static dev.herald.account.Accounts.ALICE_TOKEN;
import static dev.herald.account.Accounts.VICTOR_TOKEN;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * docs/api.md#audit-log: every management write leaves one line, written with it, naming who, what, when and the
 * change; a refused write leaves none; viewers read it, newest first, by project or by resource, a page at a time.
 */
abstract class AuditLogContract extends HeraldServerTest {

    private static final Pattern NEXT = Pattern.compile("</api/v1/admin(/[^>]*)>; rel=\"next\"");

    private final Http1Client http;
    private final AdminClient admin;

    AuditLogContract(Http1Client http) {
        this.http = http;
        this.admin = new AdminClient(http);
    }

    static void start(TestDatabase database, WebServerConfig.Builder server) {
        startServer(database, server, Accounts.settings());
    }

    @Test
    void everyWriteOfAProjectLeavesOneLineWithWhoWhatWhenAndTheChange() {
        String project = alice(Method.POST, "/projects", "{\"name\":\"Shop\"}").object().getString("id");
        tick();
        alice(Method.PATCH, "/projects/" + project, "{\"name\":\"Web shop\"}");
        tick();
        String key = alice(Method.POST, "/projects/" + project + "/api-keys", "{}").object().getString("key");
        tick();
        alice(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}");
        tick();
        alice(Method.DELETE, "/api-keys/" + key, null);
        tick();
        String notification = alice(Method.POST, "/projects/" + project + "/notifications",
                                    "{\"message\":\"Hello\"}").object().getString("id");
        tick();
        alice(Method.PATCH, "/notifications/" + notification, "{\"status\":\"PUBLISHED\"}");
        tick();
        alice(Method.PATCH, "/notifications/" + notification, "{\"message\":\"Hello again\"}");
        tick();
        assertThat("refused: no line", alice(Method.PATCH, "/notifications/" + notification,
                                             "{\"status\":\"LIVE\"}").status(), is(400));
        alice(Method.PATCH, "/notifications/" + notification, "{\"status\":\"ARCHIVED\"}");
        tick();
        alice(Method.DELETE, "/notifications/" + notification, null);
        tick();
        admin.call(Method.PATCH, "/projects/" + project, "{\"name\":\"Shop\"}");

        List<JsonObject> lines = read("/audit?projectId=" + project, VICTOR_TOKEN);

        assertThat(lines.stream().map(line -> line.getString("action")).toList(), contains(
                "project.renamed", "notification.deleted", "notification.archived", "notification.updated",
                "notification.published", "notification.created", "api-key.revoked", "api-key.updated",
                "api-key.created", "project.renamed", "project.created"));
        assertThat("the admin token, named by its digest", lines.getFirst().getString("actor"),
                   is("token:" + Accounts.sha256(AdminClient.TOKEN).substring(0, 8)));
        assertThat(lines.subList(1, lines.size()).stream().map(line -> line.getString("actor")).distinct().toList(),
                   contains("alice"));
        JsonObject renamed = lines.get(9);
        assertThat(renamed.getString("projectId"), is(project));
        assertThat("named by its name as it is now", renamed.getJsonObject("target"),
                   is(object("{\"type\":\"project\",\"id\":\"" + project + "\",\"label\":\"Shop\"}")));
        assertThat(renamed.getString("projectName"), is("Shop"));
        assertThat(renamed.getJsonObject("details"), is(object("{\"name\":{\"from\":\"Shop\",\"to\":\"Web shop\"}}")));
        assertThat(renamed.getString("occurredAt"), is("2026-11-22T10:00:01.000Z"));
        assertThat(lines.get(7).getJsonObject("details"), is(object("{\"showPast\":{\"from\":false,\"to\":true}}")));
        assertThat(lines.get(3).getJsonObject("details"), is(object("{\"message\":{\"from\":\"Hello\",\"to\":"
                + "\"Hello again\",\"diff\":[{\"type\":\"same\",\"text\":\"Hello\"},{\"type\":\"added\",\"text\":\" again\"}]}}")));
        assertThat("a deleted notification has no label", lines.get(3).getJsonObject("target").containsKey("label"),
                   is(false));
        assertThat(lines.get(4).getJsonObject("details").getJsonObject("status"),
                   is(object("{\"from\":\"DRAFT\",\"to\":\"PUBLISHED\"}")));
        assertThat("what was deleted", lines.get(1).getJsonObject("details").getString("message"), is("Hello again"));
        assertThat(lines.get(5).getJsonObject("details").getString("status"), is("DRAFT"));

        List<JsonObject> ofNotification = read("/audit?targetId=" + notification, VICTOR_TOKEN);
        assertThat(ofNotification.stream().map(line -> line.getString("action")).toList(), contains(
                "notification.deleted", "notification.archived", "notification.updated", "notification.published",
                "notification.created"));
    }

    /**
     * Writes of one resource at once, through the HTTP server: the audit log tells what happened, one line per change,
     * each with the state its write replaced, read in the write's own transaction. Ten DELETEs of one notification
     * delete it once (one 204, nine 404, one line); ten PATCHes form one chain of from and to; a PATCH that loses to a
     * DELETE is 404 and leaves no line after the deletion.
     */
    @Test
    void concurrentWritesOfOneResourceLeaveOneLinePerChangeThatHappened() throws Exception {
        String project = alice(Method.POST, "/projects", "{\"name\":\"Race\"}").object().getString("id");

        String deleted = notification(project, "once");
        List<Integer> deletes = atOnce(10, i -> alice(Method.DELETE, "/notifications/" + deleted, null).status());
        assertThat(deletes.stream().filter(status -> status == 204).count(), is(1L));
        assertThat(deletes.stream().filter(status -> status == 404).count(), is(9L));
        assertThat(actions("/audit?targetId=" + deleted), contains("notification.deleted", "notification.created"));

        String patched = notification(project, "v0");
        List<Integer> patches = atOnce(10, i -> alice(Method.PATCH, "/notifications/" + patched,
                                                      "{\"message\":\"v" + (i + 1) + "\"}").status());
        assertThat(patches.stream().distinct().toList(), contains(200));
        assertChain(read("/audit?targetId=" + patched, VICTOR_TOKEN), "message", "v0");

        String renamed = alice(Method.POST, "/projects", "{\"name\":\"n0\"}").object().getString("id");
        atOnce(10, i -> alice(Method.PATCH, "/projects/" + renamed, "{\"name\":\"n" + (i + 1) + "\"}").status());
        assertChain(read("/audit?targetId=" + renamed, VICTOR_TOKEN), "name", "n0");

        String key = alice(Method.POST, "/projects/" + project + "/api-keys", "{}").object().getString("key");
        atOnce(10, i -> alice(Method.PATCH, "/api-keys/" + key, "{\"orderBy\":\""
                + List.of("createdAt_asc", "createdAt_desc").get(i % 2) + "\",\"showPast\":" + (i % 3 == 0) + "}")
                .status());
        List<Integer> revokes = atOnce(10, i -> alice(Method.DELETE, "/api-keys/" + key, null).status());
        assertThat("revoking a revoked key stays 204", revokes.stream().distinct().toList(), contains(204));
        List<JsonObject> ofKey = read("/audit?targetId=" + key, VICTOR_TOKEN);
        assertThat("revoked once", ofKey.stream().filter(line -> line.getString("action").equals("api-key.revoked"))
                .count(), is(1L));
        assertChain(ofKey.stream().filter(line -> line.getString("action").equals("api-key.updated")).toList(),
                    "orderBy", "createdAt_desc");

        for (int round = 0; round < 5; round++) {
            String contested = notification(project, "contested");
            List<Integer> statuses = atOnce(2, i -> i == 0
                    ? alice(Method.PATCH, "/notifications/" + contested, "{\"message\":\"late\"}").status()
                    : alice(Method.DELETE, "/notifications/" + contested, null).status());
            List<String> actions = actions("/audit?targetId=" + contested);
            assertThat(statuses.get(1), is(204));
            assertThat("nothing after the deletion", actions.getFirst(), is("notification.deleted"));
            assertThat(actions, hasSize(statuses.get(0) == 200 ? 3 : 2));
            assertThat(statuses.get(0) == 200 || statuses.get(0) == 404, is(true));
        }
    }

    /**
     * A save that changes nothing writes no line: a reader of the log looks for changes, and an empty "updated" line
     * says one happened. Of a project, a key, a notification (its whole body sent back as read), a draft of changes
     * saved twice or saved as the notification is.
     */
    @Test
    void aSaveThatChangesNothingWritesNoLine() {
        String project = alice(Method.POST, "/projects", "{\"name\":\"Same\"}").object().getString("id");
        String key = alice(Method.POST, "/projects/" + project + "/api-keys", "{\"showPast\":true}").object()
                .getString("key");
        Accounts.Answer created = alice(Method.POST, "/projects/" + project + "/notifications",
                                        "{\"message\":\"<p>Spring sale</p>\",\"status\":\"PUBLISHED\"}");
        String notification = created.object().getString("id");
        List<Long> before = lineIds(project);
        tick();

        assertThat(alice(Method.PATCH, "/projects/" + project, "{\"name\":\"Same\"}").status(), is(200));
        assertThat(alice(Method.PATCH, "/api-keys/" + key, "{\"showPast\":true}").status(), is(200));
        jakarta.json.JsonObjectBuilder everyField = jakarta.json.Json.createObjectBuilder();
        List.of("message", "status", "image", "action", "preset", "startDate", "endDate")
                .forEach(field -> everyField.add(field, created.object().get(field)));
        Accounts.Answer sentBack = alice(Method.PATCH, "/notifications/" + notification,
                                         everyField.build().toString());
        assertThat(sentBack.body(), sentBack.status(), is(200));
        assertThat(alice(Method.PATCH, "/notifications/" + notification, "{\"message\":\"<p>Spring sale</p>\"}")
                           .status(), is(200));
        assertThat("a draft as the notification is", alice(Method.PUT, "/notifications/" + notification + "/draft",
                "{\"message\":\"<p>Spring sale</p>\"}").status(), is(200));
        assertThat(lineIds(project), is(before));

        alice(Method.PUT, "/notifications/" + notification + "/draft", "{\"message\":\"<p>Summer sale</p>\"}");
        tick();
        alice(Method.PUT, "/notifications/" + notification + "/draft", "{\"message\":\"<p>Summer sale</p>\"}");
        List<JsonObject> lines = read("/audit?projectId=" + project, VICTOR_TOKEN);
        assertThat("the first draft of a change only", lines.size(), is(before.size() + 1));
        JsonObject draft = lines.getFirst();
        assertThat(draft.getString("action"), is("notification.draft-saved"));
        assertThat("what publishing it would change", draft.getJsonObject("details").keySet(), contains("message"));
        assertThat(draft.getJsonObject("details").getJsonObject("message").getJsonArray("diff"), is(dev.herald.support
                .JsonBodies.array("[{\"type\":\"removed\",\"text\":\"Spring\"},{\"type\":\"added\",\"text\":\"Summer\"},"
                        + "{\"type\":\"same\",\"text\":\" sale\"}]")));
    }

    /**
     * An edit at the end of a long message: two excerpts of its beginning read the same, the words removed and added
     * do not; of a rich-text document, its words, not its JSON. The line names the notification by its first words.
     */
    @Test
    void anEditAtTheEndOfALongMessageIsKeptAsTheWordsRemovedAndAdded() {
        String project = alice(Method.POST, "/projects", "{\"name\":\"Long\"}").object().getString("id");
        String words = "Our spring sale brings new prices to every plan, ".repeat(40);
        String id = alice(Method.POST, "/projects/" + project + "/notifications",
                          "{\"message\":" + document(words + "see you on Monday.") + "}").object().getString("id");
        tick();
        alice(Method.PATCH, "/notifications/" + id, "{\"message\":" + document(words + "see you on Friday.") + "}");

        JsonObject line = read("/audit?targetId=" + id, VICTOR_TOKEN).getFirst();
        JsonObject message = line.getJsonObject("details").getJsonObject("message");
        assertThat("the excerpts read the same", message.getJsonObject("from").getString("excerpt"),
                   is(message.getJsonObject("to").getString("excerpt")));
        assertThat(message.getJsonArray("diff"), is(dev.herald.support.JsonBodies.array(
                "[{\"type\":\"same\",\"text\":\"… to every plan, see you on \"},{\"type\":\"removed\",\"text\":\"Monday.\"},"
                        + "{\"type\":\"added\",\"text\":\"Friday.\"}]")));
        assertThat(line.getJsonObject("target").getString("label"),
                   is("Our spring sale brings new prices to every plan, Our spring…"));
        assertAtMost16KiB(line);
    }

    private static String document(String text) {
        return "{\"type\":\"doc\",\"content\":[{\"type\":\"paragraph\",\"content\":[{\"type\":\"text\",\"text\":"
                + jakarta.json.Json.createValue(text) + "}]}]}";
    }

    private List<Long> lineIds(String project) {
        return read("/audit?projectId=" + project, VICTOR_TOKEN).stream()
                .map(line -> line.getJsonNumber("id").longValue()).toList();
    }

    private String notification(String project, String message) {
        return alice(Method.POST, "/projects/" + project + "/notifications", "{\"message\":\"" + message + "\"}")
                .object().getString("id");
    }

    private List<String> actions(String path) {
        return read(path, VICTOR_TOKEN).stream().map(line -> line.getString("action")).toList();
    }

    /**
     * The requests, all sent at once, while the clock moves a millisecond at a time (so that the order of the lines
     * by time is that of the writes, not of the requests); their statuses in the order they were made.
     */
    private static List<Integer> atOnce(int count, IntFunction<Integer> request) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(count + 1);
        try {
            threads.submit(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    tick(Duration.ofMillis(1));
                    Thread.sleep(1);
                }
                return null;
            });
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                statuses.add(threads.submit(() -> {
                    start.await();
                    return request.apply(index);
                }));
            }
            start.countDown();
            List<Integer> answered = new ArrayList<>();
            for (Future<Integer> status : statuses) {
                answered.add(status.get());
            }
            return answered;
        } finally {
            threads.shutdownNow();
        }
    }

    /**
     * The lines that changed {@code member} (those of a creation hold its value, not a change), oldest first,
     * form one chain from {@code first}: each {@code from} is the previous {@code to}, so no state is replaced twice
     * and none is skipped, and the lines are in the order of the writes.
     */
    private static void assertChain(List<JsonObject> newestFirst, String member, String first) {
        List<JsonObject> changes = newestFirst.reversed().stream()
                .filter(line -> line.getJsonObject("details").get(member) instanceof JsonObject)
                .map(line -> line.getJsonObject("details").getJsonObject(member))
                .toList();
        String expected = first;
        for (JsonObject change : changes) {
            assertThat("each change replaces the one before it: " + changes, change.getString("from"), is(expected));
            expected = change.getString("to");
        }
    }

    /**
     * A line keeps a long value as its beginning, its length and its SHA-256, so that each is at most 16 KiB as
     * served: before, a line held whole messages before and after, and a page of 50 lines of 32 KB messages of
     * control characters (192 KB each once escaped) ended a process of 80 MB with OutOfMemoryError.
     */
    @Test
    void aLineKeepsAnExcerptAndADigestOfALongValueAndIsAtMost16KiB() {
        String project = alice(Method.POST, "/projects", "{\"name\":\"Big\"}").object().getString("id");
        // 32,000 bytes stored, 64,000 served: a quote is escaped.
        String quotes = "\"".repeat(32_000);
        String big = "\uD83D\uDE00".repeat(8_000);
        String id = alice(Method.POST, "/projects/" + project + "/notifications", "{\"message\":"
                + jakarta.json.Json.createValue(quotes) + "}").object().getString("id");
        tick();
        alice(Method.PATCH, "/notifications/" + id, "{\"message\":" + jakarta.json.Json.createValue(big)
                + ",\"image\":\"https://example.com/" + "i".repeat(2_000) + "\"}");

        List<JsonObject> lines = read("/audit?targetId=" + id, VICTOR_TOKEN);
        JsonObject updated = lines.getFirst().getJsonObject("details");
        JsonObject from = updated.getJsonObject("message").getJsonObject("from");
        assertThat(from.getString("excerpt"), is("\"".repeat(128)));
        assertThat(from.getInt("bytes"), is(32_000));
        assertThat(from.getString("sha256"), is(Accounts.sha256(quotes)));
        JsonObject to = updated.getJsonObject("message").getJsonObject("to");
        assertThat("cut between characters", to.getString("excerpt"), is("\uD83D\uDE00".repeat(64)));
        assertThat(to.getInt("bytes"), is(32_000));
        assertThat(to.getString("sha256"), is(Accounts.sha256(big)));
        assertThat(updated.getJsonObject("image").getJsonObject("to").getInt("bytes"), is(2_020));
        assertThat("a short value stays whole", updated.getJsonObject("image").isNull("from"), is(true));
        assertThat(lines.getLast().getJsonObject("details").getJsonObject("message").getString("sha256"),
                   is(Accounts.sha256(quotes)));
        assertThat(lines.getLast().getJsonObject("details").getString("status"), is("DRAFT"));
        lines.forEach(AuditLogContract::assertAtMost16KiB);
    }

    /**
     * Lines written before they were bounded (whole messages of control characters, from and to, and details that
     * are no JSON object) are bounded as they are read: a page of 50 is served, each line at most 16 KiB.
     */
    @Test
    void linesWrittenBeforeTheBoundAreBoundedAsTheyAreRead() throws SQLException {
        String whole = "\\u0001".repeat(32_000);
        try (Connection connection = herald.database().connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO audit_log (occurred_at, actor, action,"
                     + " project_id, target_type, target_id, details) VALUES (?, 'old', ?, 'legacy', ?, ?, ?)")) {
            for (int i = 0; i < 60; i++) {
                insert.setLong(1, herald.clock().millis() + i);
                insert.setString(2, i == 59 ? "project.renamed" : "notification.updated");
                insert.setString(3, i == 59 ? "project" : "notification");
                insert.setString(4, "legacy" + i);
                insert.setString(5, i == 59 ? "{\"name\":" + "[".repeat(5_000)
                        : "{\"message\":{\"from\":\"" + whole + "\",\"to\":\"" + whole + "x\"}}");
                insert.addBatch();
            }
            insert.executeBatch();
        }
        Accounts.Answer page = Accounts.send(http, Method.GET, "/audit?projectId=legacy&limit=50", null,
                                             Map.of("Authorization", "Bearer " + VICTOR_TOKEN));
        assertThat(page.status(), is(200));
        List<JsonObject> lines = dev.herald.support.JsonBodies.array(page.body()).stream()
                .map(JsonValue::asJsonObject).toList();
        assertThat(lines, hasSize(50));
        lines.forEach(AuditLogContract::assertAtMost16KiB);
        JsonObject unreadable = lines.getFirst().getJsonObject("details");
        assertThat(unreadable.getString("excerpt"), is("{\"name\":" + "[".repeat(246)));
        assertThat(unreadable.getInt("bytes"), is(5_008));
        JsonObject message = lines.get(1).getJsonObject("details").getJsonObject("message");
        assertThat(message.getJsonObject("from").getString("excerpt"), is("\u0001".repeat(42)));
        assertThat(message.getJsonObject("to").getInt("bytes"), is(32_001));
    }

    private static void assertAtMost16KiB(JsonObject line) {
        int bytes = line.toString().getBytes(StandardCharsets.UTF_8).length;
        assertThat("a line as served", bytes, lessThanOrEqualTo(16_384));
    }

    @Test
    void theWholeLogIsReadAPageAtATimeNewestFirst() {
        List<String> projects = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            projects.add(alice(Method.POST, "/projects", "{\"name\":\"P" + i + "\"}").object().getString("id"));
        }
        List<String> seen = new ArrayList<>();
        List<Long> lineIds = new ArrayList<>();
        String path = "/audit?limit=2";
        int pages = 0;
        while (path != null) {
            AdminClient.Answer page = admin.call(Method.GET, path);
            assertThat(page.status(), is(200));
            page.array().forEach(line -> {
                seen.add(line.asJsonObject().getJsonObject("target").getString("id"));
                lineIds.add(line.asJsonObject().getJsonNumber("id").longValue());
            });
            path = next(page);
            pages++;
        }
        List<String> newestFirst = new ArrayList<>(projects.reversed());
        assertThat(seen.subList(0, 5), is(newestFirst));
        assertThat(pages > 2, is(true));
        assertThat("every line once", lineIds.stream().distinct().count(), is((long) lineIds.size()));
    }

    private static void tick() {
        tick(Duration.ofSeconds(1));
    }

    private static void tick(Duration duration) {
        herald.clock().advance(duration);
    }

    private Accounts.Answer alice(Method method, String path, String json) {
        return Accounts.send(http, method, path, json, Map.of("Authorization", "Bearer " + ALICE_TOKEN));
    }

    private List<JsonObject> read(String path, String token) {
        Accounts.Answer answer = Accounts.send(http, Method.GET, path, null, Map.of("Authorization", "Bearer " + token));
        assertThat(answer.body(), answer.status(), is(200));
        return dev.herald.support.JsonBodies.array(answer.body()).stream().map(JsonValue::asJsonObject).toList();
    }

    private static String next(AdminClient.Answer answer) {
        if (answer.link() == null) {
            return null;
        }
        Matcher next = NEXT.matcher(answer.link());
        assertThat(answer.link(), next.matches(), is(true));
        return next.group(1);
    }

    private static JsonObject object(String json) {
        return dev.herald.support.JsonBodies.object(json);
    }
}
