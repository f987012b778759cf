package dev.herald.account;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.herald.support.AdminClient;
import dev.herald.support.Tokens;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.http1.Http1ClientResponse;

import jakarta.json.JsonObject;

/**
 * The accounts the tests of accounts, sessions and the audit log configure, and a client that sends what a browser
 * would: cookies, a CSRF token, Sec-Fetch-Site.
 */
public final class Accounts {

    public static final String ALICE_TOKEN = "alice-token-0123456789abcdef0123456789abcdef";
    public static final String VICTOR_TOKEN = "victor-token-0123456789abcdef0123456789abcdef";

    private Accounts() {
    }

    /** alice, an editor; victor, a viewer; and the admin token of the other tests. */
    public static Map<String, String> settings() {
        return Map.of("admin.tokens.0", AdminClient.TOKEN,
                      "admin.accounts.0.name", "alice",
                      "admin.accounts.0.role", "editor",
                      "admin.accounts.0.token-sha256", sha256(ALICE_TOKEN),
                      "admin.accounts.1.name", "victor",
                      "admin.accounts.1.role", "viewer",
                      "admin.accounts.1.token-sha256", sha256(VICTOR_TOKEN));
    }

    public static String sha256(String token) {
        return Tokens.sha256(token);
    }

    public record Answer(int status, String body, List<String> setCookies) {
        public JsonObject object() {
            return dev.herald.support.JsonBodies.object(body);
        }

        public jakarta.json.JsonArray array() {
            return dev.herald.support.JsonBodies.array(body);
        }

        public String code() {
            return object().getString("code");
        }

        /** The session cookie's value as set, if set. */
        public Optional<String> session() {
            return setCookies.stream().filter(cookie -> cookie.startsWith(SessionStore.COOKIE + "="))
                    .map(cookie -> cookie.substring(SessionStore.COOKIE.length() + 1, cookie.indexOf(';')))
                    .findFirst();
        }
    }

    /**
     * A management request with these headers ({@code null} values are left out).
     *
     * @param json the body, or null
     */
    public static Answer send(Http1Client http, Method method, String path, String json, Map<String, String> headers) {
        Http1ClientRequest request = AdminClient.request(http, method, "/api/v1/admin" + path);
        headers.forEach((name, value) -> {
            if (value != null) {
                request.header(HeaderNames.create(name), value);
            }
        });
        Http1ClientResponse response = json == null ? request.request()
                : request.header(HeaderNames.CONTENT_TYPE, "application/json").submit(json);
        try (response) {
            String body = response.entity().hasEntity() ? response.as(String.class) : "";
            return new Answer(response.status().code(), body, response.headers().all(HeaderNames.SET_COOKIE,
                                                                                      List::of));
        }
    }

    /** A console request of this session, as the console's page sends it: its cookie, same-origin, its CSRF token. */
    public static Answer withSession(Http1Client http, Answer signedIn, Method method, String path, String json,
                                     String csrf) {
        Map<String, String> headers = new java.util.HashMap<>();
        headers.put("Cookie", SessionStore.COOKIE + "=" + signedIn.session().orElseThrow());
        headers.put("Sec-Fetch-Site", "same-origin");
        headers.put("X-CSRF-Token", csrf);
        return send(http, method, path, json, headers);
    }

    public static String signInBody(String name, String token) {
        return "{\"name\":\"" + name + "\",\"token\":\"" + token + "\"}";
    }
}
