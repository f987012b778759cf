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
    private static final int MAX_ID_LENGTH = 64;

    private Ids() {
    }

    /** 128 random bits in 22 characters of {@code [A-Za-z0-9_-]}: the pattern public ids must match. */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * Whether a client's id of a project or notification can be one: 1 to 64 of {@code [A-Za-z0-9_-]}, what tracking
     * takes (docs/api.md, POST /api/v1/public/track/{notificationId}, check 1) and wider than what {@link #newId}
     * makes, so that ids written by an import or by hand stay reachable. Anything else is not found without asking
     * the database, and a stored row whose id is not of this form (written around Herald) is never read by such an id
     * into a header ({@code Location}, {@code Content-Disposition}). A loop: tracking asks on every request.
     */
    public static boolean isWellFormed(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
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
