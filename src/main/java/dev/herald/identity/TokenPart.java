package dev.herald.identity;

import java.util.Optional;

import dev.herald.api.Json;

/**
 * The two JSON parts of a compact JWS, its header and its claims, as their bytes decode from base64url: held to what
 * Herald reads before Nimbus reads them. Nimbus decodes them leniently, a byte that is no UTF-8 becoming U+FFFD, so
 * the claims {@code "sub":"mallory"} followed by the byte FF, by FE, or by ED A0 80 (a surrogate encoded alone) were
 * all the user "mallory\ufffd", who read and wrote the state of each (an outside review). Its parser reads 255
 * levels at most, and Herald's strict one {@link Json#MAX_DEPTH}: past either, a token was refused as something else
 * or taken for no token at all, which an anonymous route ignored.
 */
enum TokenPart {
    HEADER("The token's header is", UserTokenErrors.MALFORMED),
    CLAIMS("The token's claims are", UserTokenErrors.CLAIMS);

    /**
     * The deepest a part may nest, the part's own object level 1: far below both parsers' limits, and ten times what
     * the claims Herald reads need (attrs holding an array is 3).
     */
    static final int MAX_DEPTH = 32;

    private final String subject;
    private final UserTokenErrors error;

    TokenPart(String subject, UserTokenErrors error) {
        this.subject = subject;
        this.error = error;
    }

    /**
     * @param json the part's bytes
     * @return why they are refused, with this part's code; empty when they are taken
     */
    Optional<UserTokenErrors.Refused> refusal(byte[] json) {
        if (!Json.isStrictUtf8(json)) {
            return Optional.of(error.refused(subject + " no UTF-8 text: a byte FF or FE, a surrogate encoded alone or "
                                                     + "a character cut short is none; encode the JSON as UTF-8"));
        }
        // Told of an object only: anything else is no token, or JSON that Nimbus read leniently (a name unquoted).
        if (!Json.isOneObjectWithin(json, MAX_DEPTH) && Json.isOneObjectWithin(json, Integer.MAX_VALUE)) {
            return Optional.of(error.refused(subject + " nested more than " + MAX_DEPTH + " levels deep (its own "
                                                     + "object is level 1): Herald reads no deeper"));
        }
        return Optional.empty();
    }
}
