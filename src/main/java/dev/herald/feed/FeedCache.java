package dev.herald.feed;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.apikey.ApiKey;
import dev.herald.changes.Change;
import dev.herald.changes.ChangeListener;
import dev.herald.changes.ChangeLog;
import dev.herald.identity.UserIdentity;

/**
 * Finished feed answers per key, so that a hit reads no database and writes no JSON: the answer for requests without a
 * user token, and, where the key's project targets notifications, one answer per set of them that users match, kept
 * by that set, never by user (users matching the same set share one answer). Each of these per language served
 * (docs/api.md#languages): the project's default from the load, another built from it when a reader is first served
 * it, so a key holds at most one per language its notifications have, whatever headers readers send; the language
 * each header value is served is remembered per key (a few dozen values), so a hit parses none.
 *
 * <p>Exact: an answer is used only while its dates say it holds ({@link FeedAnswer#holdsFor}), while the change log
 * is fresh, and until a change to its project drops it, with every answer for users of the key. A load that a change
 * overtook is answered but not kept: the generation counter goes up with every change, and a load keeps its result
 * only if it did not move meanwhile. The answers for users are built from the key's load, so they are exactly as
 * fresh as it is.
 *
 * <p>Bounded by a number of keys and of bytes (bodies, the entries the answers for users are joined from, the other
 * languages and the header values remembered), least recently used key out first, in batches of a tenth so that
 * eviction costs a sort now and then, not a scan per request; a key keeps at most {@value #MAX_SETS_PER_KEY} answers
 * for users per language. Only keys that {@code ActiveKeys} knows ever get here. Simultaneous misses of one key share
 * one load.
 */
final class FeedCache implements ChangeListener {

    /**
     * Beyond this many sets of one key in one language, its answers for users in it are dropped and built again from
     * memory.
     */
    static final int MAX_SETS_PER_KEY = 1024;
    /**
     * Values of {@code Accept-Language} (and of single tags) a key remembers the served language of; beyond, it
     * forgets them all and starts again: real readers send a few dozen values, a client sending a new one per
     * request only makes its own requests parse theirs.
     */
    static final int MAX_REMEMBERED = 64;
    /** Longer values are looked up every time, never remembered: no browser sends one. */
    static final int MAX_REMEMBERED_LENGTH = 256;
    /** Remembered for a value that names none of a load's languages. */
    private static final String NONE = "";
    /** The least the answers in flight in a language the cache could not keep may take, whatever the cache's size. */
    private static final long MIN_UNKEPT_BYTES = 2L * 1024 * 1024;

    /** Loads a key's feed at an instant, from the database. */
    interface Loader {
        /**
         * @param toKeep whether the answer may be kept: only then is its validity worth the queries it takes
         *               ({@link FeedAnswer#validUntil()} is otherwise {@code now + 1})
         */
        KeyFeed load(ApiKey key, long now, boolean toKeep);
    }

    private final Loader loader;
    private final ChangeLog changes;
    private final boolean enabled;
    private final int maxKeys;
    private final long maxBytes;

    private final Map<String, Cached> answers = new ConcurrentHashMap<>();
    private final Map<String, Load> loads = new ConcurrentHashMap<>();
    private final AtomicLong generation = new AtomicLong();
    /** Goes up with every answer stored; an answer used since the last store is marked with it (approximate LRU). */
    private final AtomicLong useClock = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong userAnswers = new AtomicLong();
    private final AtomicLong variants = new AtomicLong();
    /**
     * Bytes of the answers built, in another language than the default, for requests the cache could not keep them
     * for (its bound full of other languages), from the start of their build until they are written: at most
     * {@link #unkeptBudget}. Past it a request is answered in the project's default language, which the cache holds:
     * readers asking for fifty languages of a megabyte each must not hold fifty megabytes at once (-Xmx80m).
     */
    private final AtomicLong unkept = new AtomicLong();
    private final long unkeptBudget;
    private final LongAdder languagesShed = new LongAdder();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder userHits = new LongAdder();
    private final LongAdder userBuilds = new LongAdder();

    FeedCache(Loader loader, ChangeLog changes, FeedCacheSettings settings) {
        this.loader = loader;
        this.changes = changes;
        this.enabled = settings.enabled();
        this.maxKeys = settings.maxKeys();
        this.maxBytes = settings.maxBytes();
        this.unkeptBudget = Math.max(MIN_UNKEPT_BYTES, maxBytes / 4);
        if (enabled) {
            changes.listen(this);
        }
    }

