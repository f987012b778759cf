package dev.herald.userstate;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import dev.herald.api.ApiException;

import io.helidon.http.HttpPrologue;

/**
 * The {@code sub} of {@code DELETE …/users/{sub}}, read from the path as the client sent it. The router's own reading
 * drops what follows a {@code ;} (matrix parameters, which no route of Herald has), so {@code users/acme;tenant=2}
 * erased the user {@code acme} (an outside review), and it decoded bytes that are no UTF-8 into a character no sub
 * holds, erasing nothing with a 204.
 */
final class SubInPath {

    private SubInPath() {
    }

    /**
     * @return the last segment of the request's raw path, percent-decoded as strict UTF-8
     * @throws ApiException 400 naming what in its encoding is wrong: a sub that is not what the client meant is never
     *                      read as another
     */
    static String of(HttpPrologue prologue) {
        // A client that did not encode the sub's "?" or "#" sent a query or a fragment, which cut the sub short:
        // "users/carol#2" erased carol (an outside review).
        if (prologue.hasQuery() || prologue.fragment().hasValue()) {
            throw badEncoding("a ? or # stands unencoded (this route takes no query); a ? or # of the sub is %3F or %23");
        }
        String rawPath = prologue.uriPath().rawPath();
        String segment = rawPath.substring(rawPath.lastIndexOf('/') + 1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c != '%') {
                if (c > 0x7f) {
                    throw badEncoding("a character outside ASCII stands unencoded; percent-encode its UTF-8 bytes");
                }
                bytes.write(c);
            } else if (i + 2 < segment.length() && HexFormat.isHexDigit(segment.charAt(i + 1))
                    && HexFormat.isHexDigit(segment.charAt(i + 2))) {
                bytes.write(HexFormat.fromHexDigits(segment, i + 1, i + 3));
                i += 2;
            } else {
                throw badEncoding("a % is not followed by two hexadecimal digits; a % of the sub itself is %25");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw badEncoding("its percent-encoded bytes are no UTF-8 text (a character cut short, or a surrogate's"
                                      + " bytes, which stand for no character)");
        }
    }

    private static ApiException badEncoding(String fault) {
        return ApiException.validation("sub", "The path's sub must be percent-encoded UTF-8 text: " + fault);
    }
}
