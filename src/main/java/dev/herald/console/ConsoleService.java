package dev.herald.console;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

import dev.herald.api.ApiPaths;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.StaticFile;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
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
    private static final Header TO_CONSOLE = ResponseHeaders.fixed(HeaderNames.LOCATION, PATH + "/");
    private static final Header[] PAGE_HEADERS = {
            ResponseHeaders.fixed(HeaderNames.create("Content-Security-Policy"), POLICY),
            ResponseHeaders.fixed(HeaderNames.create("X-Frame-Options"), "DENY"),
            ResponseHeaders.fixed(HeaderNames.create("Referrer-Policy"), "no-referrer")};

    private static final String JAVASCRIPT = "text/javascript; charset=utf-8";
    private static final String CSS = "text/css; charset=utf-8";

    /** A file and the path it answers at, under {@code /console}. */
    private record Asset(String path, StaticFile file) {
    }

    private final StaticFile page = file("", "index.html", "text/html; charset=utf-8").file();
    /** ProseMirror, vendored by tools/prosemirror/update.sh: the editor's modules, each importing the others. */
    private static final List<String> VENDORED = List.of("orderedmap", "prosemirror-commands", "prosemirror-history",
            "prosemirror-keymap", "prosemirror-model", "prosemirror-schema-list", "prosemirror-state",
            "prosemirror-transform", "prosemirror-view", "rope-sequence", "w3c-keyname");

    /**
     * The console's own modules: console.js, the page's one script, imports the others (a page each, the API, what
     * every page draws with); editor.js is imported when the editor first opens.
     */
    private static final List<String> MODULES = List.of("console", "api", "ui", "projects", "project", "keys", "stats",
                                                        "composer", "preview", "audit", "diff", "sessions", "editor",
                                                        "team", "lifecycle", "tokens", "audience", "languages",
                                                        "webhooks", "dates");

    private final List<Asset> assets = assets();

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::page)
                .head("/", this::page)
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
        for (Asset asset : assets) {
            rules.get(asset.path(), asset.file()::send)
                    .head(asset.path(), asset.file()::send)
                    .any(asset.path(), RouteFallbacks.methodNotAllowed("GET, HEAD"));
        }
    }

    /** {@code /console} without its slash is sent to {@code /console/}, against which the page's links resolve. */
    private void page(ServerRequest request, ServerResponse response) {
        if (!ApiPaths.fullPath(request).endsWith("/")) {
            response.status(Status.PERMANENT_REDIRECT_308).header(TO_CONSOLE).send();
            return;
        }
        page.send(request, response);
    }

    private static List<Asset> assets() {
        List<Asset> files = new ArrayList<>(List.of(file("", "console.css", CSS, CommentLines::styleSheet),
                                                    file("vendor/", "prosemirror.css", CSS),
                                                    file("", "favicon.svg", "image/svg+xml")));
        MODULES.forEach(name -> files.add(file("", name + ".js", JAVASCRIPT, CommentLines::script)));
        // Vendored files are sent as vendored: minified already, with their licence's header line.
        VENDORED.forEach(name -> files.add(file("vendor/", name + ".js", JAVASCRIPT)));
        return List.copyOf(files);
    }

    /** Every file the console serves, as paths under {@code /console/} (the page is ""). */
    static List<String> files() {
        List<String> files = new ArrayList<>(List.of("", "console.css", "vendor/prosemirror.css", "favicon.svg"));
        MODULES.forEach(name -> files.add(name + ".js"));
        VENDORED.forEach(name -> files.add("vendor/" + name + ".js"));
        return files;
    }

    private static Asset file(String directory, String name, String contentType) {
        return file(directory, name, contentType, UnaryOperator.identity());
    }

    /** @param served the bytes sent, made from the file's: the console's own code without its comment lines */
    private static Asset file(String directory, String name, String contentType, UnaryOperator<byte[]> served) {
        return new Asset("/" + directory + name,
                         StaticFile.of(DIRECTORY + directory, name, contentType, "no-cache", served, PAGE_HEADERS));
    }
}
