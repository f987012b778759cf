/**
 * Languages: BCP 47 tags as Herald stores them ({@link dev.herald.locale.LanguageTag}), a reader's languages and
 * RFC 4647 lookup among the languages there are ({@link dev.herald.locale.LanguagePreferences}), and the order in which
 * a request names its language ({@link dev.herald.locale.RequestedLanguages}).
 */
package dev.herald.locale;
