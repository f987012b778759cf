package dev.herald.export;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A place in the per-user state export's order, (changed at, user key, notification id): a row is after it when it
 * changed later, or at the same time with a larger key. The keys compare as the database compares them (MariaDB's
 * utf8mb4_bin, H2's code units); the service only compares places whose keys are a row's and the empty ones of
 * {@link #before}, which come first in either.
 */
record StatePosition(long at, String userKey, String notificationId) implements Comparable<StatePosition> {

    /** After every row that changed before {@code instant}, and before any other: no row has empty keys. */
    static StatePosition before(long instant) {
        return new StatePosition(instant, "", "");
    }

    /** The keys in a cursor: base64url of the user key, a line feed (in neither key), the notification id. */
    String tiebreak() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((userKey + "\n" + notificationId).getBytes(StandardCharsets.UTF_8));
    }

    /** @throws IllegalArgumentException for text {@link #tiebreak} never writes */
    static StatePosition of(long at, String tiebreak) {
        String keys = new String(Base64.getUrlDecoder().decode(tiebreak), StandardCharsets.UTF_8);
        int separator = keys.indexOf('\n');
        if (separator < 0) {
            throw new IllegalArgumentException("no separator");
        }
        return new StatePosition(at, keys.substring(0, separator), keys.substring(separator + 1));
    }

    @Override
    public int compareTo(StatePosition other) {
        int byTime = Long.compare(at, other.at);
        if (byTime != 0) {
            return byTime;
        }
        int byUser = userKey.compareTo(other.userKey);
        return byUser != 0 ? byUser : notificationId.compareTo(other.notificationId);
    }
}
