package dev.herald.webhook;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Standard Webhooks' signature scheme; StandardWebhooksInteropTest holds it to the reference library. */
class SignaturesTest {

    /** The example of the Standard Webhooks libraries' documentation and tests, which Herald did not compute. */
    private static final String SPEC_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    private static final String SPEC_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    private static final Instant SPEC_TIMESTAMP = Instant.ofEpochSecond(1614265330);
    private static final byte[] SPEC_BODY = "{\"test\": 2432232314}".getBytes(StandardCharsets.UTF_8);

    @Test
    void theSpecificationsExampleSignsAsPublished() {
        assertThat(Signatures.header(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of(SPEC_SECRET)),
                   is("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
    }

    @Test
    void duringARotationEachSecretSignsNewestFirst() {
        String newer = Deliveries.newSecret();
        String both = Signatures.header(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of(newer, SPEC_SECRET));

        assertThat(both, is(Signatures.header(SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY, List.of(newer)) + " "
                            + "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="));
    }

    @Test
    void theTimestampIsWholeSeconds() {
        assertThat(Signatures.timestamp(Instant.parse("2026-11-28T20:00:00.987Z")), is("1795896000"));
    }

    @Test
    void aNewSecretIsWhsecAnd32RandomBytes() {
        Set<String> seen = new HashSet<>();
        SecureRandom random = new SecureRandom();
        for (int i = 0; i < 100; i++) {
            String secret = Signatures.newSecret(random);
            assertThat(secret, startsWith("whsec_"));
            assertThat(Signatures.key(secret).length, is(32));
            seen.add(secret);
        }
        assertThat(seen.size(), is(100));
    }

    @Test
    void aMalformedSecretIsRefusedSayingWhyWithoutRepeatingIt() {
        String noPrefix = Base64.getEncoder().encodeToString(new byte[32]);
        String notBase64 = "whsec_not*base64*at*all*but*long*enough";
        String tooShort = "whsec_" + Base64.getEncoder().encodeToString(new byte[16]);
        String tooLong = "whsec_" + Base64.getEncoder().encodeToString(new byte[65]);

        assertThat(refusal(noPrefix), containsString("starts with whsec_"));
        assertThat(refusal(notBase64), containsString("standard base64"));
        assertThat(refusal(notBase64), not(containsString("not*base64")));
        assertThat(refusal(tooShort), containsString("holds 24 to 64 bytes after whsec_; this one holds 16"));
        assertThat(refusal(tooLong), containsString("this one holds 65"));
        assertThat(refusal(null), containsString("starts with whsec_"));
        assertThat(Signatures.key(SPEC_SECRET).length, is(24));
    }

    private static String refusal(String secret) {
        return assertThrows(IllegalArgumentException.class, () -> Signatures.key(secret)).getMessage();
    }
}
