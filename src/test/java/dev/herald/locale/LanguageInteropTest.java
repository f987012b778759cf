package dev.herald.locale;

import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import dev.herald.support.NodeProject;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static java.util.Map.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Herald's BCP 47 code against code it did not write (docs/languages.md#tested-against), all asked in one node run
 * (src/test/interop-languages, pinned by its lock): node's {@code Intl.getCanonicalLocales} and {@code Intl.Locale}
 * (ICU) for the canonical form of tags, npm negotiator (Express's Accept-Language parser) for the order of a
 * header's ranges, and npm {@code @formatjs/intl-localematcher}'s lookup (ECMA-402's LookupMatcher, RFC 4647 §3.4)
 * for the language served. The corpus is {@link LanguageCorpus}. Where they differ, the difference is listed here
 * with who is right and why; each list is asserted whole, so a difference that appears, or one that goes, fails.
 */
class LanguageInteropTest {

    private static final String PURPOSE = "The language interoperability test compares Herald's tags, Accept-Language "
            + "order and lookup with Intl, negotiator and @formatjs/intl-localematcher (src/test/interop-languages, "
            + "docs/languages.md#tested-against)";
    private static final String FORMATJS_VERSION = "0.10.1";
    private static final String NEGOTIATOR_VERSION = "1.1.0";
    private static final String DEFAULT = "en";
    private static final String REFUSED = "(refused)";

    /** Tags both Herald's readings (stored and reader's) write otherwise than Intl: "Herald | Intl". */
    private static final Map<String, String> TAG_DIFFERENCES = Map.ofEntries(
            // RFC 5646 keeps variants in the order written (§2.2.5: the registry's prefixes fix a meaningful one);
            // UTS 35 canonicalisation sorts them and drops the deprecated arevela.
            entry("sl-rozaj-biske", "sl-rozaj-biske | sl-biske-rozaj"),
            entry("hy-Latn-IT-arevela", "hy-Latn-IT-arevela | hy-Latn-IT"),
            // Herald wants a language: und ("undetermined") names no text to serve.
            entry("und-Latn", REFUSED + " | und-Latn"),
            // CLDR's aliases, which Herald (the JDK) does not apply: mo and sgn-BR are deprecated in the IANA
            // registry (Preferred-Value ro, bzs); sh, tl, cmn are current subtags there; eng, aar, UK, 840 are not
            // registered subtags (well-formed, not valid); DD is deprecated without a replacement.
            entry("mo", "mo | ro"),
            entry("sgn-BR", "sgn-BR | bzs"),
            entry("sh", "sh | sr-Latn"),
            entry("tl", "tl | fil"),
            entry("cmn", "cmn | zh"),
            entry("eng", "eng | en"),
            entry("aar", "aar | aa"),
            entry("en-UK", "en-UK | en-GB"),
            entry("en-840", "en-840 | en-US"),
            entry("de-DD", "de-DD | de-DE"));

    /**
     * Besides {@link #TAG_DIFFERENCES}, tags Herald stores (parseStored) otherwise than Intl.getCanonicalLocales
     * writes them. Every other tag of the corpus both refuse or both write alike.
     */
    private static final Map<String, String> STORED_DIFFERENCES = Map.ofEntries(
            // IANA Preferred-Values the JDK applies too: Herald refuses to store a tag that is not its own canonical
            // form, so the writer learns to write he, id, yi, jbo rather than have another tag stored.
            entry("iw", REFUSED + " | he"),
            entry("in", REFUSED + " | id"),
            entry("ji", REFUSED + " | yi"),
            entry("art-lojban", REFUSED + " | jbo"),
            // A stored tag says which text, not how to format it: no extensions, no private use.
            entry("en-u-ca-gregory", REFUSED + " | en-u-ca-gregory"),
            entry("de-DE-u-co-phonebk", REFUSED + " | de-DE-u-co-phonebk"),
            entry("en-US-x-twain", REFUSED + " | en-US-x-twain"),
            entry("en-t-ja", REFUSED + " | en-t-ja"),
            entry("ja-JP-u-ca-japanese-x-foo", REFUSED + " | ja-JP-u-ca-japanese-x-foo"));

    /**
     * Besides {@link #TAG_DIFFERENCES}, tags Herald reads from a reader (parseRange: extensions and private use
     * dropped) otherwise than Intl's base name of them.
     */
    private static final Map<String, String> RANGE_DIFFERENCES = Map.ofEntries(
            // ECMA-402 takes Unicode locale identifiers, not every BCP 47 tag: it refuses irregular grandfathered
            // tags and extended language subtags. The JDK maps them as RFC 5646 §4.5 says (the IANA registry's
            // Preferred-Value; en-GB-oed becomes en-GB-x-oed, whose private use a range drops).
            entry("i-klingon", "tlh | " + REFUSED),
            entry("zh-min-nan", "nan | " + REFUSED),
            entry("en-GB-oed", "en-GB | " + REFUSED),
            entry("zh-yue", "yue | " + REFUSED),
            entry("zh-yue-HK", "yue-HK | " + REFUSED),
            entry("zh-cmn-Hans-CN", "cmn-Hans-CN | " + REFUSED));

    /**
     * Headers whose ranges Herald orders otherwise than negotiator (each range through Intl, * and refused ones left
     * out): "Herald | negotiator". No browser's header is among them.
     */
    private static final Map<String, String> HEADER_DIFFERENCES = Map.ofEntries(
            // RFC 9110 §12.5.4 allows a q weight and nothing else after a range, and a qvalue is 0 to 1 with at most
            // three decimals and a leading digit (§12.4.2): Herald leaves out an element that is not that grammar;
            // negotiator takes any parameter, parseFloat's reading of q, and the first of two qs.
            entry("de-DE;level=1, fr", "[fr] | [de-DE, fr]"),
            entry("en-US;q=2", "[] | [en-US]"),
            entry("fr;q=.5, en;q=0.1", "[en] | [fr, en]"),
            entry("fr;q=0.5555, en;q=0.6", "[en] | [en, fr]"),
            entry("en;q=0.5;q=0.9, fr;q=0.7", "[fr] | [fr, en]"),
            entry("en;q=0.8 fr;q=0.5", "[] | [en]"),
            // The tags' differences above, as ranges.
            entry("en-UK,en;q=0.5", "[en-UK, en] | [en-GB, en]"),
            entry("und;q=0.9, fr;q=0.8", "[fr] | [und, fr]"),
            entry("sl-rozaj-biske, sl;q=0.5", "[sl-rozaj-biske, sl] | [sl-biske-rozaj, sl]"),
            entry("x-klingon, i-klingon, zh-min-nan, fr", "[tlh, nan, fr] | [fr]"),
            entry("zh-yue-HK, fr", "[yue-HK, fr] | [fr]"));

    /**
     * Headers and available languages where the language Herald serves is not the reference's (default en):
     * "Herald | reference". Each follows from a difference of reading above; lookup itself agrees everywhere
     * ({@link #lookupIsTheLocaleMatchersLookup}) but where the matcher reads a tag through Intl first.
     */
    /** Herald's one addition to lookup: a Chinese region tries its script before plain zh (docs/languages.md). */
    private static final Map<String, String> CHINESE_SCRIPTS = Map.ofEntries(
            entry("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-HK,zh-TW;q=0.9,zh;q=0.8,en;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-TW,zh-Hant;q=0.9 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-Hant-TW;q=0.8,zh-TW;q=0.9,zh;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"));

    private static final Map<String, String> SERVED_DIFFERENCES = Map.ofEntries(
            entry("de-DE;level=1, fr in [de, en-GB]", "en | de"),
            entry("en-UK,en;q=0.5 in [de, en-GB]", "en | en-GB"),
            entry("fr;q=.5, en;q=0.1 in [en, fr, pt, zh, zh-Hant]", "en | fr"),
            entry("fr;q=.5, en;q=0.1 in [fr]", "en | fr"),
            entry("fr;q=0.5555, en;q=0.6 in [fr]", "en | fr"),
            // Herald's one addition to lookup: a Chinese region tries its script before plain zh (docs/languages.md).
            entry("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-HK,zh-TW;q=0.9,zh;q=0.8,en;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-TW,zh-Hant;q=0.9 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            entry("zh-Hant-TW;q=0.8,zh-TW;q=0.9,zh;q=0.7 in [en, fr, pt, zh, zh-Hant]", "zh-Hant | zh"),
            // Herald's bounds on a reader's list: the first 32 ranges read, a header over 1,024 characters ignored.
            entry(LanguageCorpus.label(LanguageCorpus.MANY_RANGES) + " in [fr]", "en | fr"),
            entry(LanguageCorpus.label(LanguageCorpus.OVER_LONG) + " in [en, fr, pt, zh, zh-Hant]", "en | fr"),
            entry(LanguageCorpus.label(LanguageCorpus.OVER_LONG) + " in [de, en-GB]", "en | de"),
            entry(LanguageCorpus.label(LanguageCorpus.OVER_LONG) + " in [fr]", "en | fr"));

    private static JsonObject reference;

    /**
     * The reference's answers, asked in one node run on the first test; where node is missing each test is skipped
     * with how to run it (failed under CI=true), as the user-token interoperability tests are.
     */
    private static synchronized JsonObject reference() {
        if (reference == null) {
            reference = ask();
        }
        return reference;
    }

    private static JsonObject ask() {
        JsonArrayBuilder tags = Json.createArrayBuilder();
        LanguageCorpus.TAGS.forEach(tags::add);
        JsonArrayBuilder headers = Json.createArrayBuilder();
        for (String header : LanguageCorpus.HEADERS) {
            headers.add(Json.createObjectBuilder().add("header", header)
                                .add("herald", Json.createArrayBuilder(LanguagePreferences.acceptLanguage(header))));
        }
        JsonArrayBuilder available = Json.createArrayBuilder();
        LanguageCorpus.AVAILABLE.forEach(set -> available.add(Json.createArrayBuilder(List.copyOf(set))));
        String input = Json.createObjectBuilder().add("tags", tags).add("headers", headers)
                .add("available", available).add("default", DEFAULT).build().toString();
        String output = NodeProject.LANGUAGES.run(input, Duration.ofSeconds(60), PURPOSE);
        try (var reader = Json.createReader(new StringReader(output))) {
            return reader.readObject();
        }
    }

    @Test
    void theReferenceIsThePinnedOne() {
        JsonObject versions = reference().getJsonObject("versions");
        assertEquals(FORMATJS_VERSION, versions.getString("@formatjs/intl-localematcher"));
        assertEquals(NEGOTIATOR_VERSION, versions.getString("negotiator"));
        assertEquals(LanguageCorpus.TAGS.size(), reference().getJsonArray("tags").size());
        assertEquals(LanguageCorpus.HEADERS.size(), reference().getJsonArray("headers").size());
    }

    @Test
    void storedTagsAreWrittenAsIntlWritesThem() {
        assertEquals(withTagDifferences(STORED_DIFFERENCES), tagDifferences(LanguageTag::parseStored, "canonical"));
    }

    @Test
    void readersTagsAreIntlsBaseNames() {
        assertEquals(withTagDifferences(RANGE_DIFFERENCES), tagDifferences(LanguageTag::parseRange, "base"));
    }

    @Test
    void rangesAreInNegotiatorsOrder() {
        Map<String, String> differences = new HashMap<>();
        for (int i = 0; i < LanguageCorpus.HEADERS.size(); i++) {
            String header = LanguageCorpus.HEADERS.get(i);
            List<String> herald = LanguagePreferences.acceptLanguage(header);
            List<String> theirs = strings(answer(i), "ranges");
            if (header.equals(LanguageCorpus.MANY_RANGES)) {
                assertEquals(theirs.subList(0, LanguagePreferences.MAX_RANGES), herald, "the first 32 ranges read");
            } else if (header.equals(LanguageCorpus.OVER_LONG)) {
                assertEquals(List.of(), herald, "a header over 1,024 characters ignored");
            } else if (!herald.equals(theirs)) {
                differences.put(header, herald + " | " + theirs);
            }
        }
        assertEquals(new HashMap<>(HEADER_DIFFERENCES), differences);
    }

    /**
     * RFC 4647 lookup alone: Herald's and the locale matcher's, given Herald's ranges, serve the same everywhere but
     * where the matcher first canonicalises a range with Intl (CLDR's en-UK to en-GB, above).
     */
    @Test
    void lookupIsTheLocaleMatchersLookup() {
        Map<String, String> expected = new HashMap<>(CHINESE_SCRIPTS);
        expected.put("en-UK,en;q=0.5 in [de, en-GB]", "en | en-GB");
        assertEquals(expected, servedDifferences("heraldLookup"));
    }

    /** Header to language served, each side reading the header its own way. */
    @Test
    void servedLanguageIsTheReferences() {
        assertEquals(new HashMap<>(SERVED_DIFFERENCES), servedDifferences("lookup"));
    }

    /**
     * Chinese by region (docs/languages.md): Chrome, Edge and Firefox in Taiwan and Hong Kong send zh-TW and zh-HK,
     * which plain lookup, the reference's, truncates to zh (Simplified); Herald tries the region's script first and
     * serves zh-Hant. Safari's zh-Hant-TW gets zh-Hant on both sides.
     */
    @Test
    void chineseByRegionGetsItsScript() {
        Set<String> available = LanguageCorpus.AVAILABLE.get(0);
        for (String header : List.of("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "zh-HK,zh-TW;q=0.9,zh;q=0.8,en;q=0.7")) {
            int i = LanguageCorpus.HEADERS.indexOf(header);
            assertEquals("zh-Hant", served(LanguagePreferences.acceptLanguage(header), available), header);
            assertEquals("zh", answer(i).getJsonArray("lookup").getString(0), header);
        }
        int safari = LanguageCorpus.HEADERS.indexOf("zh-Hant-TW");
        assertEquals("zh-Hant", served(LanguagePreferences.acceptLanguage("zh-Hant-TW"), available));
        assertEquals("zh-Hant", answer(safari).getJsonArray("lookup").getString(0));
    }

    private static Map<String, String> withTagDifferences(Map<String, String> more) {
        Map<String, String> all = new HashMap<>(TAG_DIFFERENCES);
        all.putAll(more);
        return all;
    }

    /** Corpus tag to "Herald | Intl" where Herald's reading of it is not Intl's answer's {@code member}. */
    private static Map<String, String> tagDifferences(Function<String, Optional<String>> herald, String member) {
        Map<String, String> differences = new HashMap<>();
        for (int i = 0; i < LanguageCorpus.TAGS.size(); i++) {
            String tag = LanguageCorpus.TAGS.get(i);
            String ours = herald.apply(tag).orElse(REFUSED);
            String intl = intl(i, member);
            if (!ours.equals(intl)) {
                differences.put(tag, ours + " | " + intl);
            }
        }
        return differences;
    }

    /** "header in set" to "Herald | reference" where the language Herald serves is not the answer's {@code member}. */
    private static Map<String, String> servedDifferences(String member) {
        Map<String, String> differences = new HashMap<>();
        for (int i = 0; i < LanguageCorpus.HEADERS.size(); i++) {
            List<String> ranges = LanguagePreferences.acceptLanguage(LanguageCorpus.HEADERS.get(i));
            for (int set = 0; set < LanguageCorpus.AVAILABLE.size(); set++) {
                String herald = served(ranges, LanguageCorpus.AVAILABLE.get(set));
                String theirs = answer(i).getJsonArray(member).getString(set);
                if (!herald.equals(theirs)) {
                    differences.put(key(i, set), herald + " | " + theirs);
                }
            }
        }
        return differences;
    }

    private static String served(List<String> ranges, Set<String> available) {
        return LanguagePreferences.lookup(ranges, available).orElse(DEFAULT);
    }

    private static String key(int header, int set) {
        return LanguageCorpus.label(LanguageCorpus.HEADERS.get(header)) + " in " + LanguageCorpus.AVAILABLE.get(set);
    }

    private static String intl(int tag, String member) {
        JsonObject answer = reference().getJsonArray("tags").getJsonObject(tag);
        return answer.containsKey(member) ? answer.getString(member) : REFUSED;
    }

    private static JsonObject answer(int header) {
        return reference().getJsonArray("headers").getJsonObject(header);
    }

    private static List<String> strings(JsonObject object, String name) {
        List<String> values = new ArrayList<>();
        for (JsonValue value : object.getJsonArray(name)) {
            values.add(((JsonString) value).getString());
        }
        return values;
    }
}
