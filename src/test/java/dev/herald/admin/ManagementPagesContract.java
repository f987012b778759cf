package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.notification.Notification;
import dev.herald.notification.NotificationStatus;
import dev.herald.project.Project;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.JsonBodies;
import dev.herald.support.TestHerald;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * Every management list comes a page at a time (issue 20: one list of 10,000 notifications ended the process): the
 * body stays the JSON array it was, {@code ?limit=} (default 100, at most 1000) and {@code ?cursor=}, the next page
 * in {@code Link: <…>; rel="next"}, absent on the last; stable under concurrent writes; a page holds about a megabyte
 * of messages at most; notifications filter by state.
 */
abstract class ManagementPagesContract extends HeraldServerTest {

    private static final Pattern NEXT = Pattern.compile("</api/v1/admin(/[^>]*)>; rel=\"next\"");

    private final AdminClient admin;

    ManagementPagesContract(Http1Client client) {
        this.admin = new AdminClient(client);
    }

    @Test
    void notificationsComeByPagesNewestFirstEachOnce() {
        Project project = herald.project();
        List<String> newestFirst = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            // Three at each millisecond: the creation order breaks the ties.
            Notification saved = herald.notification(project).createdAt(at(i / 3)).save();
            newestFirst.addFirst(saved.id());
        }
        List<List<String>> pages = allPages("/projects/" + project.id() + "/notifications");
        assertThat(pages.stream().map(List::size).toList(), is(List.of(100, 100, 50)));
        assertThat(pages.stream().flatMap(List::stream).toList(), is(newestFirst));
        assertThat("the default page is the first 100",
                   ids(admin.call(Method.GET, "/projects/" + project.id() + "/notifications")), is(pages.getFirst()));
    }

    /** New notifications come before the first page; a deleted one leaves no gap and moves nothing. */
    @Test
    void aPageFollowsItsCursorWhateverIsWrittenMeanwhile() {
        Project project = herald.project();
        List<Notification> saved = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            saved.add(herald.notification(project).createdAt(at(i)).save());
        }
        AdminClient.Answer first = admin.call(Method.GET, "/projects/" + project.id() + "/notifications?limit=10");
        assertThat(ids(first).getLast(), is(saved.get(20).id()));
        for (int i = 0; i < 5; i++) {
            herald.notification(project).createdAt(at(100 + i)).save();
        }
        Notification deleted = saved.get(19);
        herald.services().notifications().delete(deleted, (current, draft) -> { }, gone -> herald.fixture("notification.deleted",
                                                                         deleted.projectId(), deleted.id()));
        List<String> second = ids(admin.call(Method.GET, next(first)));
        assertThat(second, is(List.of(saved.get(18).id(), saved.get(17).id(), saved.get(16).id(), saved.get(15).id(),
                                      saved.get(14).id(), saved.get(13).id(), saved.get(12).id(), saved.get(11).id(),
                                      saved.get(10).id(), saved.get(9).id())));
    }

    /**
     * 60 messages of 30,000 characters: a page stops at a megabyte (1,048,576 bytes) written, whatever its limit.
     * 34 such notifications with their other members fit it; 35, the page before answers were bounded in bytes,
     * do not.
     */
    @Test
    void aPageOfLargeMessagesEndsAtAboutAMegabyte() {
        Project project = herald.project();
        String large = "x".repeat(30_000);
        for (int i = 0; i < 60; i++) {
            herald.notification(project).status(NotificationStatus.DRAFT).message(large + i).createdAt(at(i)).save();
        }
        List<List<String>> pages = allPages("/projects/" + project.id() + "/notifications?limit=1000");
        assertThat(pages.getFirst().size(), is(34));
        assertThat(pages.stream().mapToInt(List::size).sum(), is(60));
        assertThat(new HashSet<>(pages.stream().flatMap(List::stream).toList()).size(), is(60));
    }

    @Test
    void notificationsFilterByState() {
        Project project = herald.project();
        Instant now = herald.clock().instant();
        String draft = herald.notification(project).status(NotificationStatus.DRAFT).save().id();
        String archived = herald.notification(project).status(NotificationStatus.ARCHIVED).save().id();
        String scheduled = published(project).start(now.plus(Duration.ofDays(1))).save().id();
        String live = published(project).start(now.minus(Duration.ofDays(1))).end(now.plus(Duration.ofDays(1)))
                .save().id();
        String alwaysLive = published(project).save().id();
        String ended = published(project).end(now.minus(Duration.ofSeconds(1))).save().id();
        String path = "/projects/" + project.id() + "/notifications?state=";
        assertThat(ids(admin.call(Method.GET, path + "draft")), is(List.of(draft)));
        assertThat(ids(admin.call(Method.GET, path + "archived")), is(List.of(archived)));
        assertThat(ids(admin.call(Method.GET, path + "scheduled")), is(List.of(scheduled)));
        assertThat(ids(admin.call(Method.GET, path + "live")), is(List.of(alwaysLive, live)));
        assertThat(ids(admin.call(Method.GET, path + "ended")), is(List.of(ended)));
        assertThat(ids(admin.call(Method.GET, "/projects/" + project.id() + "/notifications?status=PUBLISHED")),
                   is(List.of(ended, alwaysLive, live, scheduled)));
    }

    @Test
    void theNextPageKeepsTheFilter() {
        Project project = herald.project();
        Instant past = herald.clock().instant().minus(Duration.ofHours(1));
        for (int i = 0; i < 5; i++) {
            published(project).end(past).createdAt(at(i)).save();
            herald.notification(project).status(NotificationStatus.DRAFT).createdAt(at(i)).save();
        }
        List<List<String>> pages = allPages("/projects/" + project.id() + "/notifications?state=ended&limit=2");
        assertThat(pages.stream().map(List::size).toList(), is(List.of(2, 2, 1)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"limit=0", "limit=1001", "limit=abc", "limit=", "limit=%D9%A5", "limit=%2B5",
            "limit=%EF%BC%95", "limit=0005000000000", "limit&limit=2", "limit=2&limit", "cursor=abc", "cursor=YzEu",
            "state=current", "state=LIVE", "state=live&status=PUBLISHED"})
    void aBadPageOrFilterIsAValidationError(String query) {
        Project project = herald.project();
        AdminClient.Answer answer = admin.call(Method.GET, "/projects/" + project.id() + "/notifications?" + query);
        assertThat(query, answer.status(), is(400));
        JsonObject error = answer.object();
        assertThat(error.getString("code"), is("VALIDATION_ERROR"));
        String field = query.split("[=&]")[0];
        assertThat(error.getJsonObject("details").getString("field"), is(field.equals("status") ? "state" : field));
    }

    @Test
    void projectsAndKeysComeByPagesToo() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(admin.created("/projects", "{\"name\":\"paged " + i + "\"}").getString("id"));
        }
        List<String> all = allPages("/projects?limit=2").stream().flatMap(List::stream).toList();
        assertThat(all.containsAll(created), is(true));
        assertThat("each once", new HashSet<>(all).size(), is(all.size()));

        String project = created.getFirst();
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            keys.add(admin.created("/projects/" + project + "/api-keys", "{}").getString("key"));
        }
        List<List<String>> pages = allPages("/projects/" + project + "/api-keys?limit=2");
        assertThat(pages.stream().map(List::size).toList(), is(List.of(2, 1)));
        assertThat(new HashSet<>(pages.stream().flatMap(List::stream).toList()), is(new HashSet<>(keys)));
    }

    private TestHerald.NotificationFixture published(Project project) {
        return herald.notification(project).status(NotificationStatus.PUBLISHED);
    }

    private static Instant at(int second) {
        return TestHerald.START.minus(Duration.ofDays(1)).plusSeconds(second);
    }

    /** Each page's ids, following Link until there is none. */
    private List<List<String>> allPages(String path) {
        List<List<String>> pages = new ArrayList<>();
        AdminClient.Answer answer = admin.call(Method.GET, path);
        while (true) {
            assertThat(answer.body(), answer.status(), is(200));
            assertThat("bytes of a page", answer.body().getBytes(StandardCharsets.UTF_8).length,
                       lessThanOrEqualTo(AdminResponses.MAX_ANSWER_BYTES));
            pages.add(ids(answer));
            assertThat("more than 1,000 pages", pages.size(), lessThan(1_000));
            if (answer.link() == null) {
                return pages;
            }
            assertThat("no page is empty but the last", pages.getLast().size(), greaterThan(0));
            answer = admin.call(Method.GET, next(answer));
        }
    }

    private static String next(AdminClient.Answer answer) {
        Matcher next = NEXT.matcher(answer.link());
        assertThat(answer.link(), next.matches(), is(true));
        return next.group(1);
    }

    private static List<String> ids(AdminClient.Answer answer) {
        assertThat(answer.body(), answer.status(), is(200));
        List<String> ids = new ArrayList<>();
        for (JsonValue item : JsonBodies.array(answer.body())) {
            JsonObject object = item.asJsonObject();
            ids.add(object.containsKey("key") ? object.getString("key") : object.getString("id"));
        }
        return ids;
    }
}
