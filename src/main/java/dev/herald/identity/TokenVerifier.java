package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.text.ParseException;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

import javax.crypto.SecretKey;

import dev.herald.api.Json;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.MACVerifier;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.proc.BadJOSEException;
import com.nimbusds.jose.proc.JWSVerifierFactory;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.EncryptedJWT;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.SignedJWT;
import com.nimbusds.jwt.proc.DefaultJWTProcessor;

/**
 * Verifies one compact JWS (docs/api.md, User tokens) and tells precisely why it is refused. Nimbus' DefaultJWTProcessor
 * checks the signature with the one key the token's kid names, offered only for that key's algorithm: a token that
 * names another algorithm finds no key (an HS256 token signed with an ES256 key's public bytes as its secret never
 * reaches an HMAC). The claims are checked here afterwards ({@link TokenClaims}), with their own codes.
 */
final class TokenVerifier {

    static final int MAX_BYTES = 8192;

    private final DefaultJWTProcessor<KeyContext> processor = new DefaultJWTProcessor<>();
    private final TokenClaims claims;

    TokenVerifier(TokenClaims claims) {
        this.claims = claims;
        processor.setJWSKeySelector((header, context) -> header.getAlgorithm().equals(context.key().key().algorithm().jws())
                ? List.of(context.key().material()) : List.of());
        processor.setJWSVerifierFactory(new Verifiers());
        // Any typ: libraries differ (none, "JWT"); nothing here depends on it.
        processor.setJWSTypeVerifier((type, context) -> { });
        // The claims have codes of their own, checked after the signature.
        processor.setJWTClaimsSetVerifier((claimsSet, context) -> { });
    }

    /**
     * @param keys            the active key of a kid
     * @param expectedProject the project the token must be for (the API key's); null: the kid's project
     * @param now             epoch millis
     * @throws UserTokenErrors.Refused why the token is not accepted
     */
    Verified verify(String token, Function<String, Optional<VerifyingKey>> keys, String expectedProject, long now) {
        if (token.length() > MAX_BYTES || token.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw UserTokenErrors.MALFORMED.refused("The token is longer than 8,192 bytes");
        }
        boolean strict = isStrictCompact(token);
        if (strict) {
            Optional<UserTokenErrors.Refused> header = headerRefusal(token);
            if (header.isPresent()) {
                throw header.get();
            }
        }
        JWT parsed;
        JWTClaimsSet claimsSet;
        UserTokenErrors.Refused unreadableClaims = null;
        try {
            parsed = JWTParser.parse(token);
        } catch (ParseException e) {
            throw unreadableHeader(token, strict).orElseGet(() -> UserTokenErrors.notAToken(
                    "The token is not a compact JWS of three base64url parts with a JSON header and JSON claims"));
        }
        if (parsed instanceof EncryptedJWT) {
            throw UserTokenErrors.MALFORMED.refused("Encrypted tokens (JWE, five parts) are not taken: sign the token "
                                                            + "(JWS, three parts)");
        }
        try {
            claimsSet = parsed.getJWTClaimsSet();
        } catch (ParseException e) {
            byte[] payload = parsed.getParsedParts()[1].decode();
            if (!TokenPart.isAnObject(payload)) {
                throw UserTokenErrors.notAToken("The token is not a compact JWS of three base64url parts with a JSON "
                                                        + "header and JSON claims");
            }
            // Claims of JSON whose registered ones have the wrong type ("exp":"tomorrow"), or a member twice, or
            // anything after the object: a user token, refused once its kid is known to be the project's (below).
            // Read as no token at all, it was served the anonymous feed (found by outside tests).
            claimsSet = null;
            unreadableClaims = TokenPart.CLAIMS.refusal(payload).orElseGet(() -> UnreadableClaims.why(payload));
        }
        if (!strict) {
            // A JWS, but spelled with what lenient decoders skip (padding, whitespace, "+/", stray bits): each spelling
            // would be a cache entry of its own, so one token could fill the cache. Refused before any verifying.
            throw UserTokenErrors.MALFORMED.refused("The token's three parts must be base64url without padding "
                                                            + "(A-Z a-z 0-9 - _ only), as the signer wrote them");
        }
        if (!(parsed instanceof SignedJWT signed)) {
            // alg none: the header's check refused it before (a token that is strict).
            throw UserTokenErrors.ALGORITHM.refused(TokenHeader.UNSIGNED);
        }
        // Their bytes as sent come first: Nimbus read bytes that are no UTF-8 as U+FFFD, whether it then failed or not.
        unreadableClaims = TokenPart.CLAIMS.refusal(signed.getPayload().toBytes()).orElse(unreadableClaims);
        String kid = signed.getHeader().getKeyID();
        if (kid == null) {
            throw UserTokenErrors.KEY_UNKNOWN.refused("The token's header has no kid: name the key that signed it");
        }
        VerifyingKey key = keys.apply(kid)
                .filter(found -> expectedProject == null || found.key().projectId().equals(expectedProject))
                .orElseThrow(() -> UserTokenErrors.KEY_UNKNOWN.refused(
                        "No active token key of this project has the token's kid"));
        JWSAlgorithm algorithm = signed.getHeader().getAlgorithm();
        if (!algorithm.equals(key.key().algorithm().jws())) {
            throw UserTokenErrors.ALGORITHM.refused("The token's kid is a " + key.key().algorithm().name()
                                                            + " key; the token says alg " + algorithm.getName());
        }
        if (unreadableClaims != null) {
            throw unreadableClaims;
        }
        try {
            processor.process(signed, new KeyContext(key));
        } catch (BadJOSEException | JOSEException e) {
            throw UserTokenErrors.SIGNATURE.refused("The token's signature does not verify with the key of its kid");
        }
        // Nimbus refuses a name twice at the top level of the claims but keeps the last of two below it. A second
        // reading by the strict parser, only for a token that verified (not on cache hits), refuses it at any level:
        // once only for attrs, which blamed attrs for a name twice in a claim Herald ignores (an outside review).
        // It refuses numbers Nimbus reads too (0e99999999999, an exponent BigDecimal cannot hold), all of which
        // were told "a name twice": TokenPart finds which it is.
        if (Json.parseObject(signed.getPayload().toBytes()).isEmpty()) {
            throw TokenPart.CLAIMS.unparsed(signed.getPayload().toBytes());
        }
        TokenClaims.requireSubAndTimesAsWritten(signed.getPayload().toJSONObject());
        return new Verified(claims.identity(claimsSet, key.key().projectId(), now), key.key().kid());
    }

