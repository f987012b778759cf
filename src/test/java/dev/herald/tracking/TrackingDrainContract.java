package dev.herald.tracking;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import dev.herald.notification.Notification;
import dev.herald.support.ChildHerald;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald.StoredInteraction;
import dev.herald.support.TestHerald;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;

/**
 * SIGTERM under tracking load: everything answered 204 is stored exactly once, and nothing else is stored but
 * requests that got another answer or none (those in flight at the stop). kill -9: the same, after a restart reads
 * the database.
 */
abstract class TrackingDrainContract {

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

    /** A database of its own; with H2, a file under {@code directory}, so that it outlives the process. */
    abstract TestDatabase database(Path directory);

    /** How the test ends Herald under load. */
    private interface Ending {
        void end(ChildHerald herald) throws Exception;
    }

    /**
     * Tracks from {@link #CLIENTS} clients for 2 s, ends Herald so, then reads the database through a new start, as
     * the next instance would (with a kill, what H2 had not written to its file, or what MariaDB had not committed,
     * would be gone).
     */
    private void assertEveryAnswerStoredAfter(Ending ending) throws Exception {
        TestDatabase database = database(directory);
        TestHerald setUp = TestHerald.start(database);
        Notification notification = setUp.notification(setUp.project()).save();
        setUp.stop();
        ChildHerald herald = ChildHerald.start(directory.resolve("run"), config(database));
        AtomicBoolean stopping = new AtomicBoolean();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<Answers>> answered = new ArrayList<>();
        try (herald) {
            for (int i = 0; i < CLIENTS; i++) {
                int clientNumber = i;
                answered.add(clients.submit(() -> trackUntilRefused(herald.port(), notification.id(), clientNumber,
                                                                    stopping)));
            }
            Thread.sleep(Duration.ofSeconds(2));
            stopping.set(true);
            ending.end(herald);
        } finally {
            clients.shutdown();
        }
        Set<String> answered204 = new HashSet<>();
        Set<String> answeredOtherwise = new HashSet<>();
        for (Future<Answers> answers : answered) {
            answered204.addAll(answers.get().accepted());
            answeredOtherwise.addAll(answers.get().refused());
        }
        try (TestHerald restarted = TestHerald.start(database)) {
            Map<String, Long> stored = restarted.interactions(notification.id()).stream()
                    .collect(Collectors.groupingBy(StoredInteraction::metadata, Collectors.counting()));
            assertThat("the load ran", answered204.size(), greaterThan(100));
            for (String tag : answered204) {
                assertThat("answered 204, stored exactly once: " + tag, stored.get(metadata(tag)), is(1L));
            }
            for (Map.Entry<String, Long> interaction : stored.entrySet()) {
                assertThat("never stored twice: " + interaction.getKey(), interaction.getValue(), is(1L));
            }
            Set<String> storedNot204 = new HashSet<>(stored.keySet());
            answered204.forEach(tag -> storedNot204.remove(metadata(tag)));
            for (String interaction : storedNot204) {
                assertThat("stored but not answered 204: only a request that got another answer or none",
                           answeredOtherwise.stream().map(TrackingDrainContract::metadata).toList(),
                           hasItem(interaction));
            }
        }
    }

    /** What a request's tag is stored as: its metadata, serialized compact. */
    private static String metadata(String tag) {
        return "{\"request\":\"" + tag + "\"}";
    }

    private static String config(TestDatabase database) {
        return ChildHerald.onDatabase(database) + """
                rate-limit:
                  requests: 1000000
                tracking:
                  batch:
                    linger: PT0.005S
                """;
    }

    /**
     * Tracks until the server stops answering, each request tagged in its metadata ({@code client-n}, on the
     * enhanced endpoint), so that the database can say which were stored and how often; the tags, by answer.
     */
    private static Answers trackUntilRefused(int port, String notificationId, int clientNumber, AtomicBoolean stopping) {
        Http1Client client = Http1Client.builder().baseUri("http://127.0.0.1:" + port).build();
        List<String> accepted = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        for (int n = 0; ; n++) {
            String tag = clientNumber + "-" + n;
            try (Http1ClientResponse response = client.post("/api/v1/public/track/" + notificationId + "/enhanced")
                    .header(HeaderNames.CONTENT_TYPE, "application/json")
                    .submit("{\"type\":\"impression\",\"metadata\":" + metadata(tag) + "}")) {
                response.entity().consume();
                if (response.status().code() == 204) {
                    accepted.add(tag);
                    continue;
                }
                refused.add(tag);
            } catch (RuntimeException e) {
                // No answer seen (the server went away, or the client gave up waiting): it may have been stored.
                refused.add(tag);
            }
            if (stopping.get()) {
                return new Answers(accepted, refused);
            }
        }
    }

    /**
     * What one client saw: the tags answered 204, and those answered otherwise or not at all. Any of the latter may
     * have been stored (a 500 after its batch was taken, an answer the kill cut off): never a 204 that was not.
     */
    private record Answers(List<String> accepted, List<String> refused) {
    }
}
