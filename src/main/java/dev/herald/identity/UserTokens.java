package dev.herald.identity;

import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

import dev.herald.api.ErrorField;
import dev.herald.apikey.ApiKey;
import dev.herald.changes.ChangeLog;

import io.helidon.dbclient.DbClient;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;

/**
 * Who the user of a public request is, from the user token in its {@code Authorization: Bearer} header (docs/api.md,
 * User tokens); never from a URL. A token already verified is taken from a bounded cache, its key checked again.
 */
public final class UserTokens {

    private static final String BEARER = "bearer ";

    private final TokenKeyStore store;
    private final ActiveTokenKeys keys;
    private final TokenVerifier verifier;
    private final VerifiedTokens verified;
    private final Clock clock;
    private final LongAdder verifications = new LongAdder();

    /**
     * @param keysInMemory false: every key lookup reads the database (feed.cache.enabled)
     */
    public UserTokens(DbClient db, ChangeLog changes, boolean keysInMemory, UserTokenSettings settings, Clock clock) {
        this.store = new TokenKeyStore(db, changes);
        this.keys = new ActiveTokenKeys(store, changes, keysInMemory);
        this.verifier = new TokenVerifier(new TokenClaims(settings));
        this.verified = new VerifiedTokens(settings);
        this.clock = clock;
    }

    /** The verified-token cache's figures, for {@code /observe/metrics}. */
    public TokenCacheFigures cacheFigures() {
        return verified.figures(verifications.sum());
    }

    /** The keys in the database, for the management API. */
    public TokenKeyStore store() {
        return store;
    }

    /**
     * The user of a request to the feed of {@code key}'s project. An Authorization header that is no user token at all
     * (another scheme, not a compact JWS) is ignored unless the key requires a token: the feed ignored every header
     * before user tokens, and an application's own bearer that a fetch wrapper adds must not cost its users the
     * feed (docs/behaviour.md).
     *
     * @return empty when the request has no user token and the key does not require one
     * @throws dev.herald.api.ApiException 401 with the refusal's code ({@code {"error","code"}}), or
     *                                     USER_TOKEN_REQUIRED when there is no token and the key requires one
     */
    public Optional<UserIdentity> identify(ServerRequest request, ApiKey key) {
        // The anonymous feed, most of its requests, without an exception made and caught each time (JFR: 2 % of a
        // feed hit's samples).
        if (!key.requireUserToken() && !request.headers().contains(HeaderNames.AUTHORIZATION)) {
            return Optional.empty();
        }
        try {
            return Optional.of(require(request, key));
        } catch (UserTokenErrors.Refused refused) {
            if (!key.requireUserToken() && (refused.error() == UserTokenErrors.REQUIRED || refused.notAToken())) {
                return Optional.empty();
            }
            throw refused.answer(ErrorField.ERROR);
        }
    }

    /**
     * The user of a route that is a signed-in user's own (their state): a token is required, whatever the key says.
     *
     * @throws dev.herald.api.ApiException 401 with the refusal's code, USER_TOKEN_REQUIRED without a header
     */
    public UserIdentity identifyRequired(ServerRequest request, ApiKey key) {
        try {
            return require(request, key);
        } catch (UserTokenErrors.Refused refused) {
            throw refused.answer(ErrorField.ERROR);
        }
    }

    private UserIdentity require(ServerRequest request, ApiKey key) {
        Optional<String> authorization = request.headers().first(HeaderNames.AUTHORIZATION);
        if (authorization.isEmpty()) {
            throw UserTokenErrors.REQUIRED.refused(key.requireUserToken()
                    ? "This API key requires a user token: send Authorization: Bearer <token>"
                    : "This route is a signed-in user's: send Authorization: Bearer <user token>, signed by your "
                            + "backend for this project (docs/identity.md)");
        }
        return verify(bearer(authorization.get()), key.projectId());
    }

    /**
     * The user of a tracking request for a notification of {@code projectId}: a kid that is not an active key of that
     * project answers as an unknown kid does, before its algorithm, signature or claims are looked at, so tracking
     * tells nothing about other projects' keys (docs/security.md). Tracking took any
     * Authorization header and ignored it before user tokens, and still does with one that is not a bearer JWS at
     * all; a JWS that does not verify is refused.
     *
     * @throws dev.herald.api.ApiException 401 in the tracking shape ({@code {"message","code"}})
     */
    public Optional<UserIdentity> identifyForTracking(ServerRequest request, String projectId) {
        Optional<String> authorization = request.headers().first(HeaderNames.AUTHORIZATION);
        if (authorization.isEmpty() || !isBearer(authorization.get())) {
            return Optional.empty();
        }
        try {
            return Optional.of(verify(bearer(authorization.get()), projectId));
        } catch (UserTokenErrors.Refused refused) {
            if (refused.notAToken()) {
                return Optional.empty();
            }
            throw refused.answer(ErrorField.MESSAGE);
        }
    }

    private UserIdentity verify(String token, String projectId) {
        long now = clock.millis();
        VerifiedTokens.Digest digest = VerifiedTokens.digest(token);
        Optional<TokenVerifier.Verified> known = verified.find(digest, now)
                .filter(hit -> projectId == null || hit.identity().projectId().equals(projectId))
                .filter(hit -> keys.find(hit.kid()).isPresent());
        if (known.isPresent()) {
            return known.get().identity();
        }
        verifications.increment();
        TokenVerifier.Verified fresh = verifier.verify(token, keys::find, projectId, now);
        verified.put(digest, token.length(), fresh, now);
        return fresh.identity();
    }

    private static boolean isBearer(String authorization) {
        return authorization.regionMatches(true, 0, BEARER, 0, BEARER.length());
    }

    /** {@code Bearer <token>}: the scheme in any case (RFC 9110 §11.1), one space, the token. */
    private static String bearer(String authorization) {
        if (!isBearer(authorization) || authorization.length() == BEARER.length()) {
            throw UserTokenErrors.notAToken("Authorization must be \"Bearer <token>\"");
        }
        return authorization.substring(BEARER.length()).strip();
    }
}
