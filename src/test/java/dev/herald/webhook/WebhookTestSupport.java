package dev.herald.webhook;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

import dev.herald.project.Project;
import dev.herald.support.TestHerald;


/** Endpoints made through the store, a transport written for the test, and reads of the tables as they are. */
final class WebhookTestSupport {

    private WebhookTestSupport() {
    }

    static WebhookEndpoint endpoint(TestHerald herald, Project project, String... types) {
        return endpointAt(herald, project, "https://receiver.example/hook", types);
    }

    static WebhookEndpoint endpointAt(TestHerald herald, Project project, String url, String... types) {
        long now = herald.clock().millis();
        WebhookEndpoint endpoint = new WebhookEndpoint(dev.herald.admin.Ids.newId(), project.id(),
                url, null, List.of(types), EndpointStore.newSecret(), null, null, true,
                null, null, now, now);
        new EndpointStore(herald.serving().client(), herald.services().changes())
                .create(endpoint, herald.fixture("webhook.created", project.id(), endpoint.id()));
        return endpoint;
    }

    /** A receiver in the test: answers what {@code answer} says for each delivery, and remembers every one. */
    static final class ScriptedTransport implements WebhookTransport {

        final ConcurrentLinkedQueue<Delivery> received = new ConcurrentLinkedQueue<>();
        volatile Function<Delivery, Attempt> answer = delivery -> attempt(Attempt.Outcome.DELIVERED, 204);

        @Override
        public Attempt deliver(Delivery delivery) {
            received.add(delivery);
            return answer.apply(delivery);
        }

        List<String> ids() {
            return received.stream().map(Delivery::messageId).toList();
        }
    }

    static Attempt attempt(Attempt.Outcome outcome, int status) {
        return new Attempt(outcome, status, Duration.ofMillis(3), Optional.empty(), "HTTP " + status);
    }

    static long count(TestHerald herald, String sql, Object... parameters) throws SQLException {
        try (Connection connection = herald.database().connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    static List<String> strings(TestHerald herald, String sql, Object... parameters) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = herald.database().connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
            }
        }
        return values;
    }

}
