package dev.herald.browser;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.helidon.http.HeaderNames;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * A customer's site on another origin than Herald's: pages that embed the widget the way docs/browser.md says, under
 * the strict Content-Security-Policy of the issue (the SDK self-hosted, so that {@code script-src 'self'} holds),
 * optionally with hostile CSS or Trusted Types. Each page's script records policy violations and the widget's events
 * for the test; the policy's {@code report-uri} collects the reports a site's own endpoint would get.
 */
final class HostPages implements AutoCloseable {

    /** The widget's events and the page's policy violations, kept in the page for the test to read. */
    private static final String PAGE_SCRIPT = """
            window.__violations = [];
            window.__events = [];
            window.__errors = [];
            window.__warnings = [];
            // Each tracking body the widget sends as a beacon, as sent (its language among it).
            window.__beacons = [];
            const beacon = navigator.sendBeacon.bind(navigator);
            navigator.sendBeacon = (url, body) => { window.__beacons.push(String(body)); return beacon(url, body); };
            // The network as a test makes it, each flag for the widget's next request of its kind: __holdNextState,
            // its state answer waits for __releaseState() (answered; only its delivery waits); __holdNextMark, a state
            // it writes is sent at __releaseMark(); __failNextMark and __failNextFeed, that request fails as a
            // network error does.
            Object.assign(window, {__holdNextState: false, __holdNextMark: false, __failNextMark: false,
                                   __failNextFeed: false});
            const fetchNow = window.fetch.bind(window);
            const take = (flag) => window[flag] && !(window[flag] = false);
            window.fetch = async (url, options) => {
              const state = String(url).includes('/users/me/state');
              const write = options?.method === 'POST';
              if (state && write && take('__failNextMark')
                  || !write && String(url).includes('/notifications') && take('__failNextFeed')) {
                throw new TypeError('Failed to fetch');
              }
              if (state && write && take('__holdNextMark')) {
                await new Promise((release) => { window.__releaseMark = release; });
              }
              const hold = state && !write && take('__holdNextState');
              const response = await fetchNow(url, options);
              if (hold) await new Promise((release) => { window.__releaseState = release; });
              return response;
            };
            const warn = console.warn;
            console.warn = (...args) => { window.__warnings.push(args.join(' ')); warn.apply(console, args); };
            window.addEventListener('error', (e) => window.__errors.push(String(e.message || e)));
            window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
            document.addEventListener('securitypolicyviolation', (e) => {
              window.__violations.push(e.violatedDirective + ' ' + e.blockedURI);
            });
            document.addEventListener('DOMContentLoaded', () => {
              const query = new URLSearchParams(location.search);
              const widget = document.getElementById('widget');
              for (const name of ['herald-update', 'herald-error', 'herald-skipped']) {
                widget.addEventListener(name, (e) => window.__events.push({
                  type: name, status: e.detail.status, code: e.detail.code, retryIn: e.detail.retryIn, id: e.detail.id,
                  notModified: e.detail.notModified, count: e.detail.notifications && e.detail.notifications.length
                }));
              }
              if (query.get('embed')) return;
              if (query.get('interval')) widget.setAttribute('poll-interval', query.get('interval'));
              if (query.get('token')) widget.setAttribute('user-token', query.get('token'));
              if (query.get('locale')) widget.setAttribute('locale', query.get('locale'));
              widget.setAttribute('base-url', query.get('base'));
              widget.setAttribute('api-key', query.get('key'));
            });
            """;
    /** Rules a careless host page has: every element, buttons and paragraphs, all important. */
    static final String HOSTILE_CSS = """
            * { color: #f00 !important; font-size: 31px !important; font-family: serif !important;
                line-height: 3 !important; letter-spacing: 4px !important; box-sizing: content-box !important; }
            button { background: #0f0 !important; border: 7px dashed #00f !important; padding: 20px !important;
                     width: 300px !important; border-radius: 0 !important; }
            p { margin: 40px !important; text-transform: uppercase !important; display: inline !important; }
            herald-announcements { display: block !important; font-weight: 900 !important; }
            """;

    private final WebServer server;
    private final List<String> reports = new CopyOnWriteArrayList<>();
    private final byte[] sdk;
    private final String heraldOrigin;

    HostPages(URI herald) {
        this.heraldOrigin = "http://" + herald.getHost() + ":" + herald.getPort();
        Http1Client client = Http1Client.builder().baseUri(heraldOrigin).build();
        this.sdk = client.get("/sdk/v1/herald.js").requestEntity(byte[].class);
        this.server = WebServer.builder().host("127.0.0.1").port(0).shutdownHook(false)
                .routing(routing -> routing
                        .get("/page.html", this::page)
                        .get("/module.html", this::modulePage)
                        .get("/module.js", this::moduleScript)
                        .get("/page.js", (request, response) -> script(response, PAGE_SCRIPT.getBytes(StandardCharsets.UTF_8)))
                        .get("/herald.js", (request, response) -> script(response, sdk))
                        .post("/csp-report", (request, response) -> {
                            reports.add(request.content().as(String.class));
                            response.status(204).send();
                        })
                        .get("/hostile.css", (request, response) -> {
                            response.header(HeaderNames.CONTENT_TYPE, "text/css");
                            response.send(HOSTILE_CSS);
                        }))
                .build().start();
    }

