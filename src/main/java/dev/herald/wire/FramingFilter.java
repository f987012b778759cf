package dev.herald.wire;

import dev.herald.api.ApiException;
import dev.herald.api.ApiPaths;
import dev.herald.api.ErrorResponses;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.Status;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Refuses a request whose body could be delimited two ways (RFC 9112 §6.3), with 400 and a closed connection,
 * before anything reads the body. A proxy in front that reads the other length would let a request pass it unseen.
 * Only one form is accepted: a single {@code Content-Length} of plain digits, or {@code Transfer-Encoding: chunked}
 * exactly, never both.
 *
 * <p>Helidon 4.1.7 took the first of two {@code Content-Length} values, read {@code +16} as 16, preferred
 * {@code chunked} over a {@code Content-Length}, and read {@code gzip, chunked} as no body at all. Helidon 4.5.0
 * refuses those itself, before routing ({@link JsonDirectHandler} answers them with this rule's
 * {@code INVALID_BODY}, or 501 for a coding before {@code chunked}). What it still lets through, and only this
 * filter refuses (checked on 4.5.0 by running {@code StrictFramingTest} without it): a length with leading zeros
 * ({@code 016}), {@code Transfer-Encoding: Chunked} in another case, and the {@code Content_Length} and
 * {@code Transfer_Encoding} look-alikes. The whole rule stays here, in one place, as the direct handler's test too.
 */
public final class FramingFilter implements Filter {

    /** 18 digits cannot overflow a long; no body Herald takes comes near. */
    private static final int MAX_LENGTH_DIGITS = 18;
    /**
     * Not framing here, but framing to a proxy or gateway in front that maps {@code _} to {@code -} in header names
     * (CGI does, and servers that follow it): such a proxy would delimit the body by a header Herald ignores.
     */
    private static final HeaderName LENGTH_LOOKALIKE = HeaderNames.create("Content_Length");
    private static final HeaderName ENCODING_LOOKALIKE = HeaderNames.create("Transfer_Encoding");

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (isUnambiguous(request.headers())) {
            chain.proceed();
            return;
        }
        // ConnectionCloseFilter closes the connection after an answer that says so: what follows the headers
        // is never parsed as another request.
        response.header(HeaderValues.CONNECTION_CLOSE);
        ErrorResponses.send(request, response, ApiException.of(Status.BAD_REQUEST_400, ApiPaths.errorField(request),
                                                               "INVALID_BODY", "Invalid request body"));
    }

    static boolean isUnambiguous(Headers headers) {
        if (headers.contains(LENGTH_LOOKALIKE) || headers.contains(ENCODING_LOOKALIKE)) {
            return false;
        }
        boolean hasLength = headers.contains(HeaderNames.CONTENT_LENGTH);
        if (!headers.contains(HeaderNames.TRANSFER_ENCODING)) {
            return !hasLength || isPlainLength(headers.get(HeaderNames.CONTENT_LENGTH));
        }
        Header encoding = headers.get(HeaderNames.TRANSFER_ENCODING);
        return !hasLength && encoding.valueCount() == 1 && encoding.get().equals("chunked");
    }

    private static boolean isPlainLength(Header length) {
        if (length.valueCount() != 1) {
            return false;
        }
        String digits = length.get();
        if (digits.isEmpty() || digits.length() > MAX_LENGTH_DIGITS || digits.length() > 1 && digits.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
