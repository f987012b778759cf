package dev.herald.feed;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.herald.api.ResponseHeaders;
import dev.herald.apikey.ApiKey;
import dev.herald.audience.Audience;
import dev.herald.identity.UserIdentity;
import dev.herald.locale.LanguagePreferences;
import dev.herald.locale.RequestedLanguages;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;

/**
 * What one load of a key's feed gives, in one served language: the answer for requests without a user token, and,
 * when the key's project has notifications with an audience, what it takes to answer any user from memory: those
 * notifications' rules (parsed once, here), and every entry's JSON, in the key's order, ready to be joined.
 *
 * <p>A user's answer holds the notifications for everyone and those of the targeted ones the user matches: the 1000
 * newest of them (docs/api.md, rule 3), in the key's order, as the answer for everyone is built. Its bytes are the
 * entries' bytes joined by commas in brackets, which is what {@link FeedJson#bytes} writes for the same entries.
 *
 * <p>A load is built in the project's default language; the load's other languages (docs/api.md#languages: its
 * entries' own and their translations') are built from it in memory when a reader is first served one
 * ({@link #in}), so a project with one language keeps nothing more than before languages.
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

    /**
     * What every language of one load shares.
     *
     * @param home        the project's default language, or null where languages are not known
     * @param available   the languages a reader may be served: the default, every entry's own, their translations'
     * @param forEveryone the entries without an audience, kept only when there is another language to build
     * @param sourceBytes what keeping them takes, about
     */
    private record Languages(String home, Set<String> available, List<FeedEntry> forEveryone,
                             List<Targeted> targeted, long sourceBytes) {
    }

    private final Languages languages;
    private final String language;
    private final FeedAnswer everyone;
    /** Every entry, those for everyone and the targeted ones, in the key's order; empty when none is targeted. */
    private final List<Placed> placed;
    private final long bytes;

    private KeyFeed(Languages languages, String language, FeedAnswer everyone, List<Placed> placed, long bytes) {
        this.languages = languages;
        this.language = language;
        this.everyone = everyone;
        this.placed = placed;
        this.bytes = bytes;
    }

    /** A load whose languages are not known: each entry as it is. */
    static KeyFeed of(ApiKey key, List<FeedEntry> forEveryone, List<Targeted> targeted, long builtAt,
                      long validUntil) {
        return of(key, null, forEveryone, targeted, builtAt, validUntil);
    }

    /**
     * @param home        the project's default language
     * @param forEveryone the entries without an audience, in the key's order
     * @param targeted    the entries with one, newest first
     */
    static KeyFeed of(ApiKey key, String home, List<FeedEntry> forEveryone, List<Targeted> targeted, long builtAt,
                      long validUntil) {
        Set<String> available = new HashSet<>();
        if (home != null) {
            available.add(home);
            forEveryone.forEach(entry -> addLanguages(available, entry));
            targeted.forEach(entry -> addLanguages(available, entry.entry()));
        }
        boolean others = available.size() > 1;
        long sourceBytes = others ? forEveryone.stream().mapToLong(KeyFeed::textBytes).sum() : 0;
        Languages languages = new Languages(home, Set.copyOf(available), others ? List.copyOf(forEveryone) : List.of(),
                                            List.copyOf(targeted), sourceBytes);
        return build(key, languages, home, forEveryone, builtAt, validUntil);
    }

    private static KeyFeed build(ApiKey key, Languages languages, String language, List<FeedEntry> forEveryone,
                                 long builtAt, long validUntil) {
        Header contentLanguage = language == null ? null
                : ResponseHeaders.fixed(HeaderNames.CONTENT_LANGUAGE, language);
        boolean home = language == null || language.equals(languages.home);
        FeedAnswer everyone = FeedAnswer.of(key, FeedJson.bytes(forEveryone, language),
                                            forEveryone.stream().map(FeedEntry::id).toList(), builtAt, validUntil,
                                            contentLanguage, home);
        long own = everyone.body().length + (home ? languages.sourceBytes : 0);
        List<Targeted> targeted = languages.targeted;
        if (targeted.isEmpty()) {
            return new KeyFeed(languages, language, everyone, List.of(), own);
        }
        List<Placed> placed = new ArrayList<>(forEveryone.size() + targeted.size());
        for (FeedEntry entry : forEveryone) {
            placed.add(new Placed(entry, FeedJson.entry(entry, language), -1));
        }
        for (int i = 0; i < targeted.size(); i++) {
            placed.add(new Placed(targeted.get(i).entry(), FeedJson.entry(targeted.get(i).entry(), language), i));
        }
        placed.sort(Comparator.comparing(Placed::entry, FeedOrder.of(key.orderBy())));
        long bytes = own;
        for (Placed entry : placed) {
            bytes += entry.json.length;
        }
        return new KeyFeed(languages, language, everyone, List.copyOf(placed), bytes);
    }

    private static void addLanguages(Set<String> available, FeedEntry entry) {
        if (entry.locale() != null) {
            available.add(entry.locale());
            available.addAll(entry.translations().keySet());
        }
    }

    /** About the memory an entry's texts take, in every language. */
    private static long textBytes(FeedEntry entry) {
        long bytes = length(entry.title()) + length(entry.message()) + length(entry.image()) + length(entry.imageAlt());
        for (FeedTranslation translation : entry.translations().values()) {
            bytes += length(translation.title()) + length(translation.message()) + length(translation.image())
                    + length(translation.imageAlt());
        }
        return bytes;
    }

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }

    /** The same load served in {@code language}, one of its {@link #available} ones: built now, from memory. */
    KeyFeed in(String language) {
        return build(everyone.key(), languages, language, languages.forEveryone, everyone.builtAt(),
                     everyone.validUntil());
    }

    /** The language this answers in: the project's default for a load (null where languages are not known). */
    String language() {
        return language;
    }

    /** Whether it has a language besides the project's default: only then does a reader's request matter. */
    boolean hasOtherLanguages() {
        return languages.available.size() > 1;
    }

    /**
     * The served language for the languages a request names (docs/api.md#languages): the first that RFC 4647 lookup
     * finds among the available ones, else the project's default.
     */
    String served(String claim, String parameter, String header) {
        if (!hasOtherLanguages()) {
            return languages.home;
        }
        return LanguagePreferences.lookup(RequestedLanguages.of(claim, parameter, header), languages.available)
                .orElse(languages.home);
    }

    /** The available language lookup finds for one tag (a claim, a parameter), or null for none. */
    String servedForTag(String tag) {
        return LanguagePreferences.lookup(RequestedLanguages.of(tag, null, null), languages.available).orElse(null);
    }

    /** The available language lookup finds for an {@code Accept-Language} value, or null for none. */
    String servedForHeader(String header) {
        return LanguagePreferences.lookup(LanguagePreferences.acceptLanguage(header), languages.available)
                .orElse(null);
    }

    /** The project's default language. */
    String home() {
        return languages.home;
    }

    FeedAnswer everyone() {
        return everyone;
    }

    boolean holdsFor(ApiKey key, long now) {
        return everyone.holdsFor(key, now);
    }

    /**
     * Memory this language holds: the answer for everyone and, with targeted notifications, every entry's JSON; the
     * default language's also counts the entries kept to build the others.
     */
    long bytes() {
        return bytes;
    }

    /**
     * The targeted notifications the user matches at {@code now}, or null when none does (the user's answer is then
     * the answer for everyone). The rules run here, per request: what a user matches may change with time
     * (withinLastDays) without any write.
     */
    MatchSet matched(UserIdentity user, long now) {
        List<Targeted> targeted = languages.targeted;
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
                             everyone.builtAt(), everyone.validUntil(), everyone.language(),
                             language == null || language.equals(languages.home));
    }

    /** The answer for the user (null: a request without a token), built now when no cache keeps it. */
    FeedAnswer answerFor(UserIdentity user, long now) {
        MatchSet set = user == null ? null : matched(user, now);
        return set == null ? everyone : answer(set);
    }
}