    /**
     * @param user      the request's verified user, or null for a request without a token
     * @param parameter the request's {@code locale} parameter, or null
     * @param header    the request's {@code Accept-Language}, or null
     */
    FeedAnswer answer(ApiKey key, UserIdentity user, String parameter, String header, long now) {
        if (!enabled || !changes.isFresh()) {
            if (enabled) {
                misses.increment();
            }
            KeyFeed loaded = loader.load(key, now, false);
            return inServedLanguage(loaded, user, parameter, header).answerFor(user, now);
        }
        Cached cached = answers.get(key.key());
        if (cached != null && cached.feed.holdsFor(key, now)) {
            cached.markUsed(useClock.get());
            hits.increment();
            return answer(cached, user, parameter, header, now);
        }
        misses.increment();
        return loadShared(key, user, parameter, header, now);
    }

    private static KeyFeed inServedLanguage(KeyFeed loaded, UserIdentity user, String parameter, String header) {
        String served = loaded.served(user == null ? null : user.locale(), parameter, header);
        return served == null || served.equals(loaded.language()) ? loaded : loaded.in(served);
    }

    /** From the key's load in memory, in the language the request is served. */
    private FeedAnswer answer(Cached cached, UserIdentity user, String parameter, String header, long now) {
        if (cached.feed.hasOtherLanguages() && (user != null && user.locale() != null || parameter != null
                || header != null)) {
            String served = cached.served(user == null ? null : user.locale(), parameter, header);
            Variant kept = cached.kept(served);
            return kept != null ? answer(cached, kept, user, now) : unkept(cached, served, user, now);
        }
        return answer(cached, cached.home, user, now);
    }

    private FeedAnswer answer(Cached cached, Variant variant, UserIdentity user, long now) {
        return user == null ? variant.feed.everyone() : forUser(cached, variant, user, now);
    }

    /**
     * In a language no answer is kept in yet: built once (requests for it meanwhile wait for that build) and kept if
     * the cache's bound allows; otherwise the answer is this request's own, counted in {@link #unkept} until it is
     * written, and where that count is full the request gets the default language instead (Content-Language says
     * so).
     */
    private FeedAnswer unkept(Cached cached, String language, UserIdentity user, long now) {
        // The builder's buffer may grow to twice the answer: what is counted until the answer's size is known.
        long reserved = 2L * cached.home.feed.everyone().body().length + 4096;
        if (!reserve(reserved)) {
            languagesShed.increment();
            return answer(cached, cached.home, user, now);
        }
        long held = reserved;
        try {
            Variant variant = cached.variant(language);
            FeedAnswer answer = answer(cached, variant, user, now);
            if (variant.kept) {
                return answer;
            }
            long size = answer.body().length;
            unkept.addAndGet(size - reserved);
            held = 0;
            return answer.releasing(() -> unkept.addAndGet(-size));
        } finally {
            if (held > 0) {
                unkept.addAndGet(-held);
            }
        }
    }

