package dev.herald.locale;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A reader's languages, most wanted first, and RFC 4647 lookup of them among the languages there are.
 */
public final class LanguagePreferences {

    /**
     * Browsers send a few dozen bytes (a long list is under 200); a header longer than this is not a reader's list, and
     * is ignored whole rather than parsed.
     */
    public static final int MAX_HEADER_LENGTH = 1024;
    /** Ranges read from one header, at most: lookup tries each, so a hostile list must not make it long. */
    public static final int MAX_RANGES = 32;

    private LanguagePreferences() {
    }

    /**
     * The ranges of an {@code Accept-Language} value (RFC 9110 §12.5.4), most wanted first: by q-value, the order of
     * the header between equal ones. A range that is malformed, {@code *}, or has {@code q=0} (not wanted) is left
     * out, as is a malformed q; an absent, empty or over-long header gives none.
     */
    public static List<String> acceptLanguage(String header) {
        if (header == null || header.isEmpty() || header.length() > MAX_HEADER_LENGTH) {
            return List.of();
        }
        List<Weighted> ranges = new ArrayList<>(4);
        int start = 0;
        while (start <= header.length() && ranges.size() < MAX_RANGES) {
            int comma = header.indexOf(',', start);
            int end = comma < 0 ? header.length() : comma;
            Weighted range = weighted(header, start, end, ranges.size());
            if (range != null) {
                ranges.add(range);
            }
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        ranges.sort(null);
        List<String> tags = new ArrayList<>(ranges.size());
        for (Weighted range : ranges) {
            if (!tags.contains(range.tag)) {
                tags.add(range.tag);
            }
        }
        return tags;
    }

    /**
     * RFC 4647 §3.4 lookup: for each range in turn, the range itself, then shorter and shorter prefixes of it
     * ({@link LanguageTag#truncate}); the first that is {@code available} wins; empty when none is (the caller then
     * takes its default).
     *
     * @param ranges    canonical tags, most wanted first
     * @param available canonical tags
     */
    public static Optional<String> lookup(List<String> ranges, Set<String> available) {
        for (String range : ranges) {
            String script = chineseScript(range);
            for (String tag = range; tag != null; tag = LanguageTag.truncate(tag)) {
                if (available.contains(tag)) {
                    return Optional.of(tag);
                }
                if (script != null && tag.equals(range)) {
                    // Before zh: the same range with its region's script, and that script alone.
                    String scripted = "zh-" + script + range.substring(2);
                    for (String more = scripted; more.length() > 2; more = LanguageTag.truncate(more)) {
                        if (available.contains(more)) {
                            return Optional.of(more);
                        }
                    }
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The script of a Chinese range that names a region but no script, where the region's script is certain, else
     * null. Chrome, Edge and Firefox in Taiwan and Hong Kong send {@code zh-TW} and {@code zh-HK}, which plain RFC
     * 4647 lookup shortens to {@code zh}, never to {@code zh-Hant}: a project with both would serve them the
     * Simplified text they cannot be assumed to read. The one addition Herald makes to lookup (docs/languages.md).
     */
    private static String chineseScript(String range) {
        if (!range.startsWith("zh-") || range.length() < 5) {
            return null;
        }
        int end = range.indexOf('-', 3);
        String second = end < 0 ? range.substring(3) : range.substring(3, end);
        return switch (second) {
            case "TW", "HK", "MO" -> "Hant";
            case "CN", "SG", "MY" -> "Hans";
            default -> null;
        };
    }

    /** One element of the list, or null when it is to be ignored. */
    private static Weighted weighted(String header, int start, int end, int position) {
        int semicolon = header.indexOf(';', start);
        int tagEnd = semicolon < 0 || semicolon > end ? end : semicolon;
        String tag = header.substring(start, tagEnd).trim();
        int quality = tagEnd < end ? quality(header.substring(tagEnd + 1, end).trim()) : 1000;
        if (quality <= 0) {
            return null;
        }
        if (tag.equals("*")) {
            return null;
        }
        return LanguageTag.parseRange(tag).map(canonical -> new Weighted(canonical, quality, position)).orElse(null);
    }

    /** {@code q=0.8} as 800; -1 when it is not a weight of RFC 9110 §12.4.2 (0 to 1, at most three decimals). */
    private static int quality(String parameter) {
        if (parameter.length() < 3 || (parameter.charAt(0) != 'q' && parameter.charAt(0) != 'Q')
                || parameter.charAt(1) != '=') {
            return -1;
        }
        String value = parameter.substring(2);
        if (value.length() > 5) {
            return -1;
        }
        char first = value.charAt(0);
        if (first != '0' && first != '1') {
            return -1;
        }
        int thousandths = (first - '0') * 1000;
        if (value.length() > 1) {
            if (value.charAt(1) != '.') {
                return -1;
            }
            int scale = 100;
            for (int i = 2; i < value.length(); i++, scale /= 10) {
                char digit = value.charAt(i);
                if (digit < '0' || digit > '9' || (first == '1' && digit != '0')) {
                    return -1;
                }
                thousandths += (digit - '0') * scale;
            }
        }
        return thousandths;
    }

    private record Weighted(String tag, int quality, int position) implements Comparable<Weighted> {
        @Override
        public int compareTo(Weighted other) {
            return quality != other.quality ? Integer.compare(other.quality, quality)
                    : Integer.compare(position, other.position);
        }
    }
}
