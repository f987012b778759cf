package dev.herald.support;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

import jakarta.json.JsonObject;

/**
 * A project's HS256 token key, made through the management API, and the user tokens a customer's backend would sign
 * with it (Nimbus, as a Java backend would).
 */
public final class UserTokenMint {

    private final String projectId;
    private final String kid;
    private final byte[] secret;

    private UserTokenMint(String projectId, String kid, byte[] secret) {
        this.projectId = projectId;
        this.kid = kid;
        this.secret = secret;
    }

    /** POST /api/v1/admin/projects/{projectId}/token-keys {"algorithm":"HS256"}: the secret shown once. */
    public static UserTokenMint create(AdminClient admin, String projectId) {
        JsonObject key = admin.created("/projects/" + projectId + "/token-keys", "{\"algorithm\":\"HS256\"}");
        return new UserTokenMint(projectId, key.getString("kid"), Base64.getUrlDecoder().decode(key.getString("secret")));
    }

    /** A token of an hour from {@code now}, without attributes. */
    public String token(String sub, Instant now) {
        return token(sub, Map.of(), now);
    }

    public String token(String sub, Map<String, Object> attrs, Instant now) {
        return token(sub, attrs, null, now);
    }

    /** @param locale the {@code locale} claim, or null for none */
    public String token(String sub, Map<String, Object> attrs, String locale, Instant now) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .subject(sub)
                .audience(projectId)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
        if (!attrs.isEmpty()) {
            claims.claim("attrs", attrs);
        }
        if (locale != null) {
            claims.claim("locale", locale);
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(kid).build(), claims.build());
        try {
            jwt.sign(new MACSigner(secret));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }
}
