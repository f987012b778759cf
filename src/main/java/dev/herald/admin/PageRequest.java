package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.ApiException;

import io.helidon.webserver.http.ServerRequest;

/**
 * What page of a management list a request asks for (docs/api.md#pages): {@code ?limit=} (default 100, 1 to 1000)
 * and the opaque {@code ?cursor=} of a previous page's {@code Link: <…>; rel="next"}. A list used to be read whole:
 * 10,000 notifications of 2 KB in one answer ended the process (OutOfMemoryError).
 *
 * @param limit the most items the page holds
 * @param after where the page starts: after this item of the list's order; empty for the first page
 */
public record PageRequest(int limit, Optional<Cursor> after) {

    public static final int DEFAULT_LIMIT = 100;
    public static final int MAX_LIMIT = 1000;

    public static PageRequest of(ServerRequest request) {
        return of(request, DEFAULT_LIMIT, MAX_LIMIT);
    }

    /** The same for a list of other bounds (a project's stats: docs/api.md#stats). */
    public static PageRequest of(ServerRequest request, int defaultLimit, int maxLimit) {
        return new PageRequest(AdminRequests.limit(request, defaultLimit, maxLimit),
                               AdminRequests.queryParameter(request, "cursor").map(Cursor::decode));
    }

    /**
     * A place in a list ordered by creation time, then by a second key that tells items created in the same
     * millisecond apart: stable under concurrent writes, since an item's place never changes (keyset pagination; an
     * offset would skip or repeat items as others are created or deleted). Opaque to clients: base64url of its two
     * parts.
     */
    public record Cursor(long createdAt, String tiebreak) {

        private static final Pattern FORM = Pattern.compile("c1\\.(-?\\d{1,19})\\.([A-Za-z0-9_-]{1,64})");

        /**
         * The second key as a number, for lists ordered by a sequence: one that is not a number (made by hand) starts
         * nowhere rather than failing.
         */
        public long sequence() {
            try {
                return Long.parseLong(tiebreak);
            } catch (NumberFormatException e) {
                return Long.MIN_VALUE;
            }
        }

        public String encode() {
            return Base64.getUrlEncoder().withoutPadding()
                    .encodeToString(("c1." + createdAt + "." + tiebreak).getBytes(StandardCharsets.US_ASCII));
        }

        static Cursor decode(String text) {
            try {
                Matcher form = FORM.matcher(new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII));
                if (form.matches()) {
                    return new Cursor(Long.parseLong(form.group(1)), form.group(2));
                }
            } catch (IllegalArgumentException e) {
                // answered below: not base64url, or a number out of range
            }
            throw ApiException.validation("cursor", "cursor must be the cursor of a previous page's Link header");
        }
    }
}
