package dev.herald.locale;

import java.util.ArrayList;
import java.util.List;

/**
 * The languages a reader's request names, in the order that decides (docs/api.md#languages): the user token's
 * {@code locale} claim, the {@code locale} query parameter, then {@code Accept-Language} by its q-values. Each one
 * malformed is left out, never refused: a reader's odd header must not cost them the feed.
 */
public final class RequestedLanguages {

    private RequestedLanguages() {
    }

    /**
     * @param claim     the token's {@code locale} claim, or null (no token, or no claim)
     * @param parameter the {@code locale} query parameter, or null
     * @param header    the {@code Accept-Language} header, or null
     * @return canonical tags, most wanted first, without repeats
     */
    public static List<String> of(String claim, String parameter, String header) {
        List<String> fromHeader = LanguagePreferences.acceptLanguage(header);
        if (claim == null && parameter == null) {
            return fromHeader;
        }
        List<String> ranges = new ArrayList<>(fromHeader.size() + 2);
        LanguageTag.parseRange(claim).ifPresent(ranges::add);
        LanguageTag.parseRange(parameter).ifPresent(tag -> {
            if (!ranges.contains(tag)) {
                ranges.add(tag);
            }
        });
        for (String tag : fromHeader) {
            if (!ranges.contains(tag)) {
                ranges.add(tag);
            }
        }
        return ranges;
    }

    /** Whether the request names any language at all: without one, it is answered in the default. */
    public static boolean named(String claim, String parameter, String header) {
        return claim != null || parameter != null || header != null;
    }
}
