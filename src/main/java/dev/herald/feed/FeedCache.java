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
 * by that set, never by user (users matching the same set share one answer).
 *
 * <p>Exact: an answer is used only while its dates say it holds ({@link FeedAnswer#holdsFor}), while the change log
 * is fresh, and until a change to its project drops it, with every answer for users of the key. A load that a change
 * overtook is answered but not kept: the generation counter goes up with every change, and a load keeps its result
 * only if it did not move meanwhile. The answers for users are built from the key's load, so they are exactly as
 * fresh as it is.
 *
 * <p>Bounded by a number of keys and of bytes (bodies, and the entries the answers for users are joined from), least
 * recently used key out first, in batches of a tenth so that eviction costs a sort now and then, not a scan per
 * request; a key keeps at most {@value #MAX_SETS_PER_KEY} answers for users. Only keys that {@code ActiveKeys} knows
 * ever get here. Simultaneous misses of one key share one load.
 */
final class FeedCache implements ChangeListener {

    /** Beyond this many sets of one key, its answers for users are dropped and built again from memory. */
    static final int MAX_SETS_PER_KEY = 1024;

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
        if (enabled) {
            changes.listen(this);
        }
    }

    /** @param user the request's verified user, or null for a request without a token */
    FeedAnswer answer(ApiKey key, UserIdentity user, long now) {
        if (!enabled) {
            return loader.load(key, now, false).answerFor(user, now);
        }
        if (!changes.isFresh()) {
            misses.increment();
            return loader.load(key, now, false).answerFor(user, now);
        }
        Cached cached = answers.get(key.key());
        if (cached != null && cached.feed.holdsFor(key, now)) {
            cached.markUsed(useClock.get());
            hits.increment();
            return user == null ? cached.feed.everyone() : forUser(cached, user, now);
        }
        misses.increment();
        return loadShared(key, user, now);
    }

    /** From the key's load in memory: the answer kept for the user's set, or one built now and kept. */
    private FeedAnswer forUser(Cached cached, UserIdentity user, long now) {
        MatchSet set = cached.feed.matched(user, now);
        if (set == null) {
            return cached.feed.everyone();
        }
        FeedAnswer kept = cached.sets.get(set);
        if (kept != null) {
            userHits.increment();
            return kept;
        }
        userBuilds.increment();
        FeedAnswer built = cached.feed.answer(set);
        if (cached.keep(set, built)) {
            evictIfOver();
        }
        return built;
    }

    /**
     * One load per key at a time. A request that finds one running may use its result only if no change came
     * between that load's start and this request: otherwise the result may predate what this request must see.
     */
    private FeedAnswer loadShared(ApiKey key, UserIdentity user, long now) {
        long arrived = generation.get();
        Load mine = new Load(arrived);
        Load running = loads.putIfAbsent(key.key(), mine);
        if (running != null) {
            Cached shared = running.await();
            if (shared != null && running.generation == arrived && shared.feed.holdsFor(key, now)) {
                return user == null ? shared.feed.everyone() : forUser(shared, user, now);
            }
            return loader.load(key, now, false).answerFor(user, now);
        }
        try {
            Cached loaded = new Cached(loader.load(key, now, true), useClock.incrementAndGet());
            mine.result.complete(loaded);
            keep(key.key(), loaded, arrived);
            return user == null ? loaded.feed.everyone() : forUser(loaded, user, now);
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
                                    userHits.sum(), userBuilds.sum());
    }

    /**
     * A key's load and the answers for users built from it. What it counts in the cache's bytes changes under its
     * lock, and stops counting once it is closed (dropped, evicted or replaced): an answer for users built meanwhile
     * is then served but not kept, so the count never drifts.
     */
    private final class Cached {
        private final KeyFeed feed;
        private final Map<MatchSet, FeedAnswer> sets = new ConcurrentHashMap<>();
        /** Written without ordering: a lost update only makes the LRU order a little less exact. */
        private long lastUsed;
        private long setBytes;
        private boolean closed;

        private Cached(KeyFeed feed, long lastUsed) {
            this.feed = feed;
            this.lastUsed = lastUsed;
        }

        /** Writes only when it changes, so that requests for one hot key do not all write one cache line. */
        private void markUsed(long now) {
            if (lastUsed != now) {
                lastUsed = now;
            }
        }

        /** @return whether it was kept (the cache's bytes then grew) */
        private synchronized boolean keep(MatchSet set, FeedAnswer answer) {
            if (closed || answer.body().length > maxBytes) {
                return false;
            }
            if (sets.size() >= MAX_SETS_PER_KEY) {
                forgetSets();
            }
            FeedAnswer previous = sets.put(set, answer);
            long grown = answer.body().length - (previous == null ? 0 : previous.body().length);
            setBytes += grown;
            bytes.addAndGet(grown);
            if (previous == null) {
                userAnswers.incrementAndGet();
            }
            return true;
        }

        private void forgetSets() {
            bytes.addAndGet(-setBytes);
            userAnswers.addAndGet(-sets.size());
            setBytes = 0;
            sets.clear();
        }

        /**
         * Counts the load in the cache's bytes, before it enters the map; a load larger than the bound is served but
         * never kept, and nothing built from it is either.
         */
        private synchronized boolean count() {
            if (feed.bytes() > maxBytes) {
                closed = true;
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
            forgetSets();
            bytes.addAndGet(-feed.bytes());
        }
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
