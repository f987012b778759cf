package dev.herald.webhook;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.herald.ratelimit.IpRange;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static dev.herald.webhook.ScriptedReceiver.answering;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/**
 * The address policy as the transport applies it (docs/webhooks.md#which-addresses-herald-calls): a real receiver
 * listens on loopback, and whatever spelling or name leads to it, Herald with its default policy never connects.
 */
class SsrfDeliveryTest {

    private static final String NO_CONTENT = "HTTP/1.1 204 No Content\r\n\r\n";
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "localhost", "127.1", "2130706433", "0", "0.0.0.0", "[::ffff:127.0.0.1]",
                            "[::1]"})
    void everySpellingOfLoopbackIsRefusedAndNothingIsSent(String host) {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(NO_CONTENT))) {
            Attempt attempt = strict(HostResolver.system()).deliver(
                    Deliveries.to(URI.create("http://" + host + ":" + receiver.port() + "/")));

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.REFUSED));
            assertThat(attempt.status(), is(0));
            assertThat(receiver.connections(), is(0));
        }
    }

    @Test
    void aNameThatResolvesToAPrivateAddressIsRefused() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(NO_CONTENT))) {
            HostResolver dns = names(Map.of("hooks.example.com", List.of(address("127.0.0.1"))));
            Attempt attempt = strict(dns).deliver(
                    Deliveries.to(URI.create("https://hooks.example.com:" + receiver.port() + "/in")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.REFUSED));
            assertThat(attempt.detail(), is("hooks.example.com: 127.0.0.1 is a loopback address; Herald does not "
                                            + "deliver there unless webhooks.allowed-addresses allows it"));
            assertThat(receiver.connections(), is(0));
        }
    }

    @Test
    void aNameIsRefusedWhenAnyOneOfItsAddressesIs() {
        try (ScriptedReceiver receiver = ScriptedReceiver.start(answering(NO_CONTENT))) {
            HostResolver dns = names(Map.of("mixed.example.com",
                                            List.of(address("93.184.215.14"), address("169.254.169.254"))));
            Attempt attempt = strict(dns).deliver(Deliveries.to(URI.create("http://mixed.example.com/")));

            assertThat(attempt.outcome(), is(Attempt.Outcome.REFUSED));
            assertThat(attempt.detail(), is("mixed.example.com: 169.254.169.254 is a link-local address (cloud "
                                            + "metadata among them); Herald does not deliver there unless "
                                            + "webhooks.allowed-addresses allows it"));
        }
    }

    @Test
    void theCheckedAddressIsTheOneConnectedToWithoutASecondLookup() throws UnknownHostException {
        // DNS rebinding: the name answers an allowed address to the check and loopback to any later lookup. Only
        // 127.0.0.2 is allowed; a decoy listens on 127.0.0.1, on the same port.
        InetAddress allowed = address("127.0.0.2");
        try (ScriptedReceiver receiver = ScriptedReceiver.on(allowed, 0, answering(NO_CONTENT));
             ScriptedReceiver decoy = ScriptedReceiver.on(address("127.0.0.1"), receiver.port(),
                                                          answering(NO_CONTENT))) {
            AtomicInteger lookups = new AtomicInteger();
            HostResolver rebinding = host -> List.of(lookups.getAndIncrement() == 0 ? allowed : address("127.0.0.1"));
            HttpWebhookTransport transport = Deliveries.transport(
                    new TransportSettings(List.of(IpRange.parse("127.0.0.2")), Duration.ofSeconds(1), TIMEOUT),
                    rebinding, Clock.systemUTC());

            Attempt attempt = transport.deliver(
                    Deliveries.to(URI.create("http://rebinding.example:" + receiver.port() + "/")));

            assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.DELIVERED));
            assertThat(lookups.get(), is(1));
            assertThat(decoy.connections(), is(0));
            assertThat(receiver.requests().getFirst().header("host"), is("rebinding.example:" + receiver.port()));
        }
    }

    @Test
    void aNameThatDoesNotResolveIsAFailureTriedAgain() {
        Attempt attempt = strict(names(Map.of())).deliver(Deliveries.to(URI.create("https://gone.example/")));

        assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
        assertThat(attempt.detail(), is("no address found for gone.example"));
    }

    @Test
    void aLookupThatHangsCostsTheTimeoutAndNoMore() {
        HostResolver hanging = host -> {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new UnknownHostException(host);
        };
        Attempt attempt = strict(hanging).deliver(Deliveries.to(URI.create("https://slow-dns.example/")));

        assertThat(attempt.outcome(), is(Attempt.Outcome.FAILED));
        assertThat(attempt.detail(), is("no address found for slow-dns.example within " + TIMEOUT));
        assertThat(attempt.latency(), lessThan(TIMEOUT.plusSeconds(2)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ftp://example.com/in", "file:///etc/passwd", "gopher://example.com:70/", "//example.com/",
                            "mailto:hooks@example.com", "https://user:secret@example.com/in", "https://user@example.com/",
                            "http://example.com:0/", "http://example.com:65536/", "https:///path-only"})
    void urlsHeraldDoesNotCallAreRefused(String url) {
        AtomicInteger lookups = new AtomicInteger();
        HostResolver dns = host -> {
            lookups.incrementAndGet();
            return List.of(address("93.184.215.14"));
        };
        Attempt attempt = strict(dns).deliver(Deliveries.to(URI.create(url)));

        assertThat(attempt.detail(), attempt.outcome(), is(Attempt.Outcome.REFUSED));
        assertThat(lookups.get(), is(0));
    }

    private static HttpWebhookTransport strict(HostResolver resolver) {
        return Deliveries.transport(new TransportSettings(List.of(), Duration.ofSeconds(1), TIMEOUT), resolver,
                                    Clock.systemUTC());
    }

    /** A DNS of the test's own: these names, and no other. */
    private static HostResolver names(Map<String, List<InetAddress>> names) {
        return host -> {
            List<InetAddress> addresses = names.get(host);
            if (addresses == null) {
                throw new UnknownHostException(host);
            }
            return addresses;
        };
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
