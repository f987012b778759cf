package dev.herald.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import dev.herald.support.HeraldServerTest;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.not;

/**
 * docs/console.md: the console's files from the module, each under the console's strict Content-Security-Policy,
 * unframeable, revalidated at every load; the page names no script or style but its own files.
 */
@ServerTest
class ConsoleServiceTest extends HeraldServerTest {

    private final Http1Client http;

    ConsoleServiceTest(Http1Client http) {
        this.http = http;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/console/", "/console/console.js", "/console/console.css", "/console/favicon.svg"})
    void everyFileIsServedUnderTheStrictPolicyAndRevalidatedWithItsTag(String path) {
        String tag;
        try (Http1ClientResponse response = http.get(path).request()) {
            assertThat(response.status().code(), is(200));
            assertThat(header(response, "Content-Security-Policy"), is("default-src 'none'; script-src 'self'; "
                    + "style-src 'self'; img-src 'self' https:; connect-src 'self'; form-action 'self'; "
                    + "base-uri 'none'; frame-ancestors 'none'"));
            assertThat(header(response, "X-Frame-Options"), is("DENY"));
            assertThat(header(response, "Referrer-Policy"), is("no-referrer"));
            assertThat(header(response, "Cache-Control"), is("no-cache"));
            assertThat(header(response, "X-Content-Type-Options"), is("nosniff"));
            tag = header(response, "ETag");
        }
        try (Http1ClientResponse again = http.get(path).header(HeaderNames.IF_NONE_MATCH, tag).request()) {
            assertThat(again.status().code(), is(304));
        }
    }

    @Test
    void thePageHasNoInlineScriptOrStyle() {
        String page = http.get("/console/").requestEntity(String.class);
        assertThat(page, containsString("<script type=\"module\" src=\"console.js\"></script>"));
        assertThat(page, not(containsString("style=")));
        assertThat("no event handler attribute", page.matches("(?s).*\\son[a-z]+\\s*=.*"), is(false));
        assertThat(page.split("<script").length, is(2));
        assertThat(page.contains("<style"), is(false));
    }

    /**
     * Issue 23's budget: every file the console loads, the editor included, at most 150 KB gzipped; no eval, no
     * function made from a string, no bare import (which only an import map, an inline script, would resolve).
     */
    /** A module's import of another of the console's: {@code from './x.js'} or {@code import('./x.js')}. */
    private static final Pattern RELATIVE_IMPORT = Pattern.compile("(?:from|import\\()\\s*['\"]\\./([\\w./-]+\\.js)['\"]");

    @Test
    void theConsoleFilesTogetherStayWithin150KilobytesGzippedAndRunNoStringAsCode() throws IOException {
        List<String> files = ConsoleService.files();
        assertThat(files, hasItems("", "console.js", "editor.js", "console.css", "vendor/prosemirror-view.js"));
        long gzipped = 0;
        for (String file : files) {
            byte[] served;
            try (Http1ClientResponse response = http.get("/console/" + file).request()) {
                assertThat(file, response.status().code(), is(200));
                served = response.as(byte[].class);
            }
            ByteArrayOutputStream packed = new ByteArrayOutputStream();
            try (GZIPOutputStream gzip = new GZIPOutputStream(packed) { { def.setLevel(Deflater.BEST_COMPRESSION); } }) {
                gzip.write(served);
            }
            gzipped += packed.size();
            String text = new String(served, StandardCharsets.UTF_8);
            assertThat(file, text.matches("(?s).*\\beval\\s*\\(.*|.*new\\s+Function\\b.*"), is(false));
            assertThat(file, file.endsWith(".js")
                    && text.matches("(?s).*(?<![\\w$.'\"-])(from|import)\\s*\\(?\\s*['\"][^'\"./][^'\"]*['\"].*"), is(false));
            Matcher imported = RELATIVE_IMPORT.matcher(text);
            while (file.endsWith(".js") && imported.find()) {
                String path = file.substring(0, file.lastIndexOf('/') + 1) + imported.group(1);
                assertThat("imported by " + file + ", served", files, hasItem(path));
            }
        }
        assertThat("gzipped bytes of the console's files", gzipped, lessThanOrEqualTo(150_000L));
    }

    @Test
    void theConsoleWithoutItsSlashIsRedirectedAndOtherMethodsAreRefused() {
        try (Http1ClientResponse response = http.get("/console").followRedirects(false).request()) {
            assertThat(response.status().code(), is(308));
            assertThat(header(response, "Location"), is("/console/"));
        }
        for (String path : List.of("/console/", "/console/console.js")) {
            try (Http1ClientResponse response = http.method(Method.POST).path(path).request()) {
                assertThat(response.status().code(), is(405));
                assertThat(header(response, "Allow"), is("GET, HEAD"));
            }
        }
        try (Http1ClientResponse response = http.get("/console/nothing.js").request()) {
            assertThat(response.status().code(), is(404));
        }
    }

    /** Herald's address opened in a browser (or by curl) leads to the console; a JSON client is told where things are. */
    @Test
    void theRootSendsABrowserToTheConsoleAndTellsAJsonClientWhereThingsAre() {
        for (String accept : List.of("text/html,application/xhtml+xml,*/*;q=0.8", "*/*")) {
            try (Http1ClientResponse response = http.get("/").header(HeaderNames.ACCEPT, accept).followRedirects(false)
                    .request()) {
                assertThat(accept, response.status().code(), is(303));
                assertThat(header(response, "Location"), is("/console/"));
            }
        }
        try (Http1ClientResponse response = http.get("/").header(HeaderNames.ACCEPT, "application/json").request()) {
            assertThat(response.status().code(), is(200));
            assertThat(response.as(String.class), is("{\"console\":\"/console/\",\"managementApi\":\"/api/v1/admin\","
                    + "\"publicApi\":\"/api/v1/public\",\"docs\":\"docs/api.md in Herald's sources; GET /openapi on the"
                    + " operations listener (observe.port)\"}"));
        }
        try (Http1ClientResponse response = http.method(Method.POST).path("/").request()) {
            assertThat(response.status().code(), is(405));
        }
    }

    private static String header(Http1ClientResponse response, String name) {
        return response.headers().first(HeaderNames.create(name)).orElseThrow(() -> new AssertionError("no " + name));
    }
}
