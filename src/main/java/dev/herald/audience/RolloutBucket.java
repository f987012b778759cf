package dev.herald.audience;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A user's place, 0 to 99, in a notification's rollout: SHA-256 over the notification's id then the user's
 * {@code sub} (UTF-8), its first 8 bytes as an unsigned number modulo 100. Stable across instances, restarts and
 * versions of Herald; another notification (a duplicate included: it has a new id) draws its users afresh, so the
 * same 10 % do not get every experiment.
 */
public final class RolloutBucket {

    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    });

    private RolloutBucket() {
    }

    public static int of(String notificationId, String subject) {
        MessageDigest digest = SHA_256.get();
        digest.update(notificationId.getBytes(StandardCharsets.UTF_8));
        byte[] hash = digest.digest(subject.getBytes(StandardCharsets.UTF_8));
        long first = 0;
        for (int i = 0; i < Long.BYTES; i++) {
            first = (first << 8) | (hash[i] & 0xff);
        }
        return (int) Long.remainderUnsigned(first, 100);
    }
}
