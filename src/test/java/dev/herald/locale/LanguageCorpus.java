package dev.herald.locale;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What LanguageInteropTest feeds Herald and the reference libraries: Accept-Language values as browsers send them
 * (Chrome, Edge, Firefox, Safari, on various system languages), odd but valid ones, hostile and malformed ones; tags
 * as a management write or a {@code ?locale=} might give them; and sets of available languages.
 */
final class LanguageCorpus {

    private LanguageCorpus() {
    }

    /** Chrome and Edge: the user's list, each language with its region then without, q down by 0.1. */
    static final List<String> CHROMIUM = List.of(
            "en-US,en;q=0.9",
            "en-GB,en-US;q=0.9,en;q=0.8",
            "en-GB,en;q=0.9,en-US;q=0.8",
            "en-US,en;q=0.9,fr;q=0.8",
            "en-IN,en-GB;q=0.9,en-US;q=0.8,en;q=0.7,hi;q=0.6",
            "fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7",
            "fr-CA,fr;q=0.9,en-US;q=0.8,en;q=0.7",
            "de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7",
            "de-CH,de;q=0.9,fr-CH;q=0.8,fr;q=0.7,en;q=0.6",
            "es-ES,es;q=0.9",
            "es-419,es;q=0.9,en;q=0.8",
            "es-MX,es-419;q=0.9,es;q=0.8,en;q=0.7",
            "pt-BR,pt;q=0.9",
            "pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7",
            "pt-PT,pt;q=0.9,en-US;q=0.8,en;q=0.7",
            "it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7",
            "nl-NL,nl;q=0.9,en-US;q=0.8,en;q=0.7",
            "nl-BE,nl;q=0.9,fr-BE;q=0.8,fr;q=0.7,en-US;q=0.6,en;q=0.5",
            "ja,en-US;q=0.9,en;q=0.8",
            "ja-JP,ja;q=0.9,en-US;q=0.8,en;q=0.7",
            "ko-KR,ko;q=0.9,en-US;q=0.8,en;q=0.7",
            "zh-CN,zh;q=0.9",
            "zh-CN,zh;q=0.9,en;q=0.8,en-GB;q=0.7,en-US;q=0.6",
            "zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7",
            "zh-HK,zh-TW;q=0.9,zh;q=0.8,en;q=0.7",
            "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7",
            "uk-UA,uk;q=0.9,en-US;q=0.8,en;q=0.7,ru;q=0.6",
            "pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7",
            "tr-TR,tr;q=0.9,en-US;q=0.8,en;q=0.7",
            "ar,en-US;q=0.9,en;q=0.8",
            "ar-SA,ar;q=0.9,en-US;q=0.8,en;q=0.7",
            "ar-EG,ar;q=0.9,en;q=0.8",
            "he-IL,he;q=0.9,en-US;q=0.8,en;q=0.7",
            "he,en;q=0.9",
            "fa-IR,fa;q=0.9,en-US;q=0.8,en;q=0.7",
            "hi-IN,hi;q=0.9,en-US;q=0.8,en;q=0.7",
            "id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7",
            "vi-VN,vi;q=0.9,fr-FR;q=0.8,fr;q=0.7,en-US;q=0.6,en;q=0.5",
            "th-TH,th;q=0.9",
            "sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7",
            "da-DK,da;q=0.9,en-US;q=0.8,en;q=0.7",
            "fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7",
            "nb-NO,nb;q=0.9,no;q=0.8,nn;q=0.7,en-US;q=0.6,en;q=0.5",
            "cs-CZ,cs;q=0.9,sk;q=0.8,en;q=0.7",
            "el-GR,el;q=0.9,en;q=0.8",
            "ro-RO,ro;q=0.9,en-US;q=0.8,en;q=0.7",
            "hu-HU,hu;q=0.9,en-US;q=0.8,en;q=0.7",
            "sr-Latn-RS,sr-Latn;q=0.9,sr;q=0.8,en;q=0.7",
            "sr-RS,sr;q=0.9,en;q=0.8",
            "ca-ES,ca;q=0.9,es;q=0.8,en;q=0.7",
            "fil-PH,fil;q=0.9,en-US;q=0.8,en;q=0.7");

