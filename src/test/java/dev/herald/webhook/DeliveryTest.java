package dev.herald.webhook;

import java.net.URI;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

class DeliveryTest {

    @Test
    void itsTextShowsNoSecretNorTheUrlsPathOrQuery() {
        String secret = Deliveries.newSecret();
        Delivery delivery = Deliveries.to(URI.create("https://hooks.slack.example/services/T0/B0/tokenInPath?key=k1"),
                                          secret);

        String text = delivery.toString();
        assertThat(text, not(containsString(secret)));
        assertThat(text, not(containsString(secret.substring("whsec_".length()))));
        assertThat(text, not(containsString("tokenInPath")));
        assertThat(text, not(containsString("k1")));
        assertThat(text, containsString("hooks.slack.example"));
        assertThat(text, containsString(delivery.messageId()));
    }
}
