package dev.herald.identity;

import java.text.ParseException;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.herald.api.Json;

import com.nimbusds.jwt.JWTClaimsSet;

/**
 * The claims of a token whose signature verified, checked against the contract (docs/api.md, User tokens) and made a
 * {@link UserIdentity}. Every refusal names the claim; none quotes the value, which may be personal.
 */
final class TokenClaims {

    static final int MAX_SUBJECT = 256;
    static final int MAX_LOCALE = 35;
    static final int MAX_ATTRIBUTES = 50;
    static final int MAX_NAME = 64;
    static final int MAX_STRING = 256;
    static final int MAX_ARRAY = 50;
    /** 9999-12-31T23:59:59Z. */
    private static final long LAST_SECOND = 253_402_300_799L;

    private final UserTokenSettings settings;

    TokenClaims(UserTokenSettings settings) {
        this.settings = settings;
    }

    /**
     * @param projectId the project whose key verified the token: its aud must name it
     * @param now       epoch millis
     */
    UserIdentity identity(JWTClaimsSet claims, String projectId, long now) {
        String subject = string(claims, "sub");
        if (subject == null) {
            throw claims("sub is required: the user's id, 1 to 256 characters");
        }
        // Characters, as the docs count them: an emoji is one, not two UTF-16 units.
        if (subject.isEmpty() || subject.codePointCount(0, subject.length()) > MAX_SUBJECT) {
            throw claims("sub must be the user's id, 1 to 256 characters");
        }
        Date exp = date(claims, "exp");
        if (exp == null) {
            throw claims("exp is required: the token's expiry, in seconds since the epoch");
        }
        Date iat = date(claims, "iat");
        Date nbf = date(claims, "nbf");
        List<String> audience = audience(claims);
        if (!audience.contains(projectId)) {
            throw UserTokenErrors.AUDIENCE.refused(audience.isEmpty()
                    ? "aud is required: the id of the project whose key signed the token"
                    : "aud does not name the project of the token's kid");
        }
        long skew = settings.clockSkew().toMillis();
        if (now > exp.getTime() + skew) {
            throw UserTokenErrors.EXPIRED.refused("The token expired (exp); mint a new one");
        }
        if (nbf != null && nbf.getTime() > now + skew) {
            throw UserTokenErrors.NOT_YET_VALID.refused("The token is not valid yet (nbf): check the signing server's "
                                                                + "clock");
        }
        if (iat != null && iat.getTime() > now + skew) {
            throw UserTokenErrors.NOT_YET_VALID.refused("The token was issued in the future (iat): check the signing "
                                                                + "server's clock");
        }
        long from = iat == null ? now : iat.getTime();
        if (exp.getTime() - from > settings.maxLifetime().toMillis()) {
            throw UserTokenErrors.LIFETIME.refused("The token lives longer than user-tokens.max-lifetime ("
                                                           + settings.maxLifetime() + ") from its iat, or from now "
                                                           + "without iat: mint shorter-lived tokens");
        }
        Object locale = claims.getClaim("locale");
        if (locale != null && !(locale instanceof String text && text.length() <= MAX_LOCALE)) {
            throw claims("locale must be a string of at most 35 characters");
        }
        return new UserIdentity(projectId, subject, (String) locale, attributes(claims.getClaim("attrs")),
                                exp.getTime());
    }

    private static String string(JWTClaimsSet claims, String name) {
        Object value = claims.getClaim(name);
        if (value != null && !(value instanceof String)) {
            throw claims(name + " must be a string");
        }
        return (String) value;
    }