    /** Firefox: q by 0.2 or 0.3 steps, one decimal; the user's own order otherwise. */
    static final List<String> FIREFOX = List.of(
            "en-US,en;q=0.5",
            "fr,fr-FR;q=0.8,en-US;q=0.5,en;q=0.3",
            "de,en-US;q=0.7,en;q=0.3",
            "es-ES,es;q=0.8,en-US;q=0.5,en;q=0.3",
            "pt-BR,pt;q=0.8,en-US;q=0.5,en;q=0.3",
            "ru-RU,ru;q=0.8,en-US;q=0.5,en;q=0.3",
            "zh-CN,zh;q=0.8,zh-TW;q=0.7,zh-HK;q=0.5,en-US;q=0.3,en;q=0.2",
            "ja,en-US;q=0.7,en;q=0.3",
            "ar,en-US;q=0.7,en;q=0.3",
            "nb-NO,nb;q=0.9,no-NO;q=0.8,no;q=0.6,nn-NO;q=0.5,nn;q=0.4,en-US;q=0.3,en;q=0.1");

    /** Safari (macOS, iOS): often one tag; scripts where the system names them; lower case from older versions. */
    static final List<String> SAFARI = List.of(
            "en-GB",
            "en-US",
            "fr-FR",
            "de-DE",
            "ja-JP",
            "zh-Hant-TW",
            "zh-Hans-CN,zh-Hans;q=0.9",
            "zh-TW,zh-Hant;q=0.9",
            "sr-Latn-RS",
            "en-us",
            "pt-br");

    /** Valid, but not as browsers write them: spaces, case, q=0, *, repeats, RFC 9110's own example. */
    static final List<String> ODD = List.of(
            "da, en-gb;q=0.8, en;q=0.7",
            "en-US, en;q=0.5",
            "  fr-CA  ;  q=0.8 , en",
            "EN-us,FR;Q=0.5",
            "de;q=0, en",
            "*",
            "*;q=0.5, fr",
            "en-US,en;q=0.9,*;q=0.5",
            "fr,fr,en",
            "fr;q=0.5,fr;q=0.9,en;q=0.7",
            "en;q=1.0, de;q=1.000",
            "en;q=0.001, fr;q=0.01",
            "de-DE;level=1, fr",
            "en-u-ca-gregory,fr",
            "en-US-x-twain, fr",
            "iw,en;q=0.5",
            "in-ID,en;q=0.5",
            "en-UK,en;q=0.5",
            "zh-Hant-TW;q=0.8,zh-TW;q=0.9,zh;q=0.7",
            "nn;q=0.9,nb;q=0.9,no;q=0.9",
            "fr,\ten;q=0.5",
            "en;q=0., fr;q=1.",
            "en ;q=0.5, fr; q=0.6",
            "fr-ca;q=0.8,FR-CA;q=0.9",
            "en-Latn-US,de-1996;q=0.5",
            "und;q=0.9, fr;q=0.8",
            "sl-rozaj-biske, sl;q=0.5",
            "fr-FR, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5");

    /** Every English of the Commonwealth (40 ranges), then the one a French-only project has. */
    static final String MANY_RANGES = String.join(",", List.of(
            "en-AU", "en-CA", "en-GB", "en-IE", "en-IN", "en-NZ", "en-ZA", "en-SG", "en-PH", "en-NG", "en-KE",
            "en-GH", "en-JM", "en-TT", "en-BZ", "en-BS", "en-BB", "en-BW", "en-ZM", "en-ZW", "en-MT", "en-PK",
            "en-HK", "en-MY", "en-FJ", "en-PG", "en-SB", "en-VU", "en-WS", "en-TO", "en-KI", "en-NR", "en-TV",
            "en-LR", "en-SL", "en-GM", "en-UG", "en-TZ", "en-RW", "en-MW", "fr;q=0.1"));
    /** Well-formed, but over 1,024 characters. */
    static final String OVER_LONG = "fr," + "en-US;q=0.9,".repeat(100) + "de;q=0.1";

