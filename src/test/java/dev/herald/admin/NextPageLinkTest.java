package dev.herald.admin;

import java.io.IOException;
import java.net.URI;
import java.util.Map;

import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;

/**
 * A list's {@code Link: <…>; rel="next"} names this path and query, never more of the request target: an outside
 * test sent the target in absolute form ({@code GET http://user:pw@evil.example/api/v1/admin/projects}) and got a
 * link to that host, credentials included, which a paging client might follow with its token.
 */
@ServerTest
class NextPageLinkTest extends HeraldServerTest {

    private final AdminClient admin;
    private final URI uri;

    NextPageLinkTest(Http1Client http, URI uri) {
        this.admin = new AdminClient(http);
        this.uri = uri;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startServer(TestDatabase.h2(), server, Map.of("admin.tokens.0", AdminClient.TOKEN));
    }

    @Test
    void theNextPageIsThisPathOnThisServerWhateverFormTheTargetHad() throws IOException {
        admin.created("/projects", "{\"name\":\"a\"}");
        admin.created("/projects", "{\"name\":\"b\"}");
        for (String target : new String[] {"/api/v1/admin/projects?limit=1",
                                           "http://user:pw@evil.example/api/v1/admin/projects?limit=1",
                                           "javascript://evil/api/v1/admin/projects?limit=1"}) {
            RawHttp.Response page = RawHttp.exchange(uri, "GET " + target + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                                                          + AdminClient.TOKEN + "\r\nConnection: close", new byte[0]);
            if (page.status() != 200) {
                assertThat(target, page.status(), is(400));
                continue;
            }
            assertThat(target, page.headers().get("link"), startsWith("</api/v1/admin/projects?limit=1&cursor="));
        }
    }

    @Test
    void aPathCharacterOutsideAnIdIsEncodedInTheLink() throws IOException {
        admin.created("/projects", "{\"name\":\"a\"}");
        admin.created("/projects", "{\"name\":\"b\"}");
        RawHttp.Response page = RawHttp.exchange(uri, "GET /api/v1/admin/projects;x=%22%3E?limit=1 HTTP/1.1\r\nHost: x\r\n"
                                                      + "Authorization: Bearer " + AdminClient.TOKEN
                                                      + "\r\nConnection: close", new byte[0]);
        if (page.status() == 200) {
            String link = page.headers().get("link");
            assertThat(link, link.substring(1, link.indexOf('>')).matches("[A-Za-z0-9/._~%?&=-]+"), is(true));
        } else {
            assertThat(page.status(), is(404));
        }
    }
}
