package dev.herald.feed;

import java.util.List;

import dev.herald.api.EntityTag;
import dev.herald.api.ResponseHeaders;
import dev.herald.apikey.ApiKey;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;

/**
 * A finished answer of a key: for requests without a user token, or for the users who match one set of its targeted
 * notifications. The body as sent, its ETag, the ids it holds, and how long it holds by time alone.
 *
 * @param key        the key, with the settings the answer was built for
 * @param body       the JSON array, UTF-8
 * @param etag       the ETag header, built once
 * @param ids        the notifications of the body, in its order (what a per-user summary of the feed counts)
 * @param builtAt    epoch millis of the "now" the answer was built for
 * @param validUntil epoch millis of the first instant at which time alone changes the answer (a future
 *                   notification starts, a current one has ended), or {@link Long#MAX_VALUE}
 * @param language   the {@code Content-Language} header: the language it is served in (docs/api.md#languages), or
 *                   null where languages are not known
 * @param sent       to run once the answer is written (or not used): releases what it counts in the cache's
 *                   answers in flight; nothing for an answer the cache keeps
 */
public record FeedAnswer(ApiKey key, byte[] body, Header etag, List<String> ids, long builtAt, long validUntil,
                         Header language, Runnable sent) {

    private static final Runnable NOTHING = () -> { };

    static FeedAnswer of(ApiKey key, byte[] body, List<String> ids, long builtAt, long validUntil) {
        return of(key, body, ids, builtAt, validUntil, null, true);
    }

    /**
     * @param home whether {@code language} is the project's default: its answer's ETag is the hash of the body, as
     *             before languages; another language's covers the language too, so that no cache mistakes one
     *             variant for another even where their bodies agree
     */
    static FeedAnswer of(ApiKey key, byte[] body, List<String> ids, long builtAt, long validUntil, Header language,
                         boolean home) {
        String tag = home ? EntityTag.of(body) : EntityTag.of(language.get(), body);
        return new FeedAnswer(key, body, ResponseHeaders.fixed(HeaderNames.ETAG, tag), List.copyOf(ids), builtAt,
                              validUntil, language, NOTHING);
    }

    /**
     * The same answer, whose {@link #sent} runs {@code release}: an answer no cache keeps holds memory of its own
     * until it is written, and the cache counts it until then ({@code FeedCache}).
     */
    FeedAnswer releasing(Runnable release) {
        return new FeedAnswer(key, body, etag, ids, builtAt, validUntil, language, release);
    }

    /** The same answer holds at {@code now}: built for this key's settings, and no start or end date passed since. */
    boolean holdsFor(ApiKey current, long now) {
        return now >= builtAt && now < validUntil && key.equals(current);
    }

    /** The ETag's value, quotes included. */
    public String tag() {
        return etag.get();
    }
}
