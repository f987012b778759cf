package dev.herald.admin;

import io.helidon.webserver.http.ServerRequest;

/**
 * Who made a management request, as the audit log names them: an account of {@code admin.accounts} by its name,
 * or a token of {@code admin.tokens} as {@code token:} and the first 8 hex digits of its SHA-256 (stable while the
 * token is, and no help to a guesser).
 */
public record Actor(String name, Role role) {

    /** The caller of a management request; AdminAuthFilter put it there before any route ran. */
    public static Actor of(ServerRequest request) {
        return request.context().get(Actor.class)
                .orElseThrow(() -> new IllegalStateException("A management route ran without AdminAuthFilter"));
    }
}
