package dev.herald.tracking;

import java.util.List;
import java.util.Optional;

import dev.herald.api.RequestLanguages;
import dev.herald.identity.UserIdentity;
import dev.herald.locale.LanguageTag;
import dev.herald.locale.RequestedLanguages;

import io.helidon.webserver.http.ServerRequest;

/**
 * Which of its notification's languages an interaction is recorded in (docs/api.md, POST
 * /api/v1/public/track/{notificationId}, {@code locale}): RFC 4647 lookup of the body's {@code locale} (the language
 * the client showed), then of the request's languages as the feed reads them (token claim, {@code ?locale=},
 * {@code Accept-Language}), among the notification's languages; none found, its own. A malformed tag is passed over,
 * never refused. A notification without translations is recorded in its own language with nothing of the request
 * read: the common case costs no parsing.
 */
final class RecordedLanguage {

    private RecordedLanguage() {
    }

    static String of(NotificationLanguages languages, String bodyLocale, ServerRequest request,
                     Optional<UserIdentity> user) {
        if (!languages.hasTranslations()) {
            return languages.own();
        }
        Optional<String> shown = LanguageTag.parseRange(bodyLocale);
        if (shown.isPresent()) {
            // What the widget sends: the language it showed, one of the notification's; the request's headers are
            // read only when it is not (lookup takes the first range that finds one, so the answer is the same).
            Optional<String> found = languages.found(List.of(shown.get()));
            if (found.isPresent()) {
                return found.get();
            }
        }
        return languages.recorded(RequestedLanguages.of(user.map(UserIdentity::locale).orElse(null),
                                                        request.query().first("locale").orElse(null),
                                                        RequestLanguages.acceptLanguage(request)));
    }
}
