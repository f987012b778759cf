package dev.herald.identity;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import com.nimbusds.jose.JWSAlgorithm;

/**
 * The algorithms a token key may have; each key has exactly one, and a token under its kid must name it.
 */
public enum TokenAlgorithm {
    /** A secret Herald makes and shows once; the customer's backend signs with it. */
    HS256(JWSAlgorithm.HS256),
    /** A P-256 public key the customer registers: Herald never holds what signs. */
    ES256(JWSAlgorithm.ES256),
    /** An Ed25519 public key the customer registers. */
    EdDSA(JWSAlgorithm.EdDSA);

    private final JWSAlgorithm jws;

    TokenAlgorithm(JWSAlgorithm jws) {
        this.jws = jws;
    }

    public JWSAlgorithm jws() {
        return jws;
    }

    public static List<String> wireNames() {
        return Arrays.stream(values()).map(Enum::name).toList();
    }

    public static Optional<TokenAlgorithm> fromWireName(String name) {
        return Arrays.stream(values()).filter(algorithm -> algorithm.name().equals(name)).findFirst();
    }
}
