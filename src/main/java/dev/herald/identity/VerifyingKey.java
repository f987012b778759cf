package dev.herald.identity;

import java.security.Key;

/**
 * An active token key with its JDK key made once, when it is loaded, not for every token.
 */
record VerifyingKey(TokenKey key, Key material) {

    static VerifyingKey of(TokenKey key) {
        return new VerifyingKey(key, key.verificationKey());
    }
}
