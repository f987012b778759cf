package dev.herald.feed;

/**
 * The feed cache now, for {@code /observe/metrics}.
 *
 * @param keys        keys whose feed is held in memory
 * @param bytes       what they hold: answers' bodies, and the entries the answers for users are joined from
 * @param hits        answers served without reading the database since start
 * @param misses      answers built from the database since start (the cache off: none counted)
 * @param userAnswers answers for users held, one per key and set of targeted notifications matched
 * @param userHits    requests with a user token answered by an answer for users held
 * @param userBuilds  answers for users built from a key's feed in memory (a set of matches not held yet)
 * @param variants    a key's feed held in another language than its project's default, one per key and language
 *                    served (docs/api.md#languages): bounded by the languages of the keys' notifications, not by what
 *                    readers ask for
 * @param languagesShed requests answered in their project's default language rather than the one they asked for,
 *                      because that language's answer was not kept and the answers built for single requests
 *                      already held what they may (docs/api.md#which-language-a-reader-gets)
 */
public record FeedCacheFigures(int keys, long bytes, long hits, long misses, long userAnswers, long userHits,
                               long userBuilds, long variants, long languagesShed) {

    /** Figures of a cache that holds no other language. */
    public FeedCacheFigures(int keys, long bytes, long hits, long misses, long userAnswers, long userHits,
                            long userBuilds) {
        this(keys, bytes, hits, misses, userAnswers, userHits, userBuilds, 0, 0);
    }

    /** Figures of a cache no user token reached. */
    public FeedCacheFigures(int keys, long bytes, long hits, long misses) {
        this(keys, bytes, hits, misses, 0, 0, 0);
    }
}
