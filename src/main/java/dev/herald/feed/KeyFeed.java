package dev.herald.feed;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.herald.apikey.ApiKey;
import dev.herald.audience.Audience;
import dev.herald.identity.UserIdentity;

/**
 * What one load of a key's feed gives: the answer for requests without a user token, and, when the key's project has
 * notifications with an audience, what it takes to answer any user from memory: those notifications' rules (parsed
 * once, here), and every entry's JSON, in the key's order, ready to be joined.
 *
 * <p>A user's answer holds the notifications for everyone and those of the targeted ones the user matches: the 1000
 * newest of them (docs/api.md, rule 3), in the key's order, as the answer for everyone is built. Its bytes are the
 * entries' bytes joined by commas in brackets, which is what {@link FeedJson#bytes} writes for the same entries.
 */
final class KeyFeed {

    /** Newest first, as the feed's queries return them and rule 3 keeps them. */
    private static final Comparator<FeedEntry> NEWEST = Comparator.comparingLong(FeedEntry::createdAt)
            .thenComparingLong(FeedEntry::sequence).reversed();

    /** A notification with an audience, as loaded: its entry and its rules. */
    record Targeted(FeedEntry entry, Audience audience) {
    }

    /**
     * An entry of the key's answers with its JSON.
     *
     * @param target its index among the targeted notifications, or -1 for one for everyone
     */
    private record Placed(FeedEntry entry, byte[] json, int target) {
    }

    private final FeedAnswer everyone;
    private final List<Targeted> targeted;
    /** Every entry, those for everyone and the targeted ones, in the key's order; empty when none is targeted. */
    private final List<Placed> placed;
    private final long bytes;

    private KeyFeed(FeedAnswer everyone, List<Targeted> targeted, List<Placed> placed, long bytes) {
        this.everyone = everyone;
        this.targeted = targeted;
        this.placed = placed;
        this.bytes = bytes;
    }

    /**
     * @param forEveryone the entries without an audience, in the key's order
     * @param targeted    the entries with one, newest first
     */
    static KeyFeed of(ApiKey key, List<FeedEntry> forEveryone, List<Targeted> targeted, long builtAt,
                      long validUntil) {
        FeedAnswer everyone = FeedAnswer.of(key, FeedJson.bytes(forEveryone),
                                            forEveryone.stream().map(FeedEntry::id).toList(), builtAt, validUntil);
        if (targeted.isEmpty()) {
            return new KeyFeed(everyone, List.of(), List.of(), everyone.body().length);
        }
        List<Placed> placed = new ArrayList<>(forEveryone.size() + targeted.size());
        long bytes = everyone.body().length;
        for (FeedEntry entry : forEveryone) {
            placed.add(new Placed(entry, FeedJson.entry(entry), -1));
        }
        for (int i = 0; i < targeted.size(); i++) {
            placed.add(new Placed(targeted.get(i).entry(), FeedJson.entry(targeted.get(i).entry()), i));
        }
        placed.sort(Comparator.comparing(Placed::entry, FeedOrder.of(key.orderBy())));
        for (Placed entry : placed) {
            bytes += entry.json.length;
        }
        return new KeyFeed(everyone, List.copyOf(targeted), List.copyOf(placed), bytes);
    }

    FeedAnswer everyone() {
        return everyone;
    }

    boolean holdsFor(ApiKey key, long now) {
        return everyone.holdsFor(key, now);
    }

    /** Memory this load holds: the answer for everyone and, with targeted notifications, every entry's JSON. */
    long bytes() {
        return bytes;
    }

    /**
     * The targeted notifications the user matches at {@code now}, or null when none does (the user's answer is then
     * the answer for everyone). The rules run here, per request: what a user matches may change with time
     * (withinLastDays) without any write.
     */
    MatchSet matched(UserIdentity user, long now) {
        if (targeted.isEmpty() || !user.projectId().equals(everyone.key().projectId())) {
            return null;
        }
        long[] words = null;
        for (int i = 0; i < targeted.size(); i++) {
            Targeted notification = targeted.get(i);
            if (notification.audience().matches(user, notification.entry().id(), now)) {
                if (words == null) {
                    words = MatchSet.words(targeted.size());
                }
                MatchSet.set(words, i);
            }
        }
        return words == null ? null : MatchSet.of(words);
    }

    /** The answer of the users who match {@code set}, from memory: no query, no JSON written. */
    FeedAnswer answer(MatchSet set) {
        List<Placed> entries = new ArrayList<>(placed.size());
        for (Placed entry : placed) {
            if (entry.target < 0 || set.has(entry.target)) {
                entries.add(entry);
            }
        }
        if (entries.size() > PublicFeedService.MAX_NOTIFICATIONS) {
            Set<FeedEntry> newest = new HashSet<>(entries.stream().map(Placed::entry).sorted(NEWEST)
                                                          .limit(PublicFeedService.MAX_NOTIFICATIONS).toList());
            entries.removeIf(entry -> !newest.contains(entry.entry));
        }
        int size = 2 + Math.max(0, entries.size() - 1);
        for (Placed entry : entries) {
            size += entry.json.length;
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(size);
        body.write('[');
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) {
                body.write(',');
            }
            body.writeBytes(entries.get(i).json);
        }
        body.write(']');
        return FeedAnswer.of(everyone.key(), body.toByteArray(), entries.stream().map(entry -> entry.entry.id()).toList(),
                             everyone.builtAt(), everyone.validUntil());
    }

    /** The answer for the user (null: a request without a token), built now when no cache keeps it. */
    FeedAnswer answerFor(UserIdentity user, long now) {
        MatchSet set = user == null ? null : matched(user, now);
        return set == null ? everyone : answer(set);
    }
}
