package dev.herald.sdk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;

import dev.herald.api.EntityTag;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.startsWith;

/**
 * The browser SDK's files as Herald serves them (docs/browser.md): the same bytes and ETag on every instance, a
 * week's cache and revalidation, loadable as a module from any origin, at most 8 KB gzipped; the demo page only
 * where it is switched on, under its strict policy. The browser itself runs them in BrowserWidgetTest.
 */
@ServerTest
class SdkServiceTest extends HeraldServerTest {

    /**
     * The budget for the whole file, gzipped (no minifier: the source is under it as written): 8 KiB until user
     * tokens, 12 KiB since, for identity, server unread counts, dismissal, languages and direction; 12.5 KiB since
     * plain text's line breaks and an answer shown again when its language comes back.
     */
    private static final int GZIPPED_BUDGET = 12 * 1024 + 512;

    private final Http1Client client;

    SdkServiceTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server);
    }

    @Test
    void theScriptIsServedWithItsHashAsEtagCacheableForAWeekAndLoadableFromAnyOrigin() throws IOException {
        byte[] source = resource("herald.js");
        try (Http1ClientResponse response = client.get("/sdk/v1/herald.js").request()) {
            assertThat(response.status().code(), is(200));
            assertThat(response.headers().get(HeaderNames.CONTENT_TYPE).get(), is("text/javascript; charset=utf-8"));
            assertThat(response.headers().get(HeaderNames.ETAG).get(), is(EntityTag.of(source)));
            assertThat(response.headers().get(HeaderNames.CACHE_CONTROL).get(), is("public, max-age=604800"));
            assertThat(response.headers().get(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN).get(), is("*"));
            assertThat(response.headers().get(HeaderNames.create("X-Content-Type-Options")).get(), is("nosniff"));
            assertThat(new String(response.as(byte[].class), StandardCharsets.UTF_8),
                       is(new String(source, StandardCharsets.UTF_8)));
        }
        try (Http1ClientResponse response = client.get("/sdk/v1/herald.js").request()) {
            assertThat(response.headers().get(HeaderNames.create("Cross-Origin-Resource-Policy")).get(), is("cross-origin"));
        }
        try (Http1ClientResponse module = client.get("/sdk/v1/herald.mjs").request()) {
            assertThat(module.status().code(), is(200));
            assertThat(module.headers().get(HeaderNames.CONTENT_TYPE).get(), is("text/javascript; charset=utf-8"));
            assertThat(module.headers().get(HeaderNames.ETAG).get(), is(EntityTag.of(resource("herald.mjs"))));
            assertThat(module.headers().get(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN).get(), is("*"));
            assertThat(module.as(String.class), containsString("import './herald.js';"));
        }
        try (Http1ClientResponse preview = client.get("/sdk/v1/preview.mjs").request()) {
            assertThat(preview.status().code(), is(200));
            assertThat(preview.headers().get(HeaderNames.CONTENT_TYPE).get(), is("text/javascript; charset=utf-8"));
            assertThat(preview.headers().get(HeaderNames.ETAG).get(), is(EntityTag.of(resource("preview.mjs"))));
            assertThat(preview.headers().get(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN).get(), is("*"));
            assertThat(preview.as(String.class), containsString("export function renderPreview("));
        }
    }

    @Test
    void aBrowserThatHoldsTheFileGets304AndHeadGetsTheHeadersOnly() throws IOException {
        String etag;
        try (Http1ClientResponse response = client.get("/sdk/v1/herald.js").request()) {
            etag = response.headers().get(HeaderNames.ETAG).get();
        }
        try (Http1ClientResponse response = client.get("/sdk/v1/herald.js").header(HeaderNames.IF_NONE_MATCH, etag)
                .request()) {
            assertThat(response.status().code(), is(304));
            assertThat(response.headers().get(HeaderNames.ETAG).get(), is(etag));
        }
        try (Http1ClientResponse response = client.method(Method.HEAD).path("/sdk/v1/herald.js").request()) {
            assertThat(response.status().code(), is(200));
            assertThat(response.headers().get(HeaderNames.ETAG).get(), is(etag));
            assertThat(response.headers().get(HeaderNames.CONTENT_LENGTH).get(),
                       is(String.valueOf(resource("herald.js").length)));
        }
        try (Http1ClientResponse response = client.post("/sdk/v1/herald.js").submit("x")) {
            assertThat(response.status().code(), is(405));
            assertThat(response.headers().get(HeaderNames.ALLOW).get(), is("GET, HEAD"));
        }
    }

    @Test
    void theWholeScriptIsAtMost8KilobytesGzipped() throws IOException {
        ByteArrayOutputStream gzipped = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzipped) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            out.write(resource("herald.js"));
        }
        assertThat(gzipped.size(), lessThanOrEqualTo(GZIPPED_BUDGET));
    }

    @Test
    void theDemoPageIsOffUnlessSwitchedOn() throws Exception {
        try (Http1ClientResponse response = client.get("/sdk/v1/demo.html").request()) {
            assertThat(response.status().code(), is(404));
        }
        try (TestDatabase database = TestDatabase.h2();
             MainBuiltServer demo = MainBuiltServer.start(database, Map.of("sdk.demo.enabled", "true"))) {
            Http1Client other = Http1Client.builder().baseUri(demo.uri()).build();
            try (Http1ClientResponse response = other.get("/sdk/v1/demo.html").request()) {
                assertThat(response.status().code(), is(200));
                assertThat(response.headers().get(HeaderNames.CONTENT_TYPE).get(), startsWith("text/html"));
                assertThat(response.headers().get(HeaderNames.create("Content-Security-Policy")).get(),
                           startsWith("default-src 'self'; script-src 'self'; style-src 'self'"));
                assertThat(response.as(String.class), containsString("<herald-announcements"));
            }
            // Another instance, the same file: the same ETag (a hash of the bytes, nothing of the instance's).
            try (Http1ClientResponse mine = client.get("/sdk/v1/herald.js").request();
                 Http1ClientResponse theirs = other.get("/sdk/v1/herald.js").request()) {
                assertThat(theirs.headers().get(HeaderNames.ETAG).get(), is(mine.headers().get(HeaderNames.ETAG).get()));
            }
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = SdkServiceTest.class.getResourceAsStream("/sdk/v1/" + name)) {
            return in.readAllBytes();
        }
    }
}
