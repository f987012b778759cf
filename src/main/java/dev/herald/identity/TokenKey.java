package dev.herald.identity;

import java.security.Key;

/**
 * A project's key for user tokens.
 *
 * @param kid        made by Herald, 22 characters of {@code [A-Za-z0-9_-]}, unique across projects
 * @param secret     HS256: base64url of the 32-byte secret; null otherwise
 * @param publicKey  ES256 and EdDSA: the public key as a JWK (JSON text); null for HS256
 * @param revokedAt  epoch millis of revocation, or null while the key works
 */
public record TokenKey(String kid,
                       String projectId,
                       TokenAlgorithm algorithm,
                       String secret,
                       String publicKey,
                       long createdAt,
                       Long revokedAt) {

    /** What verifies a token under this key: the HMAC secret or the public key. */
    Key verificationKey() {
        return algorithm == TokenAlgorithm.HS256 ? PublicKeys.hmacKey(secret) : PublicKeys.fromJwk(algorithm, publicKey);
    }
}
