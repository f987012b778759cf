package dev.herald.tracking;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.notification.Notification;
import dev.herald.project.Project;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestHerald.StoredInteraction;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.support.TestHerald.START;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;

/**
 * A tracking request's {@code eventId}, its client's idempotency key (docs/api.md, Retrying a tracking request): sent
 * again, whenever and however often, it is answered 204 and stored once per project. Run against each database, with
 * and without the group commit, by a subclass.
 */
abstract class EventIdContract extends HeraldServerTest {

    private static final String JSON = "application/json";

    private final Http1Client client;
    private Project project;
    private Notification notification;

    EventIdContract(Http1Client client) {
        this.client = client;
    }

    @BeforeEach
    void freshNotification() {
        herald.clock().set(START);
        project = herald.project();
        notification = herald.notification(project).save();
    }

    @Test
    void anInteractionSentAgainWithItsIdIsAnsweredAndStoredOnce() throws SQLException {
        long repeatedBefore = herald.services().tracking().writerFigures().repeated();
        String body = "{\"type\":\"click\",\"eventId\":\"0b7c6a52-4f7e-4d7e-9a51-3f0f0e1d2c3b\"}";

        assertThat(post(simple(notification.id()), body), is(204));
        herald.clock().set(START.plusSeconds(90));
        assertThat(post(simple(notification.id()), body), is(204));
        assertThat(post(simple(notification.id()), body), is(204));

        List<StoredInteraction> stored = herald.interactions(notification.id());
        assertThat(stored, hasSize(1));
        assertThat("the first is the one kept", stored.get(0).receivedAt(), is(START.toEpochMilli()));
        assertThat(herald.dailyTotal(notification.id()), is(1L));
        assertThat(herald.services().tracking().writerFigures().repeated() - repeatedBefore, is(2L));
    }

    /** The id names the event, whatever the repeat says: the first stored wins, on either endpoint. */
    @Test
    void theIdIsTheProjectsOnBothEndpoints() throws SQLException {
        assertThat(post(enhanced(notification.id()), "{\"type\":\"conversion\",\"eventId\":\"order-1\","
                + "\"metadata\":{\"plan\":\"pro\"}}"), is(204));
        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":\"order-1\"}"), is(204));
        Notification another = herald.notification(project).save();
        assertThat(post(enhanced(another.id()), "{\"type\":\"click\",\"eventId\":\"order-1\"}"), is(204));

        List<StoredInteraction> stored = herald.interactions(notification.id());
        assertThat(stored, hasSize(1));
        assertThat(stored.get(0).type(), is("conversion"));
        assertThat("another notification of the project: the same event", herald.interactions(another.id()),
                   hasSize(0));
    }

    @Test
    void eachProjectHasIdsOfItsOwnAndCaseCounts() throws SQLException {
        Project other = herald.project();
        Notification theirs = herald.notification(other).save();

        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":\"e1\"}"), is(204));
        assertThat(post(simple(theirs.id()), "{\"type\":\"click\",\"eventId\":\"e1\"}"), is(204));
        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":\"E1\"}"), is(204));

        assertThat(herald.interactions(notification.id()), hasSize(2));
        assertThat(herald.interactions(theirs.id()), hasSize(1));
    }

    @Test
    void withoutAnIdEveryRequestIsStoredAsBefore() throws SQLException {
        assertThat(post(simple(notification.id()), "{\"type\":\"click\"}"), is(204));
        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":null}"), is(204));
        assertThat(post(enhanced(notification.id()), "{\"type\":\"click\"}"), is(204));
        assertThat(post(enhanced(notification.id()), "{\"type\":\"click\",\"eventId\":null}"), is(204));

        assertThat(herald.interactions(notification.id()), hasSize(4));
        assertThat(herald.dailyTotal(notification.id()), is(4L));
    }

    /**
     * Sent many times at once (a client's retries racing, several tabs): in one batch, in batches in flight side by
     * side, or each in its own transaction, one is stored and every one answered 204.
     */
    @Test
    void manyAtOnceAreStoredOnce() throws Exception {
        int requests = 24;
        ExecutorService senders = Executors.newFixedThreadPool(requests);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                String body = "{\"type\":\"" + (i % 2 == 0 ? "click" : "impression") + "\",\"eventId\":\"burst\"}";
                String path = i % 3 == 0 ? enhanced(notification.id()) : simple(notification.id());
                answers.add(senders.submit(() -> {
                    start.await();
                    return post(path, body);
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get(30, TimeUnit.SECONDS));
            }
            assertThat(statuses, everyItem(is(204)));
        } finally {
            senders.shutdownNow();
        }
        assertThat(herald.interactions(notification.id()), hasSize(1));
        assertThat(herald.dailyTotal(notification.id()), is(1L));
        assertThat(storedIds(notification.projectId()), is(1L));
    }

    @ParameterizedTest
    @ValueSource(strings = {"5", "true", "{}", "[\"a\"]", "\"\"", "\"a b\"", "\"caf\u00e9\"", "\"a/b\"", "\"a\\nb\"",
            "\"x12345678901234567890123456789012345678901234567890123456789012345\""})
    void anIdThatIsNotOneIsRefusedOnBothEndpoints(String id) throws SQLException {
        for (String path : List.of(simple(notification.id()), enhanced(notification.id()))) {
            try (Http1ClientResponse response = client.post(path).header(HeaderNames.CONTENT_TYPE, JSON)
                    .submit("{\"type\":\"click\",\"eventId\":" + id + "}")) {
                assertThat(response.status().code(), is(400));
                assertThat(response.as(String.class),
                           is("{\"message\":\"Invalid eventId\",\"code\":\"INVALID_PARAMETER\"}"));
            }
        }
        assertThat(herald.interactions(notification.id()), hasSize(0));
    }

    @Test
    void theLongestIdAndEveryAllowedCharacterAreTaken() throws SQLException {
        String longest = "aZ09._:-".repeat(8);
        assertThat(longest.length(), is(TrackingRequest.MAX_EVENT_ID_LENGTH));
        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":\"" + longest + "\"}"), is(204));
        assertThat(post(simple(notification.id()), "{\"type\":\"click\",\"eventId\":\"" + longest + "\"}"), is(204));
        assertThat(herald.interactions(notification.id()), hasSize(1));
    }

    /** Like the other body rules, the id is checked before the notification is looked up. */
    @Test
    void aBadIdIsToldBeforeAnUnknownNotification() {
        try (Http1ClientResponse response = client.post(simple("no_such_notification"))
                .header(HeaderNames.CONTENT_TYPE, JSON).submit("{\"type\":\"click\",\"eventId\":7}")) {
            assertThat(response.status().code(), is(400));
        }
    }

    private long storedIds(String projectId) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement query = connection.prepareStatement(
                     "SELECT COUNT(*) FROM interaction_event_ids WHERE project_id = ?")) {
            query.setString(1, projectId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private int post(String path, String body) {
        try (Http1ClientResponse response = client.post(path).header(HeaderNames.CONTENT_TYPE, JSON).submit(body)) {
            return response.status().code();
        }
    }

    private static String simple(String notificationId) {
        return "/api/v1/public/track/" + notificationId;
    }

    private static String enhanced(String notificationId) {
        return "/api/v1/public/track/" + notificationId + "/enhanced";
    }
}
