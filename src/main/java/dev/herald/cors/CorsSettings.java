package dev.herald.cors;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code cors} configuration: no origins listed means any origin. Each listed one is an origin as a browser sends
 * it ({@code https://app.example.com}, {@code http://localhost:5173}): anything else (a path, a trailing slash, a word)
 * would never match a request's {@code Origin}, and the site it was meant for would be refused without a word.
 */
public record CorsSettings(List<String> allowedOrigins) {

    private static final String KEY = "cors.allowed-origins";

    public CorsSettings {
        allowedOrigins = List.copyOf(allowedOrigins);
    }

    /** @throws BadSetting naming the first entry that is no origin */
    public static CorsSettings from(Config config) {
        List<String> origins = ConfigValues.list(config.get("allowed-origins"));
        for (int i = 0; i < origins.size(); i++) {
            if (!isOrigin(origins.get(i))) {
                throw new BadSetting(KEY + " (" + ConfigValues.environmentName(KEY) + "): entry " + (i + 1) + " of "
                        + origins.size() + ", " + shown(origins.get(i)) + ", is not an origin; each must be"
                        + " scheme://host[:port], without a path or a trailing slash, e.g. https://app.example.com");
            }
        }
        return new CorsSettings(origins);
    }

    boolean allowsAnyOrigin() {
        return allowedOrigins.isEmpty();
    }

    /** An origin mistyped is quoted; a value that is not even a URL could be a token pasted in the wrong place. */
    private static String shown(String value) {
        return value.contains("://") ? "\"" + value + "\"" : ConfigValues.shown(value);
    }

    private static boolean isOrigin(String value) {
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null
                    && uri.getRawUserInfo() == null && uri.getRawPath().isEmpty() && uri.getRawQuery() == null
                    && uri.getRawFragment() == null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
