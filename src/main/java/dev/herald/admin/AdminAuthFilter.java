package dev.herald.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

import dev.herald.web.ApiException;
import dev.herald.web.ApiPaths;
import dev.herald.web.ErrorResponses;
import dev.herald.web.PendingHeaders;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * decisions §2: every management route needs {@code Authorization: Bearer <token>} with one of {@code admin.tokens}.
 * Tokens are compared as SHA-256 digests with {@link MessageDigest#isEqual}, against every configured token, so
 * neither the time taken nor an early exit tells how close a guess was, or how long a token is.
 */
public final class AdminAuthFilter implements Filter {

    private static final String BEARER = "bearer ";

    private final List<byte[]> tokenDigests;

    public AdminAuthFilter(List<String> tokens) {
        this.tokenDigests = tokens.stream().filter(token -> !token.isBlank()).map(AdminAuthFilter::digest).toList();
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
        if (!presentsValidToken(request)) {
            PendingHeaders.set(request, response, HeaderNames.WWW_AUTHENTICATE, "Bearer");
            ErrorResponses.send(request, response, ApiException.error(
                    Status.UNAUTHORIZED_401, "UNAUTHORIZED", "Unauthorized"));
            return;
        }
        chain.proceed();
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
