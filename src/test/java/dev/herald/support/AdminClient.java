package dev.herald.support;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;

/**
 * The management API as a test calls it (path with an optional query): the bearer token, JSON in and out.
 */
public final class AdminClient {

    /** As long as Herald requires outside development (32 characters at least). */
    public static final String TOKEN = "test-admin-token-0123456789abcdef0123456789";

    private final Http1Client client;

    public AdminClient(Http1Client client) {
        this.client = client;
    }

    public Answer call(Method method, String path) {
        return call(method, path, null);
    }

    public Answer call(Method method, String path, String json) {
        Http1ClientRequest request = request(client, method, "/api/v1/admin" + path)
                .header(HeaderNames.AUTHORIZATION, "Bearer " + TOKEN);
        Http1ClientResponse response = json == null
                ? request.request()
                : request.header(HeaderNames.CONTENT_TYPE, "application/json").submit(json);
        try (response) {
            String body = response.entity().hasEntity() ? response.as(String.class) : "";
            return new Answer(response.status().code(), body, response.headers().first(HeaderNames.LOCATION).orElse(null),
                              response.headers().first(HeaderNames.LINK).orElse(null),
                              response.headers().first(HeaderNames.WARNING).orElse(null));
        }
    }

    /** A request for a path that may carry a query ({@code /stats?from=2026-11-01}), its parameters set one by one. */
    public static Http1ClientRequest request(Http1Client client, Method method, String pathAndQuery) {
        int query = pathAndQuery.indexOf('?');
        Http1ClientRequest request = client.method(method)
                .path(query < 0 ? pathAndQuery : pathAndQuery.substring(0, query));
        if (query >= 0) {
            // A parameter given twice is sent twice: queryParam replaces, so each name's values go at once.
            Map<String, List<String>> values = new LinkedHashMap<>();
            for (String pair : pathAndQuery.substring(query + 1).split("&")) {
                String[] nameAndValue = pair.split("=", 2);
                values.computeIfAbsent(nameAndValue[0], name -> new ArrayList<>())
                        .add(nameAndValue.length > 1 ? nameAndValue[1] : "");
            }
            values.forEach((name, each) -> request.queryParam(name, each.toArray(String[]::new)));
        }
        return request;
    }

    public JsonObject created(String path, String json) {
        Answer answer = call(Method.POST, path, json);
        if (answer.status() != 201) {
            throw new AssertionError("POST " + path + " answered " + answer.status() + " " + answer.body());
        }
        return answer.object();
    }

    /** @param link the Link header, or null; @param warning the Warning header, or null */
    public record Answer(int status, String body, String location, String link, String warning) {
        public JsonObject object() {
            return JsonBodies.object(body);
        }

        public JsonArray array() {
            return JsonBodies.array(body);
        }
    }
}
