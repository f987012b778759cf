package dev.herald.apikey;

/**
 * A project's public key and the settings that shape what Get Notifications returns for it.
 *
 * @param revokedAt        epoch millis of revocation, or null while the key works
 * @param requireUserToken whether a request without a user token is refused (401 USER_TOKEN_REQUIRED)
 */
public record ApiKey(String key,
                     String projectId,
                     boolean showPast,
                     boolean showFuture,
                     OrderBy orderBy,
                     long createdAt,
                     Long revokedAt,
                     boolean requireUserToken) {

    /** A key that serves anonymous clients, as every key did before user tokens. */
    public ApiKey(String key, String projectId, boolean showPast, boolean showFuture, OrderBy orderBy, long createdAt,
                  Long revokedAt) {
        this(key, projectId, showPast, showFuture, orderBy, createdAt, revokedAt, false);
    }

    private static final int MIN_LENGTH = 32;
    private static final int MAX_LENGTH = 64;

    /**
     * 32-64 ASCII letters and digits (docs/api.md, GET /api/v1/public/{apiKey}/notifications). A loop, not a regex:
     * every feed request asks.
     */
    public static boolean isWellFormed(String key) {
        if (key == null || key.length() < MIN_LENGTH || key.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }
}
