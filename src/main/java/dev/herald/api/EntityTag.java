package dev.herald.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;

/**
 * Strong ETags from a hash of the body (the feed's answers, the browser SDK's files), and {@code If-None-Match} matching (RFC 9110 §13.1.2, weak comparison).
 */
public final class EntityTag {

    private EntityTag() {
    }

    public static String of(byte[] body) {
        return quoted(sha256().digest(body));
    }

    /**
     * A tag of one variant of a resource (the feed in one language): the hash covers what tells it from the others as
     * well as the body, so two variants never share a tag.
     */
    public static String of(String variant, byte[] body) {
        MessageDigest sha256 = sha256();
        sha256.update(variant.getBytes(StandardCharsets.UTF_8));
        sha256.update((byte) '\n');
        return quoted(sha256.digest(body));
    }

    private static String quoted(byte[] digest) {
        // 128 bits of the digest are plenty to tell two feeds apart and keep the header short.
        return "\"" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 22) + "\"";
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    public static boolean matchesIfNoneMatch(ServerRequestHeaders headers, String tag) {
        if (!headers.contains(HeaderNames.IF_NONE_MATCH)) {
            return false;
        }
        List<String> values = headers.get(HeaderNames.IF_NONE_MATCH).allValues();
        if (values.size() == 1 && values.get(0).equals(tag)) {
            // What a client that kept our ETag sends: no splitting needed.
            return true;
        }
        for (String value : values) {
            for (String candidate : value.split(",")) {
                String trimmed = candidate.strip();
                if (trimmed.equals("*") || stripWeak(trimmed).equals(tag)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether a precondition of a write ({@code If-Match}, {@code If-None-Match}) is {@code *} or a list of entity tags
     * (RFC 9110, 8.8.3: {@code [W/]"…"}, comma-separated). A tag sent unquoted matched nothing, so an
     * {@code If-None-Match} naming the draft its sender read let the write through (an outside review).
     */
    public static boolean isConditionList(String value) {
        if (value.equals("*")) {
            return true;
        }
        for (String listed : value.split(",", -1)) {
            String tag = stripWeak(listed.strip());
            if (tag.length() < 2 || tag.charAt(0) != '"' || tag.charAt(tag.length() - 1) != '"') {
                return false;
            }
            for (int i = 1; i < tag.length() - 1; i++) {
                char c = tag.charAt(i);
                if (c == '"' || c <= 0x20 || c == 0x7f) {
                    return false;
                }
            }
        }
        return true;
    }

    private static String stripWeak(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