    /**
     * The token's sub and times as written, before Nimbus reads them: a sub that is a string, and times before the
     * year 10000. Turned into milliseconds, a time past the year 292 million wrapped around, and an exp of
     * 18446745869725056 s passed as now plus ten minutes (an outside test).
     */
    static void requireSubAndTimesAsWritten(Map<String, Object> payload) {
        // Nimbus reads a numeric sub as its digits: {"sub":42} and {"sub":"42"} were one user.
        if (payload.containsKey("sub") && !(payload.get("sub") instanceof String)) {
            throw claims("sub must be a string: the user's id, 1 to 256 characters");
        }
        // JSON's syntax takes an escaped surrogate alone ("bob\ud800"), which is no character: its user key was that
        // of "bob?", another user, whose state it read and wrote (an outside review).
        if (!isWellFormed(payload)) {
            throw claims("The token's claims must be Unicode text: a \\ud800 to \\udfff escape stands only in a "
                                 + "pair");
        }
        for (String name : List.of("exp", "nbf", "iat")) {
            if (payload.get(name) instanceof Number seconds && seconds.doubleValue() > LAST_SECOND) {
                throw claims(name + " must be a number of seconds since the epoch, before the year 10000");
            }
        }
    }

    private static boolean isWellFormed(Object value) {
        return switch (value) {
            case String text -> Json.isWellFormed(text);
            case Map<?, ?> members -> members.entrySet().stream().allMatch(
                    member -> isWellFormed(member.getKey()) && (member.getValue() == null
                            || isWellFormed(member.getValue())));
            case List<?> items -> items.stream().allMatch(item -> item == null || isWellFormed(item));
            default -> true;
        };
    }

    private static Date date(JWTClaimsSet claims, String name) {
        try {
            return claims.getDateClaim(name);
        } catch (ParseException e) {
            throw claims(name + " must be a number of seconds since the epoch");
        }
    }

    private static List<String> audience(JWTClaimsSet claims) {
        Object aud = claims.getClaim("aud");
        if (aud == null) {
            return List.of();
        }
        // Nimbus reads a string aud as a list of one; a list may hold anything.
        if (aud instanceof List<?> list && list.stream().allMatch(String.class::isInstance)) {
            return list.stream().map(String.class::cast).toList();
        }
        if (aud instanceof String text) {
            return List.of(text);
        }
        throw UserTokenErrors.AUDIENCE.refused("aud must be the project id, or an array of strings that holds it");
    }

    private static Map<String, Object> attributes(Object attrs) {
        if (attrs == null) {
            return Map.of();
        }
        if (!(attrs instanceof Map<?, ?> members)) {
            throw claims("attrs must be an object");
        }
        if (members.size() > MAX_ATTRIBUTES) {
            throw claims("attrs has more than " + MAX_ATTRIBUTES + " members");
        }
        Map<String, Object> checked = new LinkedHashMap<>();
        for (Map.Entry<?, ?> member : members.entrySet()) {
            String name = String.valueOf(member.getKey());
            if (!isName(name)) {
                throw claims("attrs: a member's name must be 1 to 64 of A-Z a-z 0-9 _ . -");
            }
            checked.put(name, value(name, member.getValue()));
        }
        return checked;
    }

    private static Object value(String name, Object value) {
        String claim = "attrs." + name;
        if (value instanceof String text) {
            if (text.length() > MAX_STRING) {
                throw claims(claim + " is longer than " + MAX_STRING + " characters");
            }
            return text;
        }
        if (value instanceof Boolean) {
            return value;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Number number && Double.isFinite(number.doubleValue())) {
            return number.doubleValue();
        }
        if (value instanceof List<?> list) {
            if (list.size() > MAX_ARRAY) {
                throw claims(claim + " has more than " + MAX_ARRAY + " items");
            }
            List<String> strings = new ArrayList<>(list.size());
            for (Object item : list) {
                if (!(item instanceof String text) || text.length() > MAX_STRING) {
                    throw claims(claim + " must hold strings of at most " + MAX_STRING + " characters");
                }
                strings.add(text);
            }
            return List.copyOf(strings);
        }
        throw claims(claim + " must be a string, a number, a boolean or an array of strings");
    }

    private static boolean isName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
                    || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static UserTokenErrors.Refused claims(String reason) {
        return UserTokenErrors.CLAIMS.refused(reason);
    }
}