    /**
     * What is wrong with the header of a strict compact token before Nimbus reads it ({@link TokenHeader}), when it is
     * a JSON object by its structure (a token's, {@link TokenPart#isAnObject}); empty for anything else, which Nimbus
     * reads or refuses as no token.
     */
    private static Optional<UserTokenErrors.Refused> headerRefusal(String token) {
        byte[] header = Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.')));
        return TokenPart.isAnObject(header) ? TokenHeader.refusal(header) : Optional.empty();
    }

    /**
     * A JWS header Nimbus could not read, when it is one (a JSON object that {@link TokenHeader} took): refused with
     * what is wrong rather than taken for no token at all, which an anonymous route would have ignored. Empty for
     * anything else.
     */
    private static Optional<UserTokenErrors.Refused> unreadableHeader(String token, boolean strict) {
        if (!strict) {
            return Optional.empty();
        }
        byte[] json = Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.')));
        return Json.parseObject(json).map(header -> TokenHeader.unreadable(json, header, token.endsWith(".")));
    }

    /** Three parts (two dots), each strict base64url ({@link StrictBase64Url}): a loop, no allocation. */
    static boolean isStrictCompact(String token) {
        int first = token.indexOf('.');
        int second = first < 0 ? -1 : token.indexOf('.', first + 1);
        if (second < 0 || token.indexOf('.', second + 1) >= 0) {
            return false;
        }
        return StrictBase64Url.isStrict(token, 0, first) && StrictBase64Url.isStrict(token, first + 1, second)
                && StrictBase64Url.isStrict(token, second + 1, token.length());
    }

    /** A token that verified: who it names, and the key to check again on each later use (revocation). */
    record Verified(UserIdentity identity, String kid) {
    }

    /** What the key selector offers: the one key of the token's kid. */
    record KeyContext(VerifyingKey key) implements SecurityContext {
    }

    /** HS256 and ES256 with Nimbus' verifiers, EdDSA with the JDK's ({@link JdkEd25519Verifier}). */
    private static final class Verifiers implements JWSVerifierFactory {

        private final JCAContext context = new JCAContext();

        @Override
        public JWSVerifier createJWSVerifier(JWSHeader header, Key key) throws JOSEException {
            JWSAlgorithm algorithm = header.getAlgorithm();
            if (JWSAlgorithm.HS256.equals(algorithm) && key instanceof SecretKey secret) {
                return new MACVerifier(secret);
            }
            if (JWSAlgorithm.ES256.equals(algorithm) && key instanceof ECPublicKey ec) {
                return new ECDSAVerifier(ec);
            }
            if (JWSAlgorithm.EdDSA.equals(algorithm) && key instanceof PublicKey ed25519) {
                return new JdkEd25519Verifier(ed25519);
            }
            throw new JOSEException("No verifier for " + algorithm);
        }

        @Override
        public Set<JWSAlgorithm> supportedJWSAlgorithms() {
            return Set.of(JWSAlgorithm.HS256, JWSAlgorithm.ES256, JWSAlgorithm.EdDSA);
        }

        @Override
        public JCAContext getJCAContext() {
            return context;
        }
    }
}
