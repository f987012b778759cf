package dev.herald.observe;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

import dev.herald.api.Bodies;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * {@code GET /openapi}: the OpenAPI 3.1 document of every route, {@code openapi.json} in the jar. Written by hand
 * and kept true by {@code OpenApiTest}, which checks real answers of the service against it.
 */
public final class OpenApiService implements HttpService {

    private final byte[] document;

    public OpenApiService() {
        try (InputStream in = OpenApiService.class.getResourceAsStream("/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is missing from the jar");
            }
            this.document = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::document)
                .head("/", this::document)
                .any("/", RouteFallbacks.methodNotAllowed("GET, HEAD"));
    }

    private void document(ServerRequest request, ServerResponse response) {
        response.header(ResponseHeaders.of(HeaderNames.CONTENT_TYPE, "application/json"));
        Bodies.send(request, response, document);
    }
}
