package dev.herald.tracking;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import dev.herald.api.Json;
import dev.herald.locale.LanguagePreferences;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * The languages an interaction with a notification may be recorded in (docs/api.md#stats): its own (its locale, or
 * its project's default) and those of its translations that have a message. Whatever a client sends, what is recorded
 * is one of these, so a hostile client cannot make the distinct values of the totals' key grow.
 */
final class NotificationLanguages {

    private final String own;
    /** Every language, own included; null when the notification has no translation, the common case. */
    private final Set<String> all;

    private NotificationLanguages(String own, Set<String> all) {
        this.own = own;
        this.all = all;
    }

    /**
     * @param own          the notification's effective locale, canonical
     * @param translations {@code notifications.translations} as stored (contract of migration 21), or null
     */
    static NotificationLanguages of(String own, String translations) {
        // Interned: thousands of cached notifications share a handful of tags.
        String tag = own.intern();
        if (translations == null || translations.isEmpty()) {
            return new NotificationLanguages(tag, null);
        }
        JsonObject stored = Json.parseObject(translations.getBytes(StandardCharsets.UTF_8)).orElse(JsonValue.EMPTY_JSON_OBJECT);
        Set<String> all = new HashSet<>();
        all.add(tag);
        stored.forEach((locale, translation) -> {
            // A translation still being written (no message yet) is served to no one: nothing is recorded in it.
            if (translation instanceof JsonObject members && members.get("message") != null
                    && members.get("message") != JsonValue.NULL) {
                all.add(locale.intern());
            }
        });
        return new NotificationLanguages(tag, all.size() == 1 ? null : Set.copyOf(all));
    }

    String own() {
        return own;
    }

    /** Whether there is more than one language: only then is the request's language worth reading. */
    boolean hasTranslations() {
        return all != null;
    }

    /** RFC 4647 lookup of {@code ranges} (canonical, most wanted first) among these languages, if one is found. */
    Optional<String> found(List<String> ranges) {
        return all == null ? Optional.empty() : LanguagePreferences.lookup(ranges, all);
    }

    /** RFC 4647 lookup of {@code ranges} (canonical, most wanted first) among these languages, else the own one. */
    String recorded(List<String> ranges) {
        return all == null ? own : LanguagePreferences.lookup(ranges, all).orElse(own);
    }
}
