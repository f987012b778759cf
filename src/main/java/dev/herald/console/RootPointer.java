package dev.herald.console;

import dev.herald.api.Json;
import dev.herald.api.JsonAnswers;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;

import io.helidon.common.media.type.MediaTypes;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;

/**
 * The root of the public port: someone who opens Herald's address in a browser is sent to the console, and a client
 * that asks for JSON is told where the console and the APIs are, rather than a bare 404 either way.
 */
public final class RootPointer implements HttpService {

    private static final Header TO_CONSOLE = ResponseHeaders.fixed(HeaderNames.LOCATION, ConsoleService.PATH + "/");
    private static final JsonObject POINTER = Json.builders().createObjectBuilder()
            .add("console", ConsoleService.PATH + "/")
            .add("managementApi", "/api/v1/admin")
            .add("publicApi", "/api/v1/public")
            .add("docs", "docs/api.md in Herald's sources; GET /openapi on the operations listener (observe.port)")
            .build();

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", RootPointer::answer)
                .head("/", RootPointer::answer)
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    /** JSON when the client prefers it to HTML (no Accept, or {@code *}{@code /*}, is a browser's or curl's: sent on). */
    private static void answer(ServerRequest request, ServerResponse response) {
        boolean json = request.headers().bestAccepted(MediaTypes.TEXT_HTML, MediaTypes.APPLICATION_JSON)
                .filter(MediaTypes.APPLICATION_JSON::equals)
                .isPresent();
        if (json) {
            JsonAnswers.send(request, response, POINTER);
            return;
        }
        // 303: whatever the method, the console is fetched with GET; not cached, as a 301 would be for good.
        response.status(Status.SEE_OTHER_303).header(TO_CONSOLE).send();
    }
}
