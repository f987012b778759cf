package dev.herald.notification;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

import dev.herald.api.ApiException;
import dev.herald.api.TextLength;

/**
 * The one rule for every URL a notification carries to clients (its image, a LINK action's url, the links and
 * images of a rich-text message): absolute {@code http} or {@code https} with a host. A client puts these in an
 * {@code href} or {@code src}, where {@code javascript:} would run script, {@code data:} would show content no one
 * reviewed, and a relative URL would resolve against whatever page the client runs in.
 */
final class HttpUrls {

    static final int MAX_CHARACTERS = 2048;

    private HttpUrls() {
    }

    /**
     * Length first, so that a long URL is told it is too long, not that it is no URL.
     *
     * @param field the request field, as {@code details.field} names it when the URL is refused
     * @return the URL, unchanged
     */
    static String require(String text, String field) {
        TextLength.requireAtMost(text, MAX_CHARACTERS, field);
        if (!isAbsoluteHttp(text)) {
            throw ApiException.validation(field, field + " must be an absolute http or https URL");
        }
        return text;
    }

    private static boolean isAbsoluteHttp(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