    /**
     * The page for a key: {@code hostile} adds the hostile style sheet; {@code interval} the poll interval (s). The
     * page's script sets the widget's attributes once the document is loaded.
     */
    String page(String key, boolean hostile, Integer interval) {
        return origin() + "/page.html?key=" + key + "&base=" + URLEncoder.encode(heraldOrigin, StandardCharsets.UTF_8)
                + (hostile ? "&hostile=1" : "")
                + (interval == null ? "" : "&interval=" + interval);
    }

    /** The page for a key, its widget signed in as the user of {@code token} (the user-token attribute). */
    String pageAsUser(String key, String token, int interval) {
        return page(key, false, interval) + "&token=" + token;
    }

    /** The page for a key, its widget asking for a language (the locale attribute). */
    String pageIn(String key, String locale) {
        return page(key, false, null) + "&locale=" + URLEncoder.encode(locale, StandardCharsets.UTF_8);
    }

    /** The documented embed: the attributes in the markup, as the browser upgrades the element with them. */
    String embedPage(String key) {
        return origin() + "/page.html?key=" + key + "&base=" + URLEncoder.encode(heraldOrigin, StandardCharsets.UTF_8)
                + "&embed=1";
    }

    /** The same page without a Content-Security-Policy: whatever the widget let through would run. */
    String pageWithoutPolicy(String key) {
        return page(key, false, null) + "&nocsp=1";
    }

    /** The strict page that also requires Trusted Types: the browser refuses strings to its HTML parser. */
    String pageWithTrustedTypes(String key) {
        return page(key, false, null) + "&tt=1";
    }

    /** The policy reports received since the last call, from every page. */
    List<String> takeReports() {
        List<String> taken = List.copyOf(reports);
        reports.removeAll(taken);
        return taken;
    }

    String modulePage() {
        return origin() + "/module.html";
    }

    String origin() {
        return "http://127.0.0.1:" + server.port();
    }

    private void page(ServerRequest request, ServerResponse response) {
        boolean hostile = request.query().contains("hostile");
        if (!request.query().contains("nocsp")) {
            strictPolicy(response, "'self'", request.query().contains("tt"));
        }
        String widget = request.query().contains("embed")
                ? "<herald-announcements id=\"widget\" api-key=\"" + request.query().get("key") + "\" base-url=\""
                  + request.query().get("base") + "\" heading=\"News\"></herald-announcements>"
                : "<herald-announcements id=\"widget\"></herald-announcements>";
        response.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        response.send("""
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>A customer's page</title>
                %s<script src="/page.js"></script>
                <script src="/herald.js" defer></script>
                </head>
                <body>
                <p>The host page's own text.</p>
                <button type="button">The host page's button</button>
                %s
                </body>
                </html>
                """.formatted(hostile ? "<link rel=\"stylesheet\" href=\"/hostile.css\">\n" : "", widget));
    }

    private void modulePage(ServerRequest request, ServerResponse response) {
        strictPolicy(response, "'self' " + heraldOrigin, false);
        response.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        response.send("""
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>module</title>
                <script src="/page.js"></script>
                <script type="module" src="/module.js"></script>
                </head><body></body></html>
                """);
    }

    /** The SDK imported as an ES module straight from Herald, from another origin. */
    private void moduleScript(ServerRequest request, ServerResponse response) {
        script(response, """
                import Herald, { createClient, renderMessage, HeraldAnnouncements } from '%s/sdk/v1/herald.mjs';
                window.__module = [typeof createClient, typeof renderMessage, typeof HeraldAnnouncements,
                                   typeof Herald.createClient, String(customElements.get('herald-announcements') === HeraldAnnouncements)];
                """.formatted(heraldOrigin).getBytes(StandardCharsets.UTF_8));
    }

    private void strictPolicy(ServerResponse response, String scripts, boolean trustedTypes) {
        response.header(HeaderNames.create("Content-Security-Policy"), "default-src 'none'; script-src " + scripts
                + "; style-src 'self'; img-src https:; connect-src " + heraldOrigin + "; report-uri /csp-report"
                + (trustedTypes ? "; require-trusted-types-for 'script'" : ""));
    }

    private static void script(ServerResponse response, byte[] content) {
        response.header(HeaderNames.CONTENT_TYPE, "text/javascript; charset=utf-8");
        response.send(content);
    }

    @Override
    public void close() {
        server.stop();
    }
}
