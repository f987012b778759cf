package dev.herald.locale;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LanguagePreferencesTest {

    @Test
    void acceptLanguageIsOrderedByQualityThenByPosition() {
        assertEquals(List.of("fr-CA", "fr", "en-US", "en"),
                     LanguagePreferences.acceptLanguage("fr-CA,fr;q=0.9,en-US;q=0.8,en;q=0.7"));
        assertEquals(List.of("de", "en", "fr"), LanguagePreferences.acceptLanguage("en;q=0.5, de, fr;q=0.5"));
        assertEquals(List.of("zh-Hant-TW"), LanguagePreferences.acceptLanguage("ZH-hant-tw"));
    }

    @Test
    void malformedZeroAndWildcardRangesAreLeftOut() {
        assertEquals(List.of("en"), LanguagePreferences.acceptLanguage("*, en;q=0.1, fr;q=0, de;q=2, !!, it;q=0.x"));
        assertEquals(List.of(), LanguagePreferences.acceptLanguage(""));
        assertEquals(List.of(), LanguagePreferences.acceptLanguage(null));
        assertEquals(List.of(), LanguagePreferences.acceptLanguage("en," + "x".repeat(LanguagePreferences.MAX_HEADER_LENGTH)));
        assertEquals(List.of("en"), LanguagePreferences.acceptLanguage("en-u-ca-gregory"));
    }

    @Test
    void lookupDropsSubtagsFromTheEnd() {
        Set<String> available = Set.of("zh", "pt", "fr", "en");
        assertEquals(Optional.of("zh"), LanguagePreferences.lookup(List.of("zh-Hant-TW"), available));
        assertEquals(Optional.of("zh-Hant"), LanguagePreferences.lookup(List.of("zh-Hant-TW"), Set.of("zh", "zh-Hant")));
        assertEquals(Optional.of("pt"), LanguagePreferences.lookup(List.of("pt-BR"), available));
        assertEquals(Optional.of("fr"), LanguagePreferences.lookup(List.of("ja", "fr-CA"), available));
        assertEquals(Optional.empty(), LanguagePreferences.lookup(List.of("ja"), available));
        assertEquals("sl-Latn", LanguageTag.truncate("sl-Latn-x-foo".replace("-x-foo", "-a")));
    }

    @Test
    void chineseRegionsTryTheirScriptBeforePlainChinese() {
        Set<String> available = Set.of("zh", "zh-Hant", "en");
        assertEquals(Optional.of("zh-Hant"), LanguagePreferences.lookup(List.of("zh-TW"), available));
        assertEquals(Optional.of("zh-Hant"), LanguagePreferences.lookup(List.of("zh-HK"), available));
        assertEquals(Optional.of("zh"), LanguagePreferences.lookup(List.of("zh-CN"), available));
        assertEquals(Optional.of("zh-Hans"), LanguagePreferences.lookup(List.of("zh-SG"), Set.of("zh-Hans", "zh-Hant")));
        assertEquals(Optional.of("zh-TW"), LanguagePreferences.lookup(List.of("zh-TW"), Set.of("zh-TW", "zh-Hant")));
        assertEquals(Optional.of("zh-Hant-TW"), LanguagePreferences.lookup(List.of("zh-TW"), Set.of("zh-Hant-TW", "zh")));
        assertEquals(Optional.of("zh"), LanguagePreferences.lookup(List.of("zh-TW"), Set.of("zh", "zh-Hans")));
        assertEquals(Optional.empty(), LanguagePreferences.lookup(List.of("zh-TW"), Set.of("zh-Hans")));
    }

    @Test
    void storedTagsAreCanonicalAndPlain() {
        assertEquals(Optional.of("pt-BR"), LanguageTag.parseStored("pt-br"));
        assertEquals(Optional.of("sr-Latn-RS"), LanguageTag.parseStored("SR-latn-rs"));
        assertEquals(Optional.empty(), LanguageTag.parseStored("en-u-ca-gregory"));
        assertEquals(Optional.empty(), LanguageTag.parseStored("en_US"));
        assertEquals(Optional.empty(), LanguageTag.parseStored("x-private"));
        assertEquals(Optional.empty(), LanguageTag.parseStored("e"));
        assertEquals(Optional.empty(), LanguageTag.parseStored("en-" + "a".repeat(40)));
        assertEquals(Optional.empty(), LanguageTag.parseStored("de-1996-1996"), "RFC 5646 §2.2.5: no variant twice");
        assertEquals(Optional.empty(), LanguageTag.parseStored("en-Latn-US-posix-POSIX"));
        assertEquals(Optional.of("sl-rozaj-biske-1994"), LanguageTag.parseStored("sl-rozaj-biske-1994"));
        assertEquals(Optional.of("fr-FR"), LanguageTag.parseStored("fr-fr"), "a language and its region may agree");
        assertEquals(Optional.of("no-NO"), LanguageTag.parseStored("no-NO"));
    }

    @Test
    void directionFollowsTheScript() {
        assertTrue(LanguageTag.isRightToLeft("ar"));
        assertTrue(LanguageTag.isRightToLeft("he-IL"));
        assertTrue(LanguageTag.isRightToLeft("pa-Arab"));
        assertFalse(LanguageTag.isRightToLeft("az-Latn"));
        assertFalse(LanguageTag.isRightToLeft("fr"));
    }

    @Test
    void requestedOrderIsClaimThenParameterThenHeader() {
        assertEquals(List.of("de", "it", "fr", "en"), RequestedLanguages.of("de", "it", "fr, en;q=0.5, it;q=0.1"));
        assertEquals(List.of("it", "fr"), RequestedLanguages.of("not a tag!", "it", "fr"));
    }
}
