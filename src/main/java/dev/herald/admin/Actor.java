package dev.herald.admin;

import dev.herald.api.ApiException;

import io.helidon.http.Status;
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

    /**
     * The caller of a route only an owner may use; any other answers 403.
     *
     * @param what what only an owner does, as the message says it: {@code manages the team}
     */
    public static Actor owner(ServerRequest request, String what) {
        Actor caller = of(request);
        if (!caller.role().managesTeam()) {
            throw ApiException.error(Status.FORBIDDEN_403, "FORBIDDEN", caller.name() + " is not an owner: only an"
                    + " owner " + what);
        }
        return caller;
    }

    /**
     * The caller of a route that reads what a viewer may not (an export's raw rows); a viewer is answered 403.
     *
     * @param what what only an owner or an editor does, as the message says it: {@code exports interactions}
     */
    public static Actor editor(ServerRequest request, String what) {
        Actor caller = of(request);
        if (!caller.role().mayChange()) {
            throw ApiException.error(Status.FORBIDDEN_403, "FORBIDDEN", caller.name() + " is a viewer: only an owner"
                    + " or an editor " + what);
        }
        return caller;
    }
}
