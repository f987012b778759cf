package dev.herald.webhook;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.herald.support.AdminClient;
import dev.herald.support.ChildHerald;
import dev.herald.support.JsonBodies;
import dev.herald.support.RequiresMariaDb;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.is;

/**
 * Two Herald processes on one MariaDB share the deliveries of one endpoint
 * (docs/webhooks.md#delivery-ordering-and-retries): while both live, each event arrives once; the instance whose
 * request the receiver holds is killed (SIGKILL: no shutdown hook releases its claim), and the other sends that event
 * again, with the same {@code webhook-id}, once the dead instance's lease has expired. Every event created arrives,
 * each signed with the endpoint's secret.
 */
@RequiresMariaDb
class InstanceKilledMidDeliveryMariaDbTest {

    /** Short enough for a fast test; longer than the time-out, as application.yaml asks. */
    private static final Duration LEASE = Duration.ofSeconds(4);
    private static final int NORMAL_EVENTS = 20;
    private static final int EVENTS_AFTER_KILL = 3;
    private static final Pattern DELIVERED_METRIC = Pattern.compile("(?m)^herald_webhook_deliveries_total (\\d+)$");

    @TempDir
    Path directory;

    /** Deliveries the receiver verified and answered 204, in the order they came. */
    private final List<Arrival> answered = new CopyOnWriteArrayList<>();
    /** Requests whose signature or timestamp did not verify: answered 400. */
    private final List<String> refused = new CopyOnWriteArrayList<>();
    /** Set: the next request is read and held unanswered, and written here. */
    private final AtomicBoolean holdNext = new AtomicBoolean();
    private final AtomicReference<Arrival> held = new AtomicReference<>();
    private final CountDownLatch holding = new CountDownLatch(1);
    private volatile String secret;

    record Arrival(String webhookId, String notificationId, long atMillis) {
    }

    @Test
    void theOtherInstanceDeliversWhatAKilledOneHeldAndEveryEventArrivesOnceWhileBothLive() throws Exception {
        try (TestDatabase database = TestDatabase.mariadb();
             ScriptedReceiver receiver = ScriptedReceiver.start(this::answer)) {
            ChildHerald a = ChildHerald.start(directory.resolve("a"), config(database));
            try (a; ChildHerald b = ChildHerald.start(directory.resolve("b"), config(database))) {
                AdminClient onA = admin(a);
                AdminClient onB = admin(b);
                String project = onA.created("/projects", "{\"name\":\"two workers\"}").getString("id");
                secret = onA.created("/projects/" + project + "/webhooks", "{\"url\":\"" + receiver.url("/hook")
                        + "\",\"eventTypes\":[\"notification.created\"]}").getString("secret");

                // The normal case: events written through both instances while both deliver.
                List<String> normal = new ArrayList<>();
                for (int i = 0; i < NORMAL_EVENTS; i++) {
                    normal.add(notification(i % 2 == 0 ? onA : onB, project, "normal " + i));
                }
                await("every event of the normal case arrives", () -> arrived(normal), Duration.ofSeconds(10));
                // A second sender would follow at once (a claim that two won) or after the lease: wait out one lease.
                Thread.sleep(LEASE.toMillis() + 500);
                assertThat("each event of the normal case once", counts(normal), is(ones(normal)));
                assertThat("both instances' deliveries add up to the events", delivered(a) + delivered(b),
                           is((long) NORMAL_EVENTS));

                // An instance dies while the receiver holds its request: nothing else is in flight now.
                holdNext.set(true);
                String victim = notification(onA, project, "killed mid-delivery");
                assertThat("the receiver holds the request", holding.await(10, TimeUnit.SECONDS), is(true));
                assertThat(held.get().notificationId(), is(victim));
                Claim claim = claim(database, held.get().webhookId());
                assertThat("one of the two instances holds the claim", claim.pid() == a.pid() || claim.pid() == b.pid(),
                           is(true));
                ChildHerald holder = claim.pid() == a.pid() ? a : b;
                ChildHerald survivor = holder == a ? b : a;
                holder.kill();
                AdminClient onSurvivor = holder == a ? onB : onA;
                List<String> afterKill = new ArrayList<>();
                for (int i = 0; i < EVENTS_AFTER_KILL; i++) {
                    afterKill.add(notification(onSurvivor, project, "after the kill " + i));
                }

                await("the held event arrives again", () -> arrived(List.of(victim)),
                      LEASE.plus(Duration.ofSeconds(6)));
                await("every event after the kill arrives", () -> arrived(afterKill), Duration.ofSeconds(5));
                Arrival again = answered.stream().filter(arrival -> arrival.notificationId().equals(victim))
                        .findFirst().orElseThrow();
                assertThat("the same message id", again.webhookId(), is(held.get().webhookId()));
                assertThat("not before the dead instance's lease expired", again.atMillis(),
                           greaterThanOrEqualTo(claim.leaseUntil()));
                assertThat("each event after the kill once", counts(afterKill), is(ones(afterKill)));
                assertThat("the survivor delivered the held event and those after the kill", delivered(survivor),
                           greaterThanOrEqualTo(1L + EVENTS_AFTER_KILL));
                assertThat(statuses(database), everyItem(is("DELIVERED")));
                assertThat("every request verified", refused, is(empty()));
            }
        }
    }

