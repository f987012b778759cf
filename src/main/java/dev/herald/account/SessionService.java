package dev.herald.account;

import java.util.Optional;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.RouteFallbacks;
import dev.herald.ratelimit.ClientAddresses;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The console's session (docs/api.md#accounts-and-sessions): {@code POST /session} signs in with an account's name and token,
 * {@code GET} tells who is signed in (and the CSRF token the console sends with its writes), {@code DELETE} signs
 * out. The session is an HttpOnly, SameSite=Strict, {@code __Host-} cookie: no script reads it and no other site's
 * request carries it.
 */
final class SessionService implements HttpService {

    private static final System.Logger LOGGER = System.getLogger(SessionService.class.getName());
    private static final BodyFields SIGN_IN = BodyFields.of("name", "token");

    private final Credentials credentials;
    private final SessionStore sessions;
    private final ClientAddresses clients;
    private final AuthFailures failures;

    SessionService(Credentials credentials, SessionStore sessions, ClientAddresses clients, AuthFailures failures) {
        this.credentials = credentials;
        this.sessions = sessions;
        this.clients = clients;
        this.failures = failures;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/session", this::signIn)
                .get("/session", this::current)
                .delete("/session", this::signOut)
                .any("/session", RouteFallbacks.methodNotAllowed("GET, POST, DELETE"));
    }

    private void signIn(ServerRequest request, ServerResponse response) {
        if (!request.headers().first(AdminAuthFilter.FETCH_SITE).map(AdminAuthFilter.OWN_SITE::contains)
                .orElse(true)) {
            throw ApiException.error(Status.FORBIDDEN_403, "CROSS_SITE_REQUEST",
                                     "Signing in is not taken from another site's request");
        }
        JsonObject body = AdminRequests.body(request, SIGN_IN);
        String name = AdminRequests.optionalString(body, "name").map(String::strip).orElse("");
        String token = AdminRequests.optionalString(body, "token").map(String::strip).orElse("");
        Actor[] account = new Actor[1];
        AuthFailures.Attempt attempt = failures.attempt(clients.clientOf(request), () -> {
            account[0] = credentials.actorOf(token).filter(actor -> actor.name().equals(name)).orElse(null);
            return account[0] != null;
        });
        if (attempt.blocked()) {
            throw AuthFailures.blocked(response, attempt);
        }
        if (!attempt.authenticated() || credentials.account(name).isEmpty()) {
            throw ApiException.error(Status.UNAUTHORIZED_401, "UNAUTHORIZED", "No account has this name and token");
        }
        String cookie = sessions.open(name);
        LOGGER.log(System.Logger.Level.INFO, "Console sign-in: " + name + " (" + account[0].role().id() + ")");
        response.header(HeaderNames.SET_COOKIE, SessionStore.COOKIE + "=" + cookie + "; Path=/; Secure; HttpOnly;"
                + " SameSite=Strict; Max-Age=" + sessions.settings().maxAge().toSeconds());
        AdminResponses.created(request, response, AdminAuthFilter.SIGN_IN_PATH, json(account[0], Optional.of(cookie)));
    }

    private void current(ServerRequest request, ServerResponse response) {
        AdminResponses.ok(request, response, json(Actor.of(request), sessionCookie(request)));
    }

    private void signOut(ServerRequest request, ServerResponse response) {
        sessionCookie(request).ifPresent(cookie -> {
            sessions.close(cookie);
            LOGGER.log(System.Logger.Level.INFO, "Console sign-out: " + Actor.of(request).name());
        });
        response.header(HeaderNames.SET_COOKIE, SessionStore.COOKIE + "=; Path=/; Secure; HttpOnly; SameSite=Strict;"
                + " Max-Age=0");
        AdminResponses.noContent(response);
    }

    /** The session's cookie, when the caller came with one rather than a bearer token. */
    private static Optional<String> sessionCookie(ServerRequest request) {
        if (request.headers().contains(HeaderNames.AUTHORIZATION)) {
            return Optional.empty();
        }
        return request.headers().cookies().first(SessionStore.COOKIE).asOptional();
    }

    private JsonObject json(Actor actor, Optional<String> cookie) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("name", actor.name())
                .add("role", actor.role().id());
        cookie.ifPresent(value -> json.add("csrfToken", SessionStore.csrfToken(value))
                .add("idleTimeout", sessions.settings().idleTimeout().toString())
                .add("maxAge", sessions.settings().maxAge().toString()));
        return json.build();
    }
}
