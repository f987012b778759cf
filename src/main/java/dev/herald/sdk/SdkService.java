package dev.herald.sdk;

import java.util.ArrayList;
import java.util.List;

import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.StaticFile;
import dev.herald.config.ConfigValues;

import io.helidon.config.Config;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;

/**
 * The browser SDK at {@code /sdk/v1/} (docs/browser.md): {@code herald.js} (a plain script, which an ES module may
 * import too), {@code herald.mjs} (its exports) and {@code preview.mjs} (one announcement in the widget's panel),
 * and the demo page where {@code sdk.demo.enabled} is true.
 *
 * <p>The scripts may be cached for a week and revalidated with their ETag: {@code v1} names the SDK's interface,
 * which later versions keep, so a browser that holds last week's file still works with this server. They carry
 * {@code Access-Control-Allow-Origin: *}, which a module script from another origin needs, and
 * {@code Cross-Origin-Resource-Policy: cross-origin}, which pages that isolate themselves need.
 */
public final class SdkService implements HttpService {

    public static final String PATH = "/sdk/v1";
    private static final String DIRECTORY = "/sdk/v1/";
    static final String SCRIPT_CACHE = "public, max-age=604800";
    /** The demo shows the widget under the strictest policy it supports (docs/browser.md, Content-Security-Policy). */
    static final String DEMO_POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' https:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private static final String ALLOWED_METHODS = "GET, HEAD";
    private static final Header[] SCRIPT_HEADERS = {
            ResponseHeaders.fixed(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
            ResponseHeaders.fixed(HeaderNames.create("Cross-Origin-Resource-Policy"), "cross-origin")};

    private final List<StaticFile> files;

    private SdkService(List<StaticFile> files) {
        this.files = files;
    }

    public static SdkService create(Config sdk) {
        List<StaticFile> files = new ArrayList<>();
        files.add(StaticFile.of(DIRECTORY, "herald.js", "text/javascript; charset=utf-8", SCRIPT_CACHE, SCRIPT_HEADERS));
        files.add(StaticFile.of(DIRECTORY, "herald.mjs", "text/javascript; charset=utf-8", SCRIPT_CACHE, SCRIPT_HEADERS));
        files.add(StaticFile.of(DIRECTORY, "preview.mjs", "text/javascript; charset=utf-8", SCRIPT_CACHE, SCRIPT_HEADERS));
        if (ConfigValues.bool(sdk.get("demo.enabled"), false)) {
            Header policy = ResponseHeaders.fixed(HeaderNames.create("Content-Security-Policy"), DEMO_POLICY);
            files.add(StaticFile.of(DIRECTORY, "demo.html", "text/html; charset=utf-8", "no-cache", policy));
            files.add(StaticFile.of(DIRECTORY, "demo.js", "text/javascript; charset=utf-8", "no-cache"));
            files.add(StaticFile.of(DIRECTORY, "demo.css", "text/css; charset=utf-8", "no-cache"));
        }
        return new SdkService(List.copyOf(files));
    }

    @Override
    public void routing(HttpRules rules) {
        for (StaticFile file : files) {
            String path = "/" + file.name();
            rules.get(path, file::send)
                    .head(path, file::send)
                    .any(path, RouteFallbacks.methodNotAllowed(ALLOWED_METHODS));
        }
    }
}