    /** Verifies the signature with the endpoint's secret, then holds the request or answers 204. */
    private void answer(Socket socket, ScriptedReceiver.Request request) throws IOException {
        if (request == null) {
            return;
        }
        String notificationId = JsonBodies.object(request.bodyText()).getJsonObject("data")
                .getString("notificationId");
        if (!verified(request)) {
            refused.add(request.header("webhook-id"));
            reply(socket, "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
            return;
        }
        Arrival arrival = new Arrival(request.header("webhook-id"), notificationId, System.currentTimeMillis());
        if (holdNext.compareAndSet(true, false)) {
            held.set(arrival);
            holding.countDown();
            // Read until the sender's process is gone: its kernel closes the connection.
            socket.getInputStream().transferTo(OutputStream.nullOutputStream());
            return;
        }
        answered.add(arrival);
        reply(socket, "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    }

    private static void reply(Socket socket, String answer) throws IOException {
        socket.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    /** Standard Webhooks: HMAC-SHA256 of id.timestamp.body under the secret's decoded bytes, within five minutes. */
    private boolean verified(ScriptedReceiver.Request request) {
        String id = request.header("webhook-id");
        String timestamp = request.header("webhook-timestamp");
        String signatures = request.header("webhook-signature");
        if (id == null || timestamp == null || signatures == null
                || Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(timestamp)) > 300) {
            return false;
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring("whsec_".length())), "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            byte[] expected = mac.doFinal(request.body());
            for (String signature : signatures.split(" ")) {
                if (signature.startsWith("v1,") && MessageDigest.isEqual(expected,
                        Base64.getDecoder().decode(signature.substring(3)))) {
                    return true;
                }
            }
            return false;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    private static String config(TestDatabase database) {
        return ChildHerald.onDatabase(database) + """
                admin:
                  tokens: ["%s"]
                webhooks:
                  allowed-addresses: ["127.0.0.1/32"]
                  poll-interval: PT0.1S
                  lease: %s
                  connect-timeout: PT1S
                  timeout: PT3S
                """.formatted(AdminClient.TOKEN, LEASE);
    }

    private static AdminClient admin(ChildHerald herald) {
        return new AdminClient(Http1Client.builder().baseUri("http://127.0.0.1:" + herald.port()).build());
    }

    /** Creates a draft: its event is notification.created. @return its id */
    private static String notification(AdminClient admin, String project, String message) {
        return admin.created("/projects/" + project + "/notifications", "{\"message\":\"" + message + "\"}")
                .getString("id");
    }

    private boolean arrived(List<String> notifications) {
        Set<String> seen = answered.stream().map(Arrival::notificationId).collect(Collectors.toSet());
        return seen.containsAll(notifications);
    }

    /** How many times each notification's event was answered 204. */
    private Map<String, Long> counts(List<String> notifications) {
        return answered.stream().map(Arrival::notificationId).filter(notifications::contains)
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    private static Map<String, Long> ones(List<String> notifications) {
        return notifications.stream().collect(Collectors.toMap(Function.identity(), id -> 1L));
    }

    /** {@code herald_webhook_deliveries_total} of one instance. */
    private static long delivered(ChildHerald herald) {
        Http1Client observe = Http1Client.builder().baseUri("http://127.0.0.1:" + herald.observePort()).build();
        try (Http1ClientResponse response = observe.get("/observe/metrics").request()) {
            Matcher matcher = DELIVERED_METRIC.matcher(response.as(String.class));
            assertThat("herald_webhook_deliveries_total is reported", matcher.find(), is(true));
            return Long.parseLong(matcher.group(1));
        }
    }

    /** Who claimed a delivery: the worker names itself host-pid-random ({@code DeliveryWorker.worker()}). */
    record Claim(long pid, long leaseUntil) {
    }

    private static Claim claim(TestDatabase database, String eventId) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT claimed_by, lease_until FROM webhook_deliveries WHERE event_id = ?")) {
            select.setString(1, eventId);
            try (ResultSet row = select.executeQuery()) {
                assertThat("the delivery exists", row.next(), is(true));
                String[] parts = row.getString("claimed_by").split("-");
                return new Claim(Long.parseLong(parts[parts.length - 2]), row.getLong("lease_until"));
            }
        }
    }

    private static List<String> statuses(TestDatabase database) throws SQLException {
        List<String> statuses = new ArrayList<>();
        try (Connection connection = database.connect();
             ResultSet rows = connection.createStatement().executeQuery("SELECT status FROM webhook_deliveries")) {
            while (rows.next()) {
                statuses.add(rows.getString(1));
            }
        }
        return statuses;
    }

    private static void await(String what, BooleanSupplier condition, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(what + ": not within " + within);
            }
            Thread.sleep(20);
        }
    }
}
