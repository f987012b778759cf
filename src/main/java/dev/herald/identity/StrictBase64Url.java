package dev.herald.identity;

/**
 * Base64url as RFC 7515 §2 writes it, and only that: A-Z a-z 0-9 - _, no padding, no whitespace, and the last
 * character's unused bits zero. The JDK and Nimbus decoders forgive more (padding, "+/", skipped characters, stray
 * bits), so one value has many spellings; a spelling that is not the one is refused, so that a key or a token has one.
 * A loop over the characters, no allocation: it runs on every token.
 */
final class StrictBase64Url {

    private StrictBase64Url() {
    }

    /** @return whether {@code text[from, to)} is strict base64url (empty is) */
    static boolean isStrict(CharSequence text, int from, int to) {
        int length = to - from;
        if (length % 4 == 1) {
            return false;
        }
        int last = 0;
        for (int i = from; i < to; i++) {
            last = value(text.charAt(i));
            if (last < 0) {
                return false;
            }
        }
        return switch (length % 4) {
            case 2 -> (last & 0x0f) == 0;
            case 3 -> (last & 0x03) == 0;
            default -> true;
        };
    }

    private static int value(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        if (c == '-') {
            return 62;
        }
        return c == '_' ? 63 : -1;
    }
}
