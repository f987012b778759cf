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

/**
 * Finished feed answers per key, so that a hit reads no database and writes no JSON.
 *
 * <p>Exact: an answer is used only while its dates say it holds ({@link FeedAnswer#holdsFor}), while the change log
 * is fresh, and until a change to its project drops it. A load that a change overtook is answered but not kept: the
 * generation counter goes up with every change, and a load keeps its result only if it did not move meanwhile.
 *
 * <p>Bounded by a number of keys and of body bytes, least recently used out first, in batches of a tenth so that
 * eviction costs a sort now and then, not a scan per request. Only keys that {@code ActiveKeys} knows ever get
 * here. Simultaneous misses of one key share one load.
 */
final class FeedCache implements ChangeListener {

    /** Builds a key's answer at an instant, from the database. */
    interface Loader {
        /**
         * @param toKeep whether the answer may be kept: only then is its validity worth the queries it takes
         *               ({@link FeedAnswer#validUntil()} is otherwise {@code now + 1})
         */
        FeedAnswer load(ApiKey key, long now, boolean toKeep);
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
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();

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

    FeedAnswer answer(ApiKey key, long now) {
        if (!enabled) {
            return loader.load(key, now, false);
        }
        if (!changes.isFresh()) {
            misses.increment();
            return loader.load(key, now, false);
        }
        Cached cached = answers.get(key.key());
        if (cached != null && cached.answer.holdsFor(key, now)) {
            cached.markUsed(useClock.get());
            hits.increment();
            return cached.answer;
        }
        misses.increment();
        return loadShared(key, now);
    }

    /**
     * One load per key at a time. A request that finds one running may use its result only if no change came
     * between that load's start and this request: otherwise the result may predate what this request must see.
     */
    private FeedAnswer loadShared(ApiKey key, long now) {
        long arrived = generation.get();
        Load mine = new Load(arrived);
        Load running = loads.putIfAbsent(key.key(), mine);
        if (running != null) {
            FeedAnswer shared = running.await();
            if (shared != null && running.generation == arrived && shared.holdsFor(key, now)) {
                return shared;
            }
            return loader.load(key, now, false);
        }
        try {
            FeedAnswer answer = loader.load(key, now, true);
            mine.result.complete(answer);
            keep(answer, arrived);
            return answer;
        } catch (RuntimeException e) {
            mine.result.complete(null);
            throw e;
        } finally {
            loads.remove(key.key(), mine);
        }
    }

    private void keep(FeedAnswer answer, long loadedAtGeneration) {
        long size = answer.body().length;
        if (size > maxBytes) {
            return;
        }
        Cached previous = answers.put(answer.key().key(), new Cached(answer, useClock.incrementAndGet()));
        bytes.addAndGet(size - (previous == null ? 0 : previous.answer.body().length));
        if (generation.get() != loadedAtGeneration) {
            // A change came during the load: this answer may show what it replaced.
            drop(answer.key().key());
        }
        if (answers.size() > maxKeys || bytes.get() > maxBytes) {
            evictLeastRecentlyUsed();
        }
    }

    @Override
    public void changed(Change change) {
        generation.incrementAndGet();
        answers.keySet().forEach(key -> {
            Cached cached = answers.get(key);
            if (cached != null && cached.answer.key().projectId().equals(change.projectId())) {
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
            bytes.addAndGet(-removed.answer.body().length);
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
                bytes.addAndGet(-entry.getValue().answer.body().length);
            }
        }
    }

    FeedCacheFigures figures() {
        return new FeedCacheFigures(answers.size(), bytes.get(), hits.sum(), misses.sum());
    }

    private static final class Cached {
        private final FeedAnswer answer;
        /** Written without ordering: a lost update only makes the LRU order a little less exact. */
        private long lastUsed;

        private Cached(FeedAnswer answer, long lastUsed) {
            this.answer = answer;
            this.lastUsed = lastUsed;
        }

        /** Writes only when it changes, so that requests for one hot key do not all write one cache line. */
        private void markUsed(long now) {
            if (lastUsed != now) {
                lastUsed = now;
            }
        }
    }

    private static final class Load {
        private final long generation;
        private final CompletableFuture<FeedAnswer> result = new CompletableFuture<>();

        private Load(long generation) {
            this.generation = generation;
        }

        /** The answer, or null when that load failed (the waiter then tries for itself). */
        private FeedAnswer await() {
            try {
                return result.join();
            } catch (CompletionException e) {
                return null;
            }
        }
    }
}
