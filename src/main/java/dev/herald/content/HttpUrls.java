package dev.herald.content;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

import dev.herald.api.ApiException;
import dev.herald.api.TextLength;

/**
 * The one rule for every URL a notification carries to clients (its image, a LINK action's url, the links and
 * images of a message, rich text or HTML): absolute {@code http} or {@code https} with a host. A client puts these in
 * an {@code href} or {@code src}, where {@code javascript:} would run script, {@code data:} would show content no one
 * reviewed, and a relative URL would resolve against whatever page the client runs in.
 */
public final class HttpUrls {

    public static final int MAX_CHARACTERS = 2048;

    private HttpUrls() {
    }

    /**
     * Length first, so that a long URL is told it is too long, not that it is no URL.
     *
     * @param field the request field, as {@code details.field} names it when the URL is refused
     * @return the URL, unchanged
     */
    public static String require(String text, String field) {
        TextLength.requireAtMost(text, MAX_CHARACTERS, field);
        if (!isAbsoluteHttp(text)) {
            throw ApiException.validation(field, field + " must be an absolute http or https URL");
        }
        return text;
    }

    /**
     * An HTML attribute's URL as a browser reads it, if it passes the rule: browsers strip leading and trailing C0
     * controls and spaces and remove tabs and line breaks anywhere, so {@code " java\tscript:"} is
     * {@code javascript:} to them, and must be to us. They also percent-encode what a URL may not hold as it is
     * ({@code "}, a space, {@code < > ` { | } ^ \}), where {@link URI} would refuse it: {@code ?q="2"} is a link to
     * them, and stays one, written {@code ?q=%222%22} as they would send it.
     *
     * @return the URL as the browser would read it, or empty when it breaks the rule
     */
    public static Optional<String> asBrowsersRead(String attribute) {
        int start = 0;
        int end = attribute.length();
        while (start < end && attribute.charAt(start) <= ' ') {
            start++;
        }
        while (end > start && attribute.charAt(end - 1) <= ' ') {
            end--;
        }
        String url = percentEncoded(attribute.substring(start, end).replaceAll("[\t\n\r]", ""));
        boolean allowed = url.codePointCount(0, url.length()) <= MAX_CHARACTERS && isAbsoluteHttp(url);
        return allowed ? Optional.of(url) : Optional.empty();
    }

    private static String percentEncoded(String url) {
        StringBuilder encoded = null;
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            boolean stray = c == '%' && !(isHex(url, i + 1) && isHex(url, i + 2));
            if (c < 0x20 || c == 0x7F || stray || " \"<>`{|}^\\".indexOf(c) >= 0) {
                if (encoded == null) {
                    encoded = new StringBuilder(url.length() + 8).append(url, 0, i);
                }
                encoded.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else if (encoded != null) {
                encoded.append(c);
            }
        }
        return encoded == null ? url : encoded.toString();
    }

    private static boolean isHex(String text, int at) {
        return at < text.length() && Character.digit(text.charAt(at), 16) >= 0;
    }

    static boolean isAbsoluteHttp(String text) {
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
