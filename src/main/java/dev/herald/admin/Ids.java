package dev.herald.admin;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Identifiers the server makes: ids for projects and notifications, and API keys.
 */
public final class Ids {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHANUMERIC =
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".toCharArray();
    private static final int KEY_LENGTH = 40;

    private Ids() {
    }

    /** 128 random bits in 22 characters of {@code [A-Za-z0-9_-]}: the pattern public ids must match. */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * 40 alphanumerics from a secure source, about 238 bits
     * (docs/api.md, POST /api/v1/admin/projects/{projectId}/api-keys).
     */
    public static String newApiKey() {
        char[] key = new char[KEY_LENGTH];
        for (int i = 0; i < KEY_LENGTH; i++) {
            key[i] = ALPHANUMERIC[RANDOM.nextInt(ALPHANUMERIC.length)];
        }
        return new String(key);
    }
}
