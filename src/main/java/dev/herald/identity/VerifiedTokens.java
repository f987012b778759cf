package dev.herald.identity;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Tokens that verified, so that a client polling with the same token is not verified again each time (an ES256
 * verification is some 100 µs). Keyed by the token's SHA-256, never the token. An entry serves until its exp (with
 * the skew) and only while its kid is active: the caller checks the key on every hit, so a revocation applies at
 * once. Bounded by entries and by bytes (a token of 8 KiB of attributes weighs far more than one of 300 bytes).
 *
 * <p>A full cache keeps the tokens it holds and verifies newcomers without keeping them, until expired tokens make
 * room (swept at most once a second). Measured (bench/users.sh, docs/performance.md): replacing entries to admit
 * each newcomer, with more users polling than the cache holds, made every request a verification plus garbage that
 * outlived the young generation, and the feed with tokens fell to 0.52 x the anonymous feed's requests/s.
 */
final class VerifiedTokens {

    /**
     * Measured (bench/users.sh, 2026-11-28): 90,000 more tokens of 430 characters with four attributes held 30.2 MiB
     * more heap after a full collection, 352 bytes each, once repeated strings are held once ({@link CanonicalStrings};
     * 720 bytes before). Weighed with a margin for what is not shared (a subject, long or rare values): 200 bytes, plus
     * half the token's length, plus 16 per attribute value (479 for those tokens).
     */
    private static final int OVERHEAD = 200;
    private static final int PER_VALUE = 16;
    private static final long SWEEP_MILLIS = 1000;

    private final int maxEntries;
    private final long maxBytes;
    private final long skewMillis;
    private final Map<Digest, Entry> entries = new ConcurrentHashMap<>();
    private final CanonicalStrings strings = new CanonicalStrings();
    private final AtomicLong bytes = new AtomicLong();
    private final LongAdder hits = new LongAdder();
    private final AtomicLong nextSweep = new AtomicLong();

    VerifiedTokens(UserTokenSettings settings) {
        this.maxEntries = settings.cacheEntries();
        this.maxBytes = settings.cacheBytes();
        this.skewMillis = settings.clockSkew().toMillis();
    }

    /**
     * The key a token is kept under: the first 128 bits of its SHA-256 (32 bytes of heap, not a string of 88). Finding
     * another token's entry would take a second preimage of those bits.
     */
    static Digest digest(String token) {
        try {
            byte[] sha256 = MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
            return new Digest(ByteBuffer.wrap(sha256).getLong(), ByteBuffer.wrap(sha256).getLong(Long.BYTES));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** A token verified before and not expired at {@code now}. */
    Optional<TokenVerifier.Verified> find(Digest digest, long now) {
        Entry entry = entries.get(digest);
        if (entry == null) {
            return Optional.empty();
        }
        if (now > entry.verified().identity().expiresAt() + skewMillis) {
            remove(digest, entry);
            return Optional.empty();
        }
        hits.increment();
        return Optional.of(entry.verified());
    }

    void put(Digest digest, int tokenLength, TokenVerifier.Verified verified, long now) {
        long weight = weight(tokenLength, verified.identity());
        if (maxEntries == 0 || weight > maxBytes) {
            return;
        }
        if (!hasRoom(weight)) {
            sweepExpired(now);
            if (!hasRoom(weight)) {
                return;
            }
        }
        Entry entry = new Entry(compact(verified), weight);
        Entry before = entries.put(digest, entry);
        bytes.addAndGet(weight - (before == null ? 0 : before.weight()));
    }

    /** The same identity, its repeated strings shared with other entries'. */
    private TokenVerifier.Verified compact(TokenVerifier.Verified verified) {
        UserIdentity identity = verified.identity();
        Map<String, Object> attributes = new HashMap<>();
        identity.attributes().forEach((name, value) -> attributes.put(strings.of(name), switch (value) {
            case String text -> strings.of(text);
            case List<?> list -> list.stream().map(item -> strings.of((String) item)).toList();
            default -> value;
        }));
        return new TokenVerifier.Verified(new UserIdentity(identity.projectId(), identity.subject(),
                                                           strings.of(identity.locale()), attributes,
                                                           identity.expiresAt()), verified.kid());
    }

    private boolean hasRoom(long weight) {
        return entries.size() < maxEntries && bytes.get() + weight <= maxBytes;
    }

    static long weight(int tokenLength, UserIdentity identity) {
        long values = identity.attributes().values().stream()
                .mapToLong(value -> value instanceof java.util.List<?> list ? list.size() + 1 : 1).sum();
        return tokenLength / 2 + OVERHEAD + PER_VALUE * values;
    }

    TokenCacheFigures figures(long verifications) {
        return new TokenCacheFigures(entries.size(), bytes.get(), hits.sum(), verifications);
    }

    /** Entries kept; for tests and figures. */
    int size() {
        return entries.size();
    }

    /** Expired entries out, at most once a second: a full cache of live tokens is not scanned for every newcomer. */
    private void sweepExpired(long now) {
        long due = nextSweep.get();
        if (now < due || !nextSweep.compareAndSet(due, now + SWEEP_MILLIS)) {
            return;
        }
        entries.forEach((digest, entry) -> {
            if (now > entry.verified().identity().expiresAt() + skewMillis) {
                remove(digest, entry);
            }
        });
    }

    private void remove(Digest digest, Entry entry) {
        if (entries.remove(digest, entry)) {
            bytes.addAndGet(-entry.weight());
        }
    }

    /** The first 128 bits of a token's SHA-256. */
    record Digest(long high, long low) {
    }

    private record Entry(TokenVerifier.Verified verified, long weight) {
    }
}
