package dev.herald.webhook;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.support.NodeProject;
import dev.herald.support.ServerProcess;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;

/**
 * Herald's deliveries verified by code Herald did not write, in processes of their own: the receivers of
 * docs/webhooks.md#verifying-a-delivery, run as they are published (docs/examples/), one on the Standard Webhooks
 * reference library (npm {@code standardwebhooks}, pinned by src/test/interop-webhooks), one on Python's standard
 * library. Each answers 204 only for a delivery it verified, 400 otherwise.
 */
class StandardWebhooksInteropTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    enum Receiver {
        NODE_STANDARDWEBHOOKS, PYTHON_STANDARD_LIBRARY;

        ServerProcess start(String secret) {
            Map<String, String> environment = Map.of("WEBHOOK_SECRET", secret);
            String purpose = "StandardWebhooksInteropTest runs the receivers of docs/webhooks.md against deliveries";
            return this == NODE_STANDARDWEBHOOKS
                    ? NodeProject.WEBHOOKS.startServer(environment, purpose)
                    : ServerProcess.python(Path.of("docs/examples/webhook_receiver.py"), environment, purpose);
        }
    }

    @ParameterizedTest
    @EnumSource(Receiver.class)
    void aDeliveryVerifies(Receiver kind) {
        String secret = Deliveries.newSecret();
        try (ServerProcess receiver = kind.start(secret)) {
            Delivery delivery = Deliveries.to(url(receiver), secret);
            Attempt attempt = Deliveries.transport(TIMEOUT).deliver(delivery);

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(attempt.status(), is(204));
            String line = "verified " + delivery.messageId() + " notification.published";
            assertThat(eventually(receiver, line), containsString(line));
        }
    }

    @ParameterizedTest
    @EnumSource(Receiver.class)
    void duringARotationAReceiverHoldingEitherSecretVerifiesTheSameDelivery(Receiver kind) {
        String old = Deliveries.newSecret();
        String rotated = Deliveries.newSecret();
        try (ServerProcess holdsOld = kind.start(old); ServerProcess holdsNew = kind.start(rotated)) {
            Delivery toOld = new Delivery(url(holdsOld), "msg_rotation", Instant.now(),
                                          Deliveries.BODY.getBytes(StandardCharsets.UTF_8), List.of(rotated, old));
            Delivery toNew = new Delivery(url(holdsNew), toOld.messageId(), toOld.timestamp(), toOld.body(),
                                          toOld.secrets());
            HttpWebhookTransport transport = Deliveries.transport(TIMEOUT);

            Attempt atOld = transport.deliver(toOld);
            Attempt atNew = transport.deliver(toNew);

            assertThat(atOld.detail(), atOld.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(atNew.detail(), atNew.outcome(), is(Attempt.Outcome.DELIVERED));
        }
    }

    @ParameterizedTest
    @EnumSource(Receiver.class)
    void aDeliverySignedWithAnotherSecretOrLongAgoIsRefused(Receiver kind) {
        String secret = Deliveries.newSecret();
        try (ServerProcess receiver = kind.start(secret)) {
            HttpWebhookTransport transport = Deliveries.transport(TIMEOUT);

            Attempt otherSecret = transport.deliver(Deliveries.to(url(receiver), Deliveries.newSecret()));
            Attempt stale = transport.deliver(new Delivery(url(receiver), "msg_stale",
                                                           Instant.now().minus(Duration.ofMinutes(10)),
                                                           Deliveries.BODY.getBytes(StandardCharsets.UTF_8),
                                                           List.of(secret)));

            assertThat(otherSecret.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(otherSecret.status(), is(400));
            assertThat(stale.outcome(), is(Attempt.Outcome.FAILED));
            assertThat(stale.status(), is(400));
        }
    }

    @Test
    void everyLineTheDocumentShowsIsALineOfTheExampleThatRuns() throws IOException {
        String document = Files.readString(Path.of("docs/webhooks.md"));
        assertThat(unshownLines(document, "js", Path.of("docs/examples/webhook-receiver.mjs")), is(List.of()));
        assertThat(unshownLines(document, "python", Path.of("docs/examples/webhook_receiver.py")), is(List.of()));
    }

    /** The lines of the document's {@code language} block that are not, in order, lines of {@code example}. */
    private static List<String> unshownLines(String document, String language, Path example) throws IOException {
        Matcher block = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(document);
        assertThat("docs/webhooks.md has a " + language + " example", block.find(), is(true));
        List<String> lines = Files.readAllLines(example);
        List<String> unshown = new ArrayList<>();
        int next = 0;
        for (String line : block.group(1).split("\n")) {
            if (line.isBlank() || line.strip().equals("// ...") || line.strip().equals("# ...")) {
                continue;
            }
            int found = lines.subList(next, lines.size()).indexOf(line);
            if (found < 0) {
                unshown.add(line);
            } else {
                next += found + 1;
            }
        }
        return unshown;
    }

    private static URI url(ServerProcess receiver) {
        return URI.create("http://127.0.0.1:" + receiver.port() + "/webhooks/herald");
    }

    /**
     * The receiver prints its line after answering, and a pipe may hand it over in pieces: wait a little for the
     * whole of it.
     */
    private static String eventually(ServerProcess receiver, String text) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!receiver.output().contains(text) && System.nanoTime() < deadline) {
            sleep();
        }
        return receiver.output();
    }

    private static void sleep() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
