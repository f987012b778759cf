package dev.herald.tracking;

import java.util.Optional;

import dev.herald.identity.UserIdentity;

import io.helidon.webserver.http.ServerRequest;

/**
 * Who sent a tracking request: {@code UserTokens.identifyForTracking} (docs/identity.md). Empty without a token, so
 * that such a request is tracked exactly as before user tokens; a bad token is refused (401) by the method itself.
 */
@FunctionalInterface
public interface TrackingIdentification {

    /** No user tokens: every request is anonymous. */
    TrackingIdentification ANONYMOUS = request -> Optional.empty();

    Optional<UserIdentity> identify(ServerRequest request);
}
