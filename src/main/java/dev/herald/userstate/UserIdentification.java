package dev.herald.userstate;

import java.util.Optional;

import dev.herald.apikey.ApiKey;
import dev.herald.identity.UserIdentity;

import io.helidon.webserver.http.ServerRequest;

/**
 * Who sent a public request for a key: {@code UserTokens.identify} (docs/identity.md). Empty without a token; a token
 * that is not valid is refused by the method itself (401 and its code).
 */
@FunctionalInterface
public interface UserIdentification {

    /** No user tokens: every request is anonymous, and the state routes answer 401 USER_TOKEN_REQUIRED. */
    UserIdentification ANONYMOUS = (request, key) -> Optional.empty();

    Optional<UserIdentity> identify(ServerRequest request, ApiKey key);
}
