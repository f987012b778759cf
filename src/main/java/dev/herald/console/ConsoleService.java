package dev.herald.console;

import java.util.List;

import dev.herald.api.ApiPaths;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.StaticFile;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * The console at {@code /console/} (docs/console.md): a page, its script and its style, from the module. It holds
 * nothing secret and needs no caller; everything it shows or changes goes through the management API, as the
 * signed-in account.
 *
 * <p>Every answer carries the console's Content-Security-Policy: scripts and styles of this origin only (no inline
 * script or style, no eval), requests to this origin only, images of this origin or HTTPS (an announcement's image),
 * and no framing. Files are revalidated with their ETag at every load, so an upgrade shows at once.
 */
public final class ConsoleService implements HttpService {

    public static final String PATH = "/console";
    static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https:; "
            + "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
    private static final String DIRECTORY = "/console/";
    private static final Header[] PAGE_HEADERS = {
            HeaderValues.createCached(HeaderNames.create("Content-Security-Policy"), POLICY),
            HeaderValues.createCached(HeaderNames.create("X-Frame-Options"), "DENY"),
            HeaderValues.createCached(HeaderNames.create("Referrer-Policy"), "no-referrer")};

    private final StaticFile page = file("index.html", "text/html; charset=utf-8");
    private final List<StaticFile> assets = List.of(file("console.js", "text/javascript; charset=utf-8"),
                                                    file("console.css", "text/css; charset=utf-8"));

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::page)
                .head("/", this::page)
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
        for (StaticFile asset : assets) {
            String path = "/" + asset.name();
            rules.get(path, asset::send)
                    .head(path, asset::send)
                    .any(path, RouteFallbacks.methodNotAllowed("GET, HEAD"));
        }
    }

    /** {@code /console} without its slash is sent to {@code /console/}, against which the page's links resolve. */
    private void page(ServerRequest request, ServerResponse response) {
        if (!ApiPaths.fullPath(request).endsWith("/")) {
            response.status(Status.PERMANENT_REDIRECT_308).header(HeaderNames.LOCATION, PATH + "/").send();
            return;
        }
        page.send(request, response);
    }

    private static StaticFile file(String name, String contentType) {
        return StaticFile.of(DIRECTORY, name, contentType, "no-cache", PAGE_HEADERS);
    }
}
