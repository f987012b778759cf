package dev.herald.identity;

import dev.herald.api.ApiException;
import dev.herald.api.ErrorField;

import io.helidon.http.Status;

/**
 * Why a user token was refused (docs/api.md, User tokens): a 401 whose code a program can act on and whose message
 * a developer can, without a word about any key but the token's own kid.
 */
enum UserTokenErrors {
    MALFORMED("USER_TOKEN_MALFORMED"),
    ALGORITHM("USER_TOKEN_ALGORITHM"),
    KEY_UNKNOWN("USER_TOKEN_KEY_UNKNOWN"),
    SIGNATURE("USER_TOKEN_SIGNATURE"),
    EXPIRED("USER_TOKEN_EXPIRED"),
    NOT_YET_VALID("USER_TOKEN_NOT_YET_VALID"),
    LIFETIME("USER_TOKEN_LIFETIME"),
    AUDIENCE("USER_TOKEN_AUDIENCE"),
    CLAIMS("USER_TOKEN_CLAIMS"),
    REQUIRED("USER_TOKEN_REQUIRED");

    private final String code;

    UserTokenErrors(String code) {
        this.code = code;
    }

    String code() {
        return code;
    }

    /** The refusal with its reason; {@link ErrorField#MESSAGE} on the tracking routes, whose shape differs. */
    Refused refused(String reason) {
        return new Refused(this, reason, false);
    }

    /**
     * A header that is no user token at all (another scheme, or not a compact JWS): an application's own session
     * bearer, say, that a fetch wrapper adds to every request. Public routes that serve anonymous clients ignore it.
     */
    static Refused notAToken(String reason) {
        return new Refused(MALFORMED, reason, true);
    }

    /**
     * A refusal before it is given a shape: the verifier does not know which route asked.
     */
    static final class Refused extends RuntimeException {

        private final UserTokenErrors error;
        private final boolean notAToken;

        Refused(UserTokenErrors error, String reason, boolean notAToken) {
            super(reason, null, false, false);
            this.error = error;
            this.notAToken = notAToken;
        }

        UserTokenErrors error() {
            return error;
        }

        boolean notAToken() {
            return notAToken;
        }

        ApiException answer(ErrorField field) {
            return ApiException.of(Status.UNAUTHORIZED_401, field, error.code(), getMessage());
        }
    }
}
