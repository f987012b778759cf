package dev.herald.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * What a valid user token says about its user (docs/identity.md). The attributes live only as long as the request or
 * the verified-token cache: they are never stored or logged; what is stored about a user is {@link #userKey()}.
 *
 * @param projectId  the project the token was signed for (its {@code aud})
 * @param subject    the customer's user id ({@code sub})
 * @param locale     the {@code locale} claim, or null
 * @param attributes the {@code attrs} claim: String, Long, Double, Boolean or List of String values
 * @param expiresAt  epoch millis of {@code exp}
 */
public record UserIdentity(String projectId,
                           String subject,
                           String locale,
                           Map<String, Object> attributes,
                           long expiresAt) {

    public UserIdentity {
        attributes = Map.copyOf(attributes);
    }

    /**
     * The user as stored (per-user state, unique users): base64url of SHA-256 over the project and the subject, so a
     * database dump does not list the customer's user ids, and the same user of another project is another key.
     */
    public String userKey() {
        return userKey(projectId, subject);
    }

    public static String userKey(String projectId, String subject) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(projectId.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) '\n');
            byte[] digest = sha256.digest(subject.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    /** A string-array attribute, or an empty list when absent or of another type. */
    public List<String> strings(String name) {
        Object value = attributes.get(name);
        if (value instanceof List<?> list) {
            return list.stream().map(String.class::cast).toList();
        }
        return List.of();
    }
}
