package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.List;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;
import dev.herald.ratelimit.ClientAddresses;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * docs/api.md#authentication: every management route needs {@code Authorization: Bearer <token>} with one of
 * {@code admin.tokens}. Tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual}, against every
 * configured token, so neither the time taken nor an early exit tells how close a guess was, or how long a token is.
 *
 * <p>A client (as the rate limit knows it: trusted proxies, IPv6 network) with {@code admin.auth-failures.limit}
 * failures in a window is answered 429 on every admin route until that window ends, whatever token it presents:
 * its token is not compared at all, so a guesser learns nothing more, not even that a guess was right.
 */
public final class AdminAuthFilter implements Filter {

    private static final String BEARER = "bearer ";
    private static final Header BEARER_CHALLENGE = HeaderValues.createCached(HeaderNames.WWW_AUTHENTICATE, "Bearer");

    private final List<byte[]> tokenDigests;
    private final ClientAddresses clients;
    private final AuthFailures failures;

    public AdminAuthFilter(AdminSettings settings, ClientAddresses clients, Clock clock) {
        this.tokenDigests = settings.tokens().stream().map(AdminAuthFilter::digest).toList();
        this.clients = clients;
        this.failures = new AuthFailures(settings.authFailures(), clock);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!ApiPaths.isAdmin(request)) {
            chain.proceed();
            return;
        }
        if (tokenDigests.isEmpty()) {
            ErrorResponses.send(request, response, ApiException.error(
                    Status.FORBIDDEN_403, "FORBIDDEN", "Access denied for this resource"));
            return;
        }
        AuthFailures.Attempt attempt = failures.attempt(clients.clientOf(request), () -> presentsValidToken(request));
        if (attempt.authenticated()) {
            chain.proceed();
        } else if (attempt.blocked()) {
            response.header(HeaderValues.create(HeaderNames.RETRY_AFTER, attempt.blockedSeconds()));
            ErrorResponses.send(request, response, ApiException.error(
                    Status.TOO_MANY_REQUESTS_429, "TOO_MANY_AUTH_FAILURES",
                    "Too many failed authentication attempts from this IP, please try again later."));
        } else {
            response.header(BEARER_CHALLENGE);
            ErrorResponses.send(request, response, ApiException.error(
                    Status.UNAUTHORIZED_401, "UNAUTHORIZED", "Unauthorized"));
        }
    }

    private boolean presentsValidToken(RoutingRequest request) {
        String authorization = request.headers().first(HeaderNames.AUTHORIZATION).orElse("");
        if (authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        byte[] presented = digest(authorization.substring(BEARER.length()).strip());
        boolean valid = false;
        for (byte[] known : tokenDigests) {
            valid |= MessageDigest.isEqual(known, presented);
        }
        return valid;
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
