package dev.herald.feed;

import java.util.List;

import dev.herald.api.EntityTag;
import dev.herald.apikey.ApiKey;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;

/**
 * A key's finished answer: the body as sent, its ETag, and how long it holds by time alone.
 *
 * @param key        the key, with the settings the answer was built for
 * @param ids        the notifications' ids in the answer, in its order (what per-user state counts over)
 * @param body       the JSON array, UTF-8
 * @param etag       the ETag header, built once
 * @param builtAt    epoch millis of the "now" the answer was built for
 * @param validUntil epoch millis of the first instant at which time alone changes the answer (a future
 *                   notification starts, a current one has ended), or {@link Long#MAX_VALUE}
 */
public record FeedAnswer(ApiKey key, List<String> ids, byte[] body, Header etag, long builtAt, long validUntil) {

    public FeedAnswer {
        ids = List.copyOf(ids);
    }

    static FeedAnswer of(ApiKey key, List<String> ids, byte[] body, long builtAt, long validUntil) {
        return new FeedAnswer(key, ids, body, HeaderValues.create(HeaderNames.ETAG, EntityTag.of(body)), builtAt,
                              validUntil);
    }

    /** The same answer holds at {@code now}: built for this key's settings, and no start or end date passed since. */
    boolean holdsFor(ApiKey current, long now) {
        return now >= builtAt && now < validUntil && key.equals(current);
    }

    /** The ETag's value, as the feed answers it. */
    public String tag() {
        return etag.get();
    }
}
