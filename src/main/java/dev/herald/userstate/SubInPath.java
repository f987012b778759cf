package dev.herald.userstate;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The {@code sub} of {@code DELETE …/users/{sub}}, read from the path as the client sent it. The router's own reading
 * drops what follows a {@code ;} (matrix parameters, which no route of Herald has), so {@code users/acme;tenant=2}
 * erased the user {@code acme} (an outside review), and it decoded bytes that are no UTF-8 into a character no sub
 * holds, erasing nothing with a 204.
 */
final class SubInPath {

    private SubInPath() {
    }

    /** @return the last segment of a raw path, percent-decoded as strict UTF-8; empty if it is not that */
    static Optional<String> of(String rawPath) {
        String segment = rawPath.substring(rawPath.lastIndexOf('/') + 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                if (c > 0x7f) {
                    return Optional.empty(); // a request line holds ASCII only
                }
                bytes.write(c);
            } else if (i + 2 < segment.length() && HexFormat.isHexDigit(segment.charAt(i + 1))
                    && HexFormat.isHexDigit(segment.charAt(i + 2))) {
                bytes.write(HexFormat.fromHexDigits(segment, i + 1, i + 3));
                i += 2;
            } else {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                                       .onMalformedInput(CodingErrorAction.REPORT)
                                       .onUnmappableCharacter(CodingErrorAction.REPORT)
                                       .decode(ByteBuffer.wrap(bytes.toByteArray())).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
