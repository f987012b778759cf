package dev.herald.tracking;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.herald.notification.Notification;
import dev.herald.support.ChildHerald;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/**
 * SIGTERM under tracking load: everything answered 204 is stored, and at most the requests in flight at the stop
 * are stored without having been answered (one per client). kill -9: the same, after a restart reads the database.
 */
class TrackingDrainTest {

    private static final int CLIENTS = 8;

    @TempDir
    Path directory;

    @Test
    void sigtermUnderLoadLosesNothingAnswered() throws Exception {
        assertEveryAnswerStoredAfter(herald -> {
            assertThat("the JVM's code for a stop by SIGTERM", herald.stop(), is(143));
            assertThat(herald.log(), containsString("Herald stopped"));
        });
    }

    @Test
    void killUnderLoadLosesNothingAnswered() throws Exception {
        assertEveryAnswerStoredAfter(herald -> assertThat("the JVM's code for SIGKILL", herald.kill(), is(137)));
    }

    /** How the test ends Herald under load. */
    private interface Ending {
        void end(ChildHerald herald) throws Exception;
    }

    /**
     * Tracks from {@link #CLIENTS} clients for 2 s, ends Herald so, then reads the database through a new start, as
     * the next instance would (with a kill, what H2 had not written to its file would be gone).
     */
    private void assertEveryAnswerStoredAfter(Ending ending) throws Exception {
        TestDatabase database = TestDatabase.h2File(directory.resolve("data"));
        Notification notification;
        try (TestHerald setUp = TestHerald.start(database)) {
            notification = setUp.notification(setUp.project()).save();
        }
        ChildHerald herald = ChildHerald.start(directory.resolve("run"), config(database));
        AtomicBoolean stopping = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Answers>> answered = new ArrayList<>();
        try (herald) {
            for (int i = 0; i < CLIENTS; i++) {
                answered.add(clients.submit(() -> trackUntilRefused(herald.port(), notification.id(), stopping)));
            }
            Thread.sleep(Duration.ofSeconds(2));
            stopping.set(true);
            ending.end(herald);
        } finally {
            clients.shutdown();
        }
        int answered204 = 0;
        int otherAnswers = 0;
        for (Future<Answers> answers : answered) {
            answered204 += answers.get().accepted();
            otherAnswers += answers.get().refused();
        }
        try (TestHerald restarted = TestHerald.start(database)) {
            long stored = restarted.interactions(notification.id()).size();
            assertThat("the load ran", answered204, greaterThan(100));
            assertThat("every 204 is stored", stored, greaterThanOrEqualTo((long) answered204));
            assertThat("stored but not answered 204: only requests that got another answer or none",
                       stored - answered204, lessThanOrEqualTo((long) otherAnswers));
        }
    }

    private static String config(TestDatabase database) {
        return ChildHerald.onDatabase(database.url()) + """
                rate-limit:
                  requests: 1000000
                tracking:
                  batch:
                    linger: PT0.005S
                """;
    }

    /** Tracks until the server stops answering; the answers it got, by kind. */
    private static Answers trackUntilRefused(int port, String notificationId, AtomicBoolean stopping) {
        Http1Client client = Http1Client.builder().baseUri("http://127.0.0.1:" + port).build();
        int accepted = 0;
        int refused = 0;
        while (true) {
            try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notificationId)
                    .header(HeaderNames.CONTENT_TYPE, "application/json")
                    .submit("{\"type\":\"impression\"}")) {
                response.entity().consume();
                if (response.status().code() == 204) {
                    accepted++;
                } else {
                    refused++;
                    if (stopping.get()) {
                        return new Answers(accepted, refused);
                    }
                }
            } catch (RuntimeException e) {
                // No answer seen (the server went away, or the client gave up waiting): it may have been stored.
                refused++;
                if (stopping.get()) {
                    return new Answers(accepted, refused);
                }
            }
        }
    }

    /**
     * What one client saw: 204s, and requests answered otherwise or not at all. Any of the latter may have been
     * stored (a 500 after its batch was taken, an answer the kill cut off): never a 204 that was not.
     */
    private record Answers(int accepted, int refused) {
    }
}