    private boolean reserve(long bytes) {
        for (long now = unkept.get(); now + bytes <= unkeptBudget; now = unkept.get()) {
            if (unkept.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
        return false;
    }

    /** From the key's load in memory: the answer kept for the user's set, or one built now and kept. */
    private FeedAnswer forUser(Cached cached, Variant variant, UserIdentity user, long now) {
        MatchSet set = cached.feed.matched(user, now);
        if (set == null) {
            return variant.feed.everyone();
        }
        FeedAnswer kept = variant.sets.get(set);
        if (kept != null) {
            userHits.increment();
            return kept;
        }
        userBuilds.increment();
        FeedAnswer built = variant.feed.answer(set);
        if (cached.keep(variant, set, built)) {
            evictIfOver();
        }
        return built;
    }

    /**
     * One load per key at a time. A request that finds one running may use its result only if no change came
     * between that load's start and this request: otherwise the result may predate what this request must see.
     */
    private FeedAnswer loadShared(ApiKey key, UserIdentity user, String parameter, String header, long now) {
        long arrived = generation.get();
        Load mine = new Load(arrived);
        Load running = loads.putIfAbsent(key.key(), mine);
        if (running != null) {
            Cached shared = running.await();
            if (shared != null && running.generation == arrived && shared.feed.holdsFor(key, now)) {
                return answer(shared, user, parameter, header, now);
            }
            KeyFeed loaded = loader.load(key, now, false);
            return inServedLanguage(loaded, user, parameter, header).answerFor(user, now);
        }
        try {
            Cached loaded = new Cached(loader.load(key, now, true), useClock.incrementAndGet());
            mine.result.complete(loaded);
            keep(key.key(), loaded, arrived);
            return answer(loaded, user, parameter, header, now);
        } catch (RuntimeException e) {
            mine.result.complete(null);
            throw e;
        } finally {
            loads.remove(key.key(), mine);
        }
    }

    private void keep(String key, Cached loaded, long loadedAtGeneration) {
        if (!loaded.count()) {
            return;
        }
        Cached previous = answers.put(key, loaded);
        if (previous != null) {
            previous.close();
        }
        if (generation.get() != loadedAtGeneration) {
            // A change came during the load: this answer may show what it replaced.
            drop(key);
        }
        evictIfOver();
    }

    private void evictIfOver() {
        if (answers.size() > maxKeys || bytes.get() > maxBytes) {
            evictLeastRecentlyUsed();
        }
    }

    @Override
    public void changed(Change change) {
        generation.incrementAndGet();
        answers.keySet().forEach(key -> {
            Cached cached = answers.get(key);
            if (cached != null && cached.feed.everyone().key().projectId().equals(change.projectId())) {
                drop(key);
            }
        });
    }

    @Override
    public void reset() {
        generation.incrementAndGet();
        answers.keySet().forEach(this::drop);
    }

    private void drop(String key) {
        Cached removed = answers.remove(key);
        if (removed != null) {
            removed.close();
        }
    }

    /** Down to nine tenths of both bounds. Synchronized: one eviction at a time is enough, and they are rare. */
    private synchronized void evictLeastRecentlyUsed() {
        long keysTarget = maxKeys - Math.max(1, maxKeys / 10);
        long bytesTarget = maxBytes - maxBytes / 10;
        if (answers.size() <= maxKeys && bytes.get() <= maxBytes) {
            return;
        }
        List<Map.Entry<String, Cached>> oldestFirst = answers.entrySet().stream()
                .sorted(Comparator.comparingLong(entry -> entry.getValue().lastUsed))
                .toList();
        for (Map.Entry<String, Cached> entry : oldestFirst) {
            if (answers.size() <= keysTarget && bytes.get() <= bytesTarget) {
                return;
            }
            if (answers.remove(entry.getKey(), entry.getValue())) {
                entry.getValue().close();
            }
        }
    }

    FeedCacheFigures figures() {
        return new FeedCacheFigures(answers.size(), bytes.get(), hits.sum(), misses.sum(), userAnswers.get(),
                                    userHits.sum(), userBuilds.sum(), variants.get(), languagesShed.sum());
    }

    /**
     * A key's load, its other languages and the answers for users built from them. What it counts in the cache's bytes
     * changes under its lock, and stops counting once it is closed (dropped, evicted or replaced): a language or an
     * answer for users built meanwhile is then served but not kept, so the count never drifts.
     */
    private final class Cached {
        private final KeyFeed feed;
        private final Variant home;
        /** The load in the other languages readers were served: at most one per language it has. */
        private final Map<String, Variant> languages = new ConcurrentHashMap<>();
        /**
         * The language each {@code Accept-Language} value seen is served (empty: none of the load's), so that a hit
         * parses no header: browsers send a few values per language, the same ones over and over.
         */
        private final Map<String, String> servedByHeader = new ConcurrentHashMap<>();
        /** The same for a token's {@code locale} claim and the {@code locale} parameter. */
        private final Map<String, String> servedByTag = new ConcurrentHashMap<>();
        /** The builds of other languages under way, one per language. */
        private final Map<String, CompletableFuture<Variant>> building = new ConcurrentHashMap<>();
        /** Written without ordering: a lost update only makes the LRU order a little less exact. */
        private long lastUsed;
        /** What it counts besides its load: other languages, answers for users, what the memos hold. */
        private long extraBytes;
        private boolean closed;

        private Cached(KeyFeed feed, long lastUsed) {
            this.feed = feed;
            this.home = new Variant(feed, true);
            this.lastUsed = lastUsed;
        }

        /** Writes only when it changes, so that requests for one hot key do not all write one cache line. */
        private void markUsed(long now) {
            if (lastUsed != now) {
                lastUsed = now;
            }
        }

        /**
         * The language a request is served: the first of claim, parameter and header (in that order,
         * docs/api.md#languages) that names one of the load's, else the project's default. The same as
         * {@link KeyFeed#served}, each part looked up once per value and remembered.
         */
        private String served(String claim, String parameter, String header) {
            String served = claim == null ? null : remembered(servedByTag, claim, true);
            if (served == null && parameter != null) {
                served = remembered(servedByTag, parameter, true);
            }
            if (served == null && header != null) {
                served = remembered(servedByHeader, header, false);
            }
            return served == null ? feed.home() : served;
        }

        private String remembered(Map<String, String> memo, String requested, boolean tag) {
            String served = memo.get(requested);
            if (served == null) {
                String found = tag ? feed.servedForTag(requested) : feed.servedForHeader(requested);
                served = found == null ? NONE : found;
                if (remember(memo, requested, served)) {
                    evictIfOver();
                }
            }
            return served.isEmpty() ? null : served;
        }

        /** @return whether it was kept (the cache's bytes then grew) */
        private synchronized boolean remember(Map<String, String> memo, String requested, String served) {
            if (closed || requested.length() > MAX_REMEMBERED_LENGTH) {
                return false;
            }
            if (memo.size() >= MAX_REMEMBERED) {
                forget(memo);
            }
            if (memo.putIfAbsent(requested, served) != null) {
                return false;
            }
            grow(rememberedBytes(requested));
            return true;
        }

        private void forget(Map<String, String> memo) {
            long held = 0;
            for (String requested : memo.keySet()) {
                held += rememberedBytes(requested);
            }
            grow(-held);
            memo.clear();
        }

        /** The load in {@code language} as kept (the default's, or another kept), or null when none is yet. */
        private Variant kept(String language) {
            return language.equals(feed.language()) ? home : languages.get(language);
        }

        /**
         * The load in {@code language}, one of its own: kept, or built now and kept if it may be. One build per
         * language at a time: requests for it meanwhile take that build's result, kept or not.
         */
        private Variant variant(String language) {
            Variant kept = kept(language);
            if (kept != null) {
                return kept;
            }
            CompletableFuture<Variant> mine = new CompletableFuture<>();
            CompletableFuture<Variant> running = building.putIfAbsent(language, mine);
            if (running != null) {
                return running.join();
            }
            try {
                Variant built = new Variant(feed.in(language), false);
                Variant used = keep(language, built);
                mine.complete(used);
                if (used == built && built.kept) {
                    evictIfOver();
                }
                return used;
            } catch (RuntimeException e) {
                mine.completeExceptionally(e);
                throw e;
            } finally {
                building.remove(language, mine);
            }
        }

        /** @return the variant to use: the one kept meanwhile by another request, else {@code built} */
        private synchronized Variant keep(String language, Variant built) {
            // Within what eviction leaves (nine tenths of the bound) once every other key is gone: a key whose
            // languages do not all fit keeps those that do, rather than evicting itself and loading again.
            if (closed || feed.bytes() + extraBytes + built.feed.bytes() > maxBytes - maxBytes / 10) {
                return built;
            }
            Variant previous = languages.putIfAbsent(language, built);
            if (previous != null) {
                return previous;
            }
            built.kept = true;
            grow(built.feed.bytes());
            variants.incrementAndGet();
            return built;
        }

        /** @return whether it was kept (the cache's bytes then grew) */
        private synchronized boolean keep(Variant variant, MatchSet set, FeedAnswer answer) {
            if (closed || !variant.kept || answer.body().length > maxBytes) {
                return false;
            }
            if (variant.sets.size() >= MAX_SETS_PER_KEY) {
                forgetSets(variant);
            }
            FeedAnswer previous = variant.sets.put(set, answer);
            grow(answer.body().length - (previous == null ? 0 : previous.body().length));
            if (previous == null) {
                userAnswers.incrementAndGet();
            }
            return true;
        }

        private void forgetSets(Variant variant) {
            long held = 0;
            for (FeedAnswer answer : variant.sets.values()) {
                held += answer.body().length;
            }
            grow(-held);
            userAnswers.addAndGet(-variant.sets.size());
            variant.sets.clear();
        }

        private void grow(long by) {
            extraBytes += by;
            bytes.addAndGet(by);
        }

        /**
         * Counts the load in the cache's bytes, before it enters the map; a load larger than the bound is served but
         * never kept, and nothing built from it is either.
         */
        private synchronized boolean count() {
            if (feed.bytes() > maxBytes) {
                closed = true;
                home.kept = false;
                return false;
            }
            bytes.addAndGet(feed.bytes());
            return true;
        }

        /** No longer counted: called once, after it left the map. */
        private synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            variants.addAndGet(-languages.size());
            userAnswers.addAndGet(-home.sets.size() - languages.values().stream().mapToInt(v -> v.sets.size()).sum());
            bytes.addAndGet(-feed.bytes() - extraBytes);
            extraBytes = 0;
        }
    }

    /** A key's load in one language, and the answers for users built from it. */
    private static final class Variant {
        private final KeyFeed feed;
        private final Map<MatchSet, FeedAnswer> sets = new ConcurrentHashMap<>();
        /** Whether it counts in the cache's bytes: only then are answers for users built from it kept. */
        private boolean kept;

        private Variant(KeyFeed feed, boolean kept) {
            this.feed = feed;
            this.kept = kept;
        }
    }

    /** What one remembered value takes: its characters and about a map entry's overhead. */
    private static long rememberedBytes(String requested) {
        return requested.length() + 64L;
    }

    private static final class Load {
        private final long generation;
        private final CompletableFuture<Cached> result = new CompletableFuture<>();

        private Load(long generation) {
            this.generation = generation;
        }

        /** The load, or null when it failed (the waiter then tries for itself). */
        private Cached await() {
            try {
                return result.join();
            } catch (CompletionException e) {
                return null;
            }
        }
    }
}
