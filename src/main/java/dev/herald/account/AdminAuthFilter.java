package dev.herald.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminResponses;
import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.api.ResponseHeaders;
import dev.herald.ratelimit.ClientAddresses;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.helidon.webserver.http.ServerRequest;

/**
 * docs/api.md#authentication: every management route needs a caller, and the caller's role allows the method.
 * <ul>
 * <li>{@code Authorization: Bearer <token>}, a token of {@code admin.tokens} (an editor) or of
 *     {@code admin.accounts} ({@link Credentials});</li>
 * <li>or a console session's cookie ({@link SessionStore}); a request that changes something then also carries
 *     {@code X-CSRF-Token} (compared in constant time, as the tokens are), and no request of another site is taken
 *     ({@code Sec-Fetch-Site}), whatever it carries.</li>
 * </ul>
 * A {@code viewer} may GET and HEAD only: anything else is 403. The caller is registered in the request's context
 * for the audit log ({@link Actor#of}). Signing in ({@code POST /api/v1/admin/session}) and taking an invitation
 * ({@code POST /api/v1/admin/invites/accept}) are the routes without a caller; they count their failures with these
 * ({@link SessionService}, {@link TeamService}).
 *
 * <p>A client (as the rate limit knows it: trusted proxies, IPv6 network) with {@code admin.auth-failures.limit}
 * failed tokens in a window is answered 429 on every route that takes a token until that window ends, whatever
 * token it presents: its token is not compared at all, so a guesser learns nothing more, not even that a guess was
 * right. An unknown or expired session cookie is not counted: 256 random bits are not guessed (and a cookie Herald
 * did not make is refused without a query, {@link SessionKey}), and a console left open past its time-out would
 * otherwise lock its user out. Nor is a request without any credential, neither {@code Authorization} nor a session
 * cookie: it guesses nothing, and it is what another site's page makes its visitors' browsers send (an image, a
 * form, a preflight), which would otherwise lock every visitor behind one address out of the API. The console asks
 * {@code GET /session} so at every load, and is answered 204, nobody, without an error.
 */
public final class AdminAuthFilter implements Filter {

    static final String SIGN_IN_PATH = ApiPaths.SIGN_IN;
    private static final Pattern AUDIENCE_CHECK_PATH = Pattern.compile("/api/v1/admin/notifications/[^/]+/audience-check");
    private static final String SESSIONS_PATH = ApiPaths.ADMIN + "/sessions";
    static final HeaderName CSRF_TOKEN = HeaderNames.create("X-CSRF-Token");
    static final HeaderName FETCH_SITE = HeaderNames.create("Sec-Fetch-Site");
    /** What a browser says of a request made by a page of this origin, or typed by its user. */
    static final Set<String> OWN_SITE = Set.of("same-origin", "none");
    private static final String BEARER = "bearer ";
    private static final Header BEARER_CHALLENGE = ResponseHeaders.fixed(HeaderNames.WWW_AUTHENTICATE, "Bearer");

    private final Credentials credentials;
    private final SessionStore sessions;
    private final ClientAddresses clients;
    private final AuthFailures failures;

