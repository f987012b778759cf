package dev.herald.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.StringJoiner;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks' signatures (standardwebhooks.com, spec "Signature scheme"): an endpoint's secret is
 * {@code whsec_} and the base64 of random bytes; each message carries {@code webhook-signature: v1,<base64>}, the
 * HMAC-SHA256, keyed with the secret's bytes, of {@code <webhook-id>.<webhook-timestamp>.<body>}. During a rotation
 * every secret signs, newest first, separated by spaces, so a receiver that holds either one verifies.
 */
public final class Signatures {

    public static final String PREFIX = "whsec_";
    /** Random bytes of a new secret. The spec asks for 24 to 64; 32 is HMAC-SHA256's own block of security. */
    static final int NEW_SECRET_BYTES = 32;
    /** What the spec allows of a secret an operator brings (svix's libraries accept the same). */
    static final int MIN_SECRET_BYTES = 24;
    static final int MAX_SECRET_BYTES = 64;
    private static final String ALGORITHM = "HmacSHA256";

    private Signatures() {
    }

    /** A new secret, {@code whsec_} and 32 random bytes in base64. */
    public static String newSecret(SecureRandom random) {
        byte[] bytes = new byte[NEW_SECRET_BYTES];
        random.nextBytes(bytes);
        return PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * The key of a {@code whsec_} secret. The endpoints API checks a secret an operator brings with it, and the
     * message of the {@link IllegalArgumentException} says what is wrong without repeating the secret.
     */
    public static byte[] key(String secret) {
        if (secret == null || !secret.startsWith(PREFIX)) {
            throw new IllegalArgumentException("a webhook secret starts with " + PREFIX
                                               + " followed by base64 (standardwebhooks.com)");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(secret.substring(PREFIX.length()));
        } catch (IllegalArgumentException notBase64) {
            throw new IllegalArgumentException("a webhook secret is " + PREFIX
                                               + " followed by standard base64 (A-Z, a-z, 0-9, +, /, = padding); "
                                               + "this one is not");
        }
        if (key.length < MIN_SECRET_BYTES || key.length > MAX_SECRET_BYTES) {
            throw new IllegalArgumentException("a webhook secret holds " + MIN_SECRET_BYTES + " to "
                                               + MAX_SECRET_BYTES + " bytes after " + PREFIX + "; this one holds "
                                               + key.length);
        }
        return key;
    }

    /** The {@code webhook-timestamp}: whole seconds since the epoch. */
    public static String timestamp(Instant instant) {
        return Long.toString(instant.getEpochSecond());
    }

    /** The {@code webhook-signature} value: one {@code v1,<base64>} per secret, in the order given. */
    public static String header(String messageId, Instant timestamp, byte[] body, List<String> secrets) {
        if (secrets.isEmpty()) {
            throw new IllegalArgumentException("a message is signed with at least one secret");
        }
        byte[] prefix = (messageId + "." + timestamp(timestamp) + ".").getBytes(StandardCharsets.UTF_8);
        StringJoiner signatures = new StringJoiner(" ");
        for (String secret : secrets) {
            signatures.add("v1," + Base64.getEncoder().encodeToString(hmac(key(secret), prefix, body)));
        }
        return signatures.toString();
    }

    private static byte[] hmac(byte[] key, byte[] prefix, byte[] body) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            mac.update(prefix);
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            // HmacSHA256 is in every JDK (a required algorithm): this is a broken runtime, not bad input.
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
