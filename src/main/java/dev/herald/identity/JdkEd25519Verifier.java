package dev.herald.identity;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Set;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;

/**
 * EdDSA (Ed25519) on the JDK's own {@code Signature("Ed25519")}: Nimbus' Ed25519Verifier needs Tink, an automatic
 * module that jlink refuses (docs/modules.md). Like Nimbus' verifiers, a token with critical header parameters is
 * refused: Herald defines none.
 */
final class JdkEd25519Verifier implements JWSVerifier {

    private final PublicKey key;
    private final JCAContext context = new JCAContext();

    JdkEd25519Verifier(PublicKey key) {
        this.key = key;
    }

    @Override
    public boolean verify(JWSHeader header, byte[] signingInput, Base64URL signature) throws JOSEException {
        if (!JWSAlgorithm.EdDSA.equals(header.getAlgorithm())
                || header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            return false;
        }
        try {
            Signature ed25519 = Signature.getInstance("Ed25519");
            ed25519.initVerify(key);
            ed25519.update(signingInput);
            return ed25519.verify(signature.decode());
        } catch (java.security.SignatureException e) {
            // A signature of the wrong length or encoding: not this key's.
            return false;
        } catch (GeneralSecurityException e) {
            throw new JOSEException("Ed25519 is not available: " + e.getMessage(), e);
        }
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return Set.of(JWSAlgorithm.EdDSA);
    }

    @Override
    public JCAContext getJCAContext() {
        return context;
    }
}
