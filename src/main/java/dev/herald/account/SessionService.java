package dev.herald.account;

import java.util.Optional;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.AdminResponses;
import dev.herald.admin.BodyFields;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.ResponseHeaders;
import dev.herald.api.RouteFallbacks;
import dev.herald.api.Timestamps;
import dev.herald.ratelimit.ClientAddresses;
import dev.herald.wire.RequestBodies;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The console's session (docs/api.md#accounts-and-sessions): {@code POST /session} signs in with an account's name and token,
 * {@code GET} tells who is signed in (and the CSRF token the console sends with its writes), {@code DELETE} signs
 * out. The session is an HttpOnly, SameSite=Strict, {@code __Host-} cookie: no script reads it and no other site's
 * request carries it.
 *
 * <p>{@code /sessions} (docs/api.md#get-apiv1adminsessions): the live sessions, without their secrets; an editor ends one
 * ({@code DELETE /sessions/{id}}) or every one of an account but its own ({@code DELETE /sessions?account=}), a
 * viewer sees only its own account's.
 */
final class SessionService implements HttpService {

    private static final BodyFields SIGN_IN = BodyFields.of("name", "token");
    private static final Header SIGNED_OUT = ResponseHeaders.fixed(HeaderNames.SET_COOKIE, SessionStore.COOKIE
            + "=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0");

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
                .head("/session", this::current)
                .delete("/session", this::signOut)
                .any("/session", RouteFallbacks.methodNotAllowed("GET, HEAD, POST, DELETE"))
                .get("/sessions", this::list)
                .head("/sessions", this::list)
                .delete("/sessions", this::endAll)
                .delete("/sessions/{id}", this::end)
                .any("/sessions", RouteFallbacks.methodNotAllowed("GET, HEAD, DELETE"))
                .any("/sessions/{id}", RouteFallbacks.methodNotAllowed("DELETE"));
    }

    private void signIn(ServerRequest request, ServerResponse response) {
        AdminAuthFilter.refuseCrossSite(request, "Signing in");
        JsonObject body = AdminRequests.body(request, SIGN_IN, RequestBodies.MAX_SIGN_IN_BYTES);
        // A sign-in without both is no guess, and not counted as a failure: an empty POST is what any page can make
        // its visitors' browsers send (a form without fields, sendBeacon), and twelve of them locked their address out.
        String name = required(body, "name");
        String token = required(body, "token");
        Actor[] account = new Actor[1];
        AuthFailures.Attempt attempt = failures.attempt(clients.clientOf(request), () -> {
            account[0] = credentials.actorOf(token).filter(actor -> actor.name().equals(name)).orElse(null);
            return account[0] != null;
        });
        if (attempt.blocked()) {
            throw AuthFailures.blocked(response, attempt);
        }
        // A token of admin.tokens opens no session (it has no account); nor does one whose account was disabled or
        // reset since the token was checked.
        String cookie = attempt.authenticated()
                ? sessions.open(account[0], token).map(SessionStore.Opened::cookie).orElse(null) : null;
        if (cookie == null) {
            throw ApiException.error(Status.UNAUTHORIZED_401, "UNAUTHORIZED", "No account has this name and token");
        }
        response.header(ResponseHeaders.of(HeaderNames.SET_COOKIE, SessionStore.COOKIE + "=" + cookie
                + "; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=" + sessions.settings().maxAge().toSeconds()));
        AdminResponses.created(request, response, AdminAuthFilter.SIGN_IN_PATH, json(account[0], Optional.of(cookie)));
    }

    private void current(ServerRequest request, ServerResponse response) {
        AdminResponses.ok(request, response, json(Actor.of(request), sessionCookie(request)));
    }

    private void signOut(ServerRequest request, ServerResponse response) {
        session(request).ifPresent(sessions::close);
        response.header(SIGNED_OUT);
        AdminResponses.noContent(response);
    }

    private void list(ServerRequest request, ServerResponse response) {
        Actor caller = Actor.of(request);
        Optional<String> account = caller.role().mayChange() ? accountQuery(request, false)
                                                              : Optional.of(caller.name());
        Optional<String> current = session(request).map(SessionStore.Session::id);
        JsonArrayBuilder list = Json.builders().createArrayBuilder();
        for (SessionStore.Session session : sessions.list(account)) {
            list.add(Json.builders().createObjectBuilder()
                             .add("id", session.id())
                             .add("account", session.account().name())
                             .add("createdAt", Timestamps.format(session.createdAt()))
                             .add("lastSeenAt", Timestamps.format(session.lastSeenAt()))
                             .add("current", current.filter(session.id()::equals).isPresent()));
        }
        AdminResponses.ok(request, response, list.build());
    }

    private void end(ServerRequest request, ServerResponse response) {
        if (!sessions.end(request.path().pathParameters().get("id"), Actor.of(request))) {
            throw AdminRequests.notFound("Session");
        }
        AdminResponses.noContent(response);
    }

    /** Every session of an account but the caller's own: "sign out my other sessions", or all of someone else's. */
    private void endAll(ServerRequest request, ServerResponse response) {
        String account = accountQuery(request, true).orElseThrow();
        long ended = sessions.endAll(account, session(request), Actor.of(request));
        AdminResponses.ok(request, response, Json.builders().createObjectBuilder().add("ended", ended).build());
    }

    /** {@code ?account=}: an account's name as admin.accounts allows it. */
    private static Optional<String> accountQuery(ServerRequest request, boolean required) {
        Optional<String> account = request.query().first("account").asOptional();
        if (account.isEmpty() && !required) {
            return account;
        }
        if (account.isEmpty() || !AccountSettings.NAME.matcher(account.get()).matches()) {
            throw ApiException.validation("account", "account must name an account: 1 to 100 letters, digits, '.',"
                    + " '_', '@' or '-'");
        }
        return account;
    }

    /** The caller's session, when it came with one rather than a bearer token. */
    private static Optional<SessionStore.Session> session(ServerRequest request) {
        return request.context().get(SessionStore.Session.class);
    }

    private static String required(JsonObject body, String field) {
        String value = AdminRequests.optionalString(body, field).map(String::strip).orElse("");
        if (value.isEmpty()) {
            throw ApiException.validation(field, "Signing in takes a name and a token: " + field + " is missing");
        }
        return value;
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
