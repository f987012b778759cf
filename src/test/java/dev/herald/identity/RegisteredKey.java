package dev.herald.identity;

import java.security.KeyPair;

/**
 * A key registered with Herald through the management API, and what signs for it.
 *
 * @param kid    Herald's id for it
 * @param signer the key tokens for it are signed with (Herald's secret for HS256, the private half otherwise)
 * @param pair   the test's key pair, or null for HS256
 */
record RegisteredKey(String kid, SigningKey signer, KeyPair pair) {

    String alg() {
        return signer.alg();
    }
}
