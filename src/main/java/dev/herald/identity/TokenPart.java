package dev.herald.identity;

import java.util.Locale;
import java.util.Optional;

import dev.herald.api.Json;

/**
 * The two JSON parts of a compact JWS, its header and its claims, as their bytes decode from base64url: held to what
 * Herald reads before Nimbus reads them. Nimbus decodes them leniently, a byte that is no UTF-8 becoming U+FFFD, so
 * the claims {@code "sub":"mallory"} followed by the byte FF, by FE, or by ED A0 80 (a surrogate encoded alone) were
 * all the user "mallory\ufffd", who read and wrote the state of each (an outside review). Its parser reads 255
 * levels at most, and Herald's strict one {@link Json#MAX_DEPTH}: past either, a token was refused as something else
 * or taken for no token at all, which an anonymous route ignored; and it fails on an object with anything after it
 * ({@code {"sub":"alice"}{"sub":"mallory"}}), which was taken for no token too (an outside test). It reads past a
 * byte order mark, which Herald's parser does not: a header after one was read by Nimbus alone, none of Herald's
 * checks applied ({@code "b64":false} and {@code "crit":null} taken again). Where either parser refuses a part that
 * is JSON by its structure, the message says why, naming the member ({@link UnreadableJson}).
 */
enum TokenPart {
    HEADER("The token's header is", UserTokenErrors.MALFORMED, "The token's header member ",
           "The token's header must be one JSON object naming each member once"),
    CLAIMS("The token's claims are", UserTokenErrors.CLAIMS, "",
           "The token's claims must name each member once, at every level (attrs and the claims Herald ignores alike)");

    /**
     * The deepest a part may nest, the part's own object level 1: far below both parsers' limits, and ten times what
     * the claims Herald reads need (attrs holding an array is 3).
     */
    static final int MAX_DEPTH = 32;
    /** Past this, a member's path is cut: it is the client's text. */
    private static final int LONGEST_PATH = 64;

    private final String subject;
    private final UserTokenErrors error;
    /** What comes before a member's path in a message. */
    private final String member;
    /** What a member twice is told. */
    private final String twice;

    TokenPart(String subject, UserTokenErrors error, String member, String twice) {
        this.subject = subject;
        this.error = error;
        this.member = member;
        this.twice = twice;
    }

    /**
     * Whether a part is a JSON object by its structure, however else it is wrong (a member twice, which JSON's syntax
     * takes; something after it) and however deep: what a JWS's header and a JWT's claims are, so a user token, to be
     * refused saying what is wrong rather than ignored. What opens no object, or never closes it, is no token (an
     * application's own bearer). The scan is a loop, not a recursion: no depth is too deep for it.
     */
    static boolean isAnObject(byte[] json) {
        return Json.objectEnd(json, objectStart(json), Integer.MAX_VALUE) >= 0;
    }

    /**
     * @param json the part's bytes
     * @return why they are refused, with this part's code; empty when they are taken, or are no object at all
     */
    Optional<UserTokenErrors.Refused> refusal(byte[] json) {
        if (!Json.isStrictUtf8(json)) {
            return Optional.of(error.refused(subject + " no UTF-8 text: a byte FF or FE, a surrogate encoded alone or "
                                                     + "a character cut short is none; encode the JSON as UTF-8"));
        }
        // Told of an object only: anything else is no token.
        if (!isAnObject(json)) {
            return Optional.empty();
        }
        if (objectStart(json) > 0) {
            return Optional.of(error.refused(subject + " preceded by a byte order mark (EF BB BF): encode the JSON as "
                                                     + "UTF-8 without one"));
        }
        int end = Json.objectEnd(json, 0, MAX_DEPTH);
        if (end < 0) {
            return Optional.of(error.refused(subject + " nested more than " + MAX_DEPTH + " levels deep (its own "
                                                     + "object is level 1): Herald reads no deeper"));
        }
        if (!Json.isWhiteSpaceFrom(json, end)) {
            return Optional.of(error.refused(subject + " a JSON object with something after it: send the object "
                                                     + "alone, nothing but white space after its closing brace"));
        }
        return Optional.empty();
    }

    /**
     * What Herald's strict parser or Nimbus cannot read in a part that {@link #refusal} took, naming the member: the
     * strict parser refuses a part whole without a reason, and each such refusal was told as a member twice. Empty
     * when both read it.
     */
    Optional<UserTokenErrors.Refused> unreadable(byte[] json) {
        return UnreadableJson.find(json).map(found -> error.refused(switch (found.cause()) {
            case TWICE -> twice;
            case NOT_JSON -> subject + " not JSON (RFC 8259) at character " + found.character() + ": single quotes, "
                    + "NaN, a trailing comma or a comment are none";
            case NUMBER_TOO_LONG -> named(found.path()) + " is a number of more than " + String.format(
                    Locale.ROOT, "%,d", UnreadableJson.LONGEST_NUMBER) + " characters: Herald reads none longer";
            case EXPONENT_OUT_OF_RANGE -> named(found.path()) + " is a number Herald cannot read (its exponent is out "
                    + "of range)";
            case BEYOND_DOUBLE -> named(found.path()) + " is a number beyond the range of a double";
        }));
    }

    /**
     * Why Herald's strict parser refused a part that {@link #refusal} took: what {@link #unreadable} finds, or that it
     * is no object Herald reads, when the reading again finds nothing (which it should not).
     */
    UserTokenErrors.Refused unparsed(byte[] json) {
        return unreadable(json).orElseGet(() -> error.refused(subject + " not one JSON object Herald can read"));
    }

    private String named(String path) {
        return member + (path.length() <= LONGEST_PATH ? path
                : path.substring(0, path.offsetByCodePoints(0, path.codePointCount(0, LONGEST_PATH))) + "…");
    }

    /** Where a part's JSON starts: after a byte order mark, which RFC 8259 (8.1) lets a parser skip, as Nimbus does. */
    private static int objectStart(byte[] json) {
        return json.length >= 3 && json[0] == (byte) 0xEF && json[1] == (byte) 0xBB && json[2] == (byte) 0xBF ? 3 : 0;
    }
}
