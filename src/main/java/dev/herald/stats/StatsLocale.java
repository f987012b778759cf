package dev.herald.stats;

import dev.herald.api.ApiException;
import dev.herald.locale.LanguageTag;

import io.helidon.webserver.http.ServerRequest;

/**
 * The language a stats request is restricted to ({@code ?locale=}, docs/api.md#stats): a tag as Herald stores it,
 * canonical ({@code pt-br} is {@code pt-BR}), or null for every language. A malformed one is refused as {@code from}
 * and {@code to} are: a filter that matched nothing would read as "no interactions".
 */
final class StatsLocale {

    private StatsLocale() {
    }

    static String of(ServerRequest request) {
        return request.query().first("locale").asOptional()
                .map(tag -> LanguageTag.parseStored(tag).orElseThrow(() -> ApiException.validation(
                        "locale", "locale must be a language tag such as fr or pt-BR")))
                .orElse(null);
    }
}
