package dev.herald.apikey;

import java.util.regex.Pattern;

/**
 * A project's public key and the settings that shape what Get Notifications returns for it.
 *
 * @param revokedAt epoch millis of revocation, or null while the key works
 */
public record ApiKey(String key,
                     String projectId,
                     boolean showPast,
                     boolean showFuture,
                     OrderBy orderBy,
                     long createdAt,
                     Long revokedAt) {

    /** public-api.md §4.1: 32-64 alphanumeric characters. */
    private static final Pattern FORMAT = Pattern.compile("[a-zA-Z0-9]{32,64}");

    public static boolean isWellFormed(String key) {
        return key != null && FORMAT.matcher(key).matches();
    }
}
