package dev.herald.locale;

import java.util.ArrayList;
import java.util.IllformedLocaleException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * BCP 47 language tags as Herald stores and compares them: a translation's tag, a project's default, a reader's
 * request. Well-formedness is RFC 5646's, checked by the JDK's strict parser ({@link Locale.Builder}); the canonical
 * form is the one {@code Intl.getCanonicalLocales} gives for the tags Herald keeps (language lower case, script title
 * case, region upper case: {@code zh-Hant-TW}, {@code pt-BR}, {@code sr-Latn}), so that {@code FR-ca} and
 * {@code fr-CA} are one tag.
 *
 * <p>Herald keeps language, script, region and variants: extensions ({@code -u-…}, {@code -t-…}) and private use
 * ({@code -x-…}) say how to format or are private agreements, not which text to show, and RFC 4647 lookup would drop
 * them anyway. A request's tag loses them ({@link #parseRange}); a translation's tag may not have them
 * ({@link #parseStored}).
 */
public final class LanguageTag {

    /** RFC 5646 §4.4.1: implementations should take tags of at least 35 characters; Herald stores that many. */
    public static final int MAX_LENGTH = 35;

    private LanguageTag() {
    }

    /**
     * A tag a management write gives (a translation's, a project's default): canonical, or empty when it is not a
     * well-formed tag of language, script, region and variants of at most {@value #MAX_LENGTH} characters.
     */
    public static Optional<String> parseStored(String tag) {
        if (tag == null || tag.isEmpty() || tag.length() > MAX_LENGTH || !isAsciiTag(tag)) {
            return Optional.empty();
        }
        Locale locale = strict(tag);
        if (locale == null || locale.getLanguage().isEmpty() || !locale.getExtensionKeys().isEmpty()) {
            return Optional.empty();
        }
        String canonical = locale.toLanguageTag();
        // The JDK maps a few legacy tags to others (i-klingon to tlh); only tags that are their own canonical form,
        // but for case, are stored, so that what is stored is what was meant. RFC 5646 §2.2.5 forbids a variant twice
        // (de-1996-1996), which the JDK's parser takes.
        return canonical.equalsIgnoreCase(tag) && !repeatsAVariant(canonical) ? Optional.of(canonical)
                : Optional.empty();
    }

    /**
     * A tag a reader's request names ({@code ?locale=}, a token's {@code locale} claim, one range of
     * {@code Accept-Language}): its language, script, region and variants in canonical form, or empty when it is
     * not well-formed, or longer than {@value #MAX_LENGTH} characters once its extensions are gone; never an
     * exception: a reader's bad tag is ignored.
     */
    public static Optional<String> parseRange(String tag) {
        if (tag == null || tag.isEmpty() || tag.length() > 4 * MAX_LENGTH || !isAsciiTag(tag)) {
            return Optional.empty();
        }
        Locale locale = strict(tag);
        if (locale == null || locale.getLanguage().isEmpty()) {
            return Optional.empty();
        }
        Locale plain = locale.stripExtensions();
        String canonical = plain.toLanguageTag();
        return canonical.length() > MAX_LENGTH || "und".equals(canonical) ? Optional.empty() : Optional.of(canonical);
    }

    /**
     * RFC 4647 §3.4 lookup's next step: the tag without its last subtag, and without a single-letter subtag left at
     * the end; null once only the language was left ({@code zh-Hant-TW → zh-Hant → zh → null}).
     */
    public static String truncate(String tag) {
        int dash = tag.lastIndexOf('-');
        if (dash < 0) {
            return null;
        }
        String shorter = tag.substring(0, dash);
        int before = shorter.lastIndexOf('-');
        if (before >= 0 && shorter.length() - before == 2) {
            shorter = shorter.substring(0, before);
        }
        return shorter;
    }

    /**
     * Whether a text in this tag's language is written right to left: Arabic, Hebrew and the other languages whose
     * usual script is, unless the tag names a left-to-right script ({@code az-Latn}), or names a right-to-left script
     * itself ({@code pa-Arab}).
     */
    public static boolean isRightToLeft(String tag) {
        Locale locale = Locale.forLanguageTag(tag);
        String script = locale.getScript();
        if (!script.isEmpty()) {
            return RTL_SCRIPTS.contains(script);
        }
        return RTL_LANGUAGES.contains(locale.getLanguage());
    }

    private static final java.util.Set<String> RTL_SCRIPTS = java.util.Set.of(
            "Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr", "Mend");
    /** Languages whose default script (CLDR likely subtags) is one of {@link #RTL_SCRIPTS}. */
    private static final java.util.Set<String> RTL_LANGUAGES = java.util.Set.of(
            "ar", "he", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb", "syr", "ks", "arc", "nqo", "prs", "bal",
            "bqi", "glk", "lrc", "mzn", "azb");

    /** A variant twice ({@code de-1996-1996}); a language and its region may agree ({@code fr-FR}, {@code no-NO}). */
    private static boolean repeatsAVariant(String tag) {
        List<String> variants = new ArrayList<>();
        String[] subtags = tag.toLowerCase(Locale.ROOT).split("-");
        for (int i = 1; i < subtags.length; i++) {
            String subtag = subtags[i];
            boolean variant = subtag.length() >= 5 || subtag.length() == 4 && Character.isDigit(subtag.charAt(0));
            if (variant && variants.contains(subtag)) {
                return true;
            }
            if (variant) {
                variants.add(subtag);
            }
        }
        return false;
    }

    private static Locale strict(String tag) {
        try {
            return new Locale.Builder().setLanguageTag(tag).build();
        } catch (IllformedLocaleException e) {
            return null;
        }
    }

    private static boolean isAsciiTag(String tag) {
        for (int i = 0; i < tag.length(); i++) {
            char c = tag.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-')) {
                return false;
            }
        }
        return true;
    }
}