    /** What no browser sends: malformed ranges and q-values, other separators, absurd lengths. */
    static final List<String> HOSTILE = hostile();

    private static List<String> hostile() {
        List<String> hostile = new ArrayList<>(List.of(
                "",
                ",,,",
                ";q=0.5",
                "q=0.9",
                "en_US",
                "en-US;q=2",
                "en;q=-1",
                "fr;q=abc, en;q=0.1",
                "fr;q=.5, en;q=0.1",
                "fr;q=0.5555, en;q=0.6",
                "en;q=0.5;q=0.9, fr;q=0.7",
                "en-, -en, en--US, fr",
                "123, a, b, fr",
                "toolongsubtag-abcdefghi, fr",
                "x-klingon, i-klingon, zh-min-nan, fr",
                "zh-yue-HK, fr",
                "en\u00e9, fr",
                "en;q=0.8 fr;q=0.5",
                "en US, fr",
                "\"fr\", en"));
        hostile.add(MANY_RANGES);
        hostile.add(OVER_LONG);
        return List.copyOf(hostile);
    }

    static final List<String> HEADERS = concat(CHROMIUM, FIREFOX, SAFARI, ODD, HOSTILE);

    /** Well-formed plain tags, which Herald stores and Intl canonicalises alike. */
    static final List<String> PLAIN_TAGS = List.of(
            "en", "EN", "en-us", "en-GB", "fr-CA", "pt-BR", "zh-Hant-TW", "zh-hans-cn", "sr-Latn-RS", "SR-LATN-rs",
            "es-419", "de-CH-1996", "sl-rozaj-biske", "sl-biske-rozaj", "ca-ES-valencia", "hy-Latn-IT-arevela",
            "nb", "no", "nn", "fil", "ar-EG", "he", "ast", "yue-Hant-HK", "ja-JP", "ko", "en-001", "en-150",
            "az-Latn", "pa-Arab", "ckb", "zh", "zh-TW", "zh-Hans", "und-Latn", "qaa");

    /** Deprecated or replaced subtags, legacy and extlang forms: where canonicalisers go their own ways. */
    static final List<String> ALIAS_TAGS = List.of(
            "iw", "in", "ji", "mo", "sh", "tl", "en-UK", "de-DD", "en-840", "cmn", "eng", "no-NO", "aar",
            "sgn-BR", "i-klingon", "zh-min-nan", "art-lojban", "en-GB-oed", "zh-yue", "zh-yue-HK",
            "zh-cmn-Hans-CN");

    /** Well-formed tags with extensions or private use: a reader's may have them, a stored one may not. */
    static final List<String> EXTENDED_TAGS = List.of(
            "en-u-ca-gregory", "de-DE-u-co-phonebk", "en-US-x-twain", "en-t-ja", "ja-JP-u-ca-japanese-x-foo",
            "x-foo");

    /** Not tags. */
    static final List<String> MALFORMED_TAGS = List.of(
            "en_US", "e", "en-", "-en", "en--US", "123", "en-US-", "abcdefghi", "en-a", "en US", "a-DE", "en-u",
            "de-419-DE", "en-" + "a".repeat(40));

    static final List<String> TAGS = concat(PLAIN_TAGS, ALIAS_TAGS, EXTENDED_TAGS, MALFORMED_TAGS);

    /** Languages a project might have, canonical. */
    static final List<Set<String>> AVAILABLE = List.of(
            ordered("en", "fr", "pt", "zh", "zh-Hant"),
            ordered("en", "ar", "he"),
            ordered("de", "en-GB"),
            ordered("en", "es", "es-419", "pt-BR", "fr-CA", "sr-Latn", "nb", "ja"),
            ordered("fr"),
            ordered("en"));

    /** How a header is named in the expected differences: an over-long one by its start and length. */
    static String label(String header) {
        return header.length() > 80 ? header.substring(0, 40) + "… (" + header.length() + " chars)" : header;
    }

    private static Set<String> ordered(String... tags) {
        return new LinkedHashSet<>(List.of(tags));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... lists) {
        List<String> all = new ArrayList<>();
        for (List<String> list : lists) {
            all.addAll(list);
        }
        return List.copyOf(all);
    }
}