    public AdminAuthFilter(Credentials credentials, SessionStore sessions, ClientAddresses clients,
                           AuthFailures failures) {
        this.credentials = credentials;
        this.sessions = sessions;
        this.clients = clients;
        this.failures = failures;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isAdmin(request)) {
            chain.proceed();
            return;
        }
        if (credentials.isEmpty()) {
            ErrorResponses.send(request, response, ApiException.error(
                    Status.FORBIDDEN_403, "FORBIDDEN", "Access denied for this resource"));
            return;
        }
        if (ApiPaths.isWithoutCaller(request)) {
            chain.proceed();
            return;
        }
        Optional<String> cookie = request.headers().cookies().first(SessionStore.COOKIE).asOptional();
        if (cookie.isEmpty() && !hasAuthorization(request)) {
            if (isSessionQuestion(request)) {
                // Who is signed in? Nobody: an answer, not a failure. A 401 here was an error in the browser's console
                // at every signed-out load of the console (docs/api.md, GET /api/v1/admin/session).
                AdminResponses.noContent(response);
                return;
            }
            response.header(BEARER_CHALLENGE);
            refuse(request, response, Status.UNAUTHORIZED_401, "UNAUTHORIZED", "Unauthorized");
            return;
        }
        Optional<Actor> caller;
        if (cookie.isPresent() && !hasAuthorization(request)) {
            caller = sessionCaller(request, response, cookie.get());
        } else {
            caller = tokenCaller(request, response);
        }
        if (caller.isEmpty()) {
            return;
        }
        // A viewer signs out too, and signs out its own other sessions.
        if (!caller.get().role().mayChange() && !isRead(request.prologue().method())
                && !ApiPaths.fullPath(request).equals(SIGN_IN_PATH) && !endsOwnSessions(request, caller.get())
                && !asksAudienceCheck(request)) {
            refuse(request, response, Status.FORBIDDEN_403, "FORBIDDEN",
                   caller.get().name() + " is a viewer: it may read, not change anything");
            return;
        }
        request.context().register(caller.get());
        chain.proceed();
    }

    /** The session's account; otherwise answers and returns empty. */
    private Optional<Actor> sessionCaller(RoutingRequest request, RoutingResponse response, String cookie) {
        String site = request.headers().first(FETCH_SITE).orElse("none");
        if (!OWN_SITE.contains(site)) {
            return refuse(request, response, Status.FORBIDDEN_403, "CROSS_SITE_REQUEST",
                          "A console session is not taken from another site's request");
        }
        Optional<SessionStore.Session> session = sessions.find(cookie);
        if (session.isEmpty()) {
            return refuse(request, response, Status.UNAUTHORIZED_401, "SESSION_ENDED",
                          "The console session has ended; sign in again");
        }
        if (!isRead(request.prologue().method())
                && !MessageDigest.isEqual(SessionStore.csrfToken(cookie).getBytes(StandardCharsets.UTF_8),
                                          request.headers().first(CSRF_TOKEN).orElse("")
                                                  .getBytes(StandardCharsets.UTF_8))) {
            return refuse(request, response, Status.FORBIDDEN_403, "CSRF_TOKEN_MISSING",
                          "A console request that changes something needs the session's X-CSRF-Token");
        }
        request.context().register(session.get());
        return Optional.of(session.get().account());
    }

    private Optional<Actor> tokenCaller(RoutingRequest request, RoutingResponse response) {
        Actor[] caller = new Actor[1];
        AuthFailures.Attempt attempt = failures.attempt(clients.clientOf(request), () -> {
            caller[0] = presentedToken(request).flatMap(credentials::actorOf).orElse(null);
            return caller[0] != null;
        });
        if (attempt.authenticated()) {
            return Optional.of(caller[0]);
        }
        if (attempt.blocked()) {
            ErrorResponses.send(request, response, AuthFailures.blocked(response, attempt));
            return Optional.empty();
        }
        response.header(BEARER_CHALLENGE);
        return refuse(request, response, Status.UNAUTHORIZED_401, "UNAUTHORIZED", "Unauthorized");
    }

    /**
     * Whether a management request presents something that is looked up: a bearer token, or, when the browser does
     * not mark it as another site's, a session cookie or a sign-in's body. What presents nothing, or only what is
     * refused unread because another site sent it, costs no look-up; it is answered at once and counted by no limit,
     * so that no web page can spend a visitor's budget with requests of its own ({@code <img>}, forms, preflights).
     */
    public static boolean presentsCredential(RoutingRequest request) {
        if (hasAuthorization(request)) {
            return true;
        }
        boolean ownSite = OWN_SITE.contains(request.headers().first(FETCH_SITE).orElse("none"));
        return ownSite && (request.headers().cookies().contains(SessionStore.COOKIE)
                || ApiPaths.isWithoutCaller(request));
    }

    /**
     * A route without a caller (signing in, taking an invitation) takes no request the browser marks as another
     * site's: no other page signs a visitor in, nor spends their link.
     */
    static void refuseCrossSite(ServerRequest request, String what) {
        if (!request.headers().first(FETCH_SITE).map(OWN_SITE::contains).orElse(true)) {
            throw ApiException.error(Status.FORBIDDEN_403, "CROSS_SITE_REQUEST", what
                    + " is not taken from another site's request");
        }
    }

    private static Optional<Actor> refuse(RoutingRequest request, RoutingResponse response, Status status,
                                          String code, String message) {
        ErrorResponses.send(request, response, ApiException.error(status, code, message));
        return Optional.empty();
    }

    /** {@code DELETE /sessions?account=} the caller's own name: its other sessions, whatever its role. */
    private static boolean endsOwnSessions(RoutingRequest request, Actor caller) {
        return request.prologue().method() == Method.DELETE && ApiPaths.fullPath(request).equals(SESSIONS_PATH)
                && request.query().all("account", List::of).equals(List.of(caller.name()));
    }

    /** "Would this user see it?" is a POST for its body (claims), but a question: it changes nothing. */
    private static boolean asksAudienceCheck(RoutingRequest request) {
        return request.prologue().method() == Method.POST
                && AUDIENCE_CHECK_PATH.matcher(ApiPaths.fullPath(request)).matches();
    }

    private static boolean isSessionQuestion(RoutingRequest request) {
        return isRead(request.prologue().method()) && ApiPaths.fullPath(request).equals(SIGN_IN_PATH);
    }

    private static boolean hasAuthorization(RoutingRequest request) {
        return request.headers().contains(HeaderNames.AUTHORIZATION);
    }

    private static Optional<String> presentedToken(RoutingRequest request) {
        String authorization = request.headers().first(HeaderNames.AUTHORIZATION).orElse("");
        if (authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Optional.empty();
        }
        return Optional.of(authorization.substring(BEARER.length()).strip());
    }

    static boolean isRead(Method method) {
        return method == Method.GET || method == Method.HEAD;
    }
}
