package dev.herald.identity;

import java.util.Optional;

import dev.herald.api.Json;

/**
 * The two JSON parts of a compact JWS, its header and its claims, as their bytes decode from base64url: held to what
 * Herald reads before Nimbus reads them. Nimbus decodes them leniently, a byte that is no UTF-8 becoming U+FFFD, so
 * the claims {@code "sub":"mallory"} followed by the byte FF, by FE, or by ED A0 80 (a surrogate encoded alone) were
 * all the user "mallory\ufffd", who read and wrote the state of each (an outside review).
 */
enum TokenPart {
    HEADER("The token's header is", UserTokenErrors.MALFORMED),
    CLAIMS("The token's claims are", UserTokenErrors.CLAIMS);

    private final String subject;
    private final UserTokenErrors error;

    TokenPart(String subject, UserTokenErrors error) {
        this.subject = subject;
        this.error = error;
    }

    /** @return why this part's bytes are refused, with its code; empty when they are taken */
    Optional<UserTokenErrors.Refused> refusal(byte[] json) {
        if (!Json.isStrictUtf8(json)) {
            return Optional.of(error.refused(subject + " no UTF-8 text: a byte FF or FE, a surrogate encoded alone or "
                                                     + "a character cut short is none; encode the JSON as UTF-8"));
        }
        return Optional.empty();
    }
}
