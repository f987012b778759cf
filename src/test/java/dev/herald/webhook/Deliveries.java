package dev.herald.webhook;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.herald.ratelimit.IpRange;

/** Transports and deliveries for the tests: loopback allowed by configuration, as an operator would allow a range. */
final class Deliveries {

    static final List<IpRange> LOOPBACK = List.of(IpRange.parse("127.0.0.0/8"), IpRange.parse("::1"));
    static final String BODY = "{\"type\":\"notification.published\",\"data\":{\"id\":\"n_1\",\"title\":\"Ünïcode ✓\"}}";
    private static final SecureRandom RANDOM = new SecureRandom();

    private Deliveries() {
    }

    static HttpWebhookTransport transport(Duration timeout) {
        return transport(new TransportSettings(LOOPBACK, Duration.ofSeconds(2), timeout), HostResolver.system(),
                         Clock.systemUTC());
    }

    static HttpWebhookTransport transport(TransportSettings settings, HostResolver resolver, Clock clock) {
        return new HttpWebhookTransport(settings, resolver, new HttpWebhookTransport.DefaultTls(), clock);
    }

    static String newSecret() {
        return Signatures.newSecret(RANDOM);
    }

    /** A delivery signed with {@code secrets} (newest first), stamped now. */
    static Delivery to(URI url, String... secrets) {
        return new Delivery(url, "msg_" + Long.toHexString(RANDOM.nextLong()), Instant.now(),
                            BODY.getBytes(StandardCharsets.UTF_8),
                            secrets.length == 0 ? List.of(newSecret()) : List.of(secrets));
    }
}
