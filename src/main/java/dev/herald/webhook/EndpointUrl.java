package dev.herald.webhook;

import java.net.URI;
import java.util.Locale;

/**
 * What an endpoint's URL comes to: only http and https, a host, no user name or password (they would be sent
 * to the receiver and shown in the console), a port from 1 to 65535. Its refusals are
 * {@link IllegalArgumentException}s whose message is the attempt's detail.
 *
 * @param host          the name or address literal (an IPv6 one without brackets) that is resolved and that TLS names
 * @param isLiteral     whether the host is an address literal (no SNI for those)
 * @param hostHeader    the {@code Host} header: the URL's authority
 * @param requestTarget the path and query, as ASCII
 */
record EndpointUrl(boolean https, String host, boolean isLiteral, int port, String hostHeader, String requestTarget) {

    private static final int HTTP_PORT = 80;
    private static final int HTTPS_PORT = 443;

    static EndpointUrl of(URI url) {
        URI ascii = URI.create(url.toASCIIString());
        String scheme = ascii.getScheme() == null ? "" : ascii.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("only http and https URLs are delivered to, not "
                                               + (scheme.isEmpty() ? "a relative URL" : scheme + ":"));
        }
        if (ascii.getRawUserInfo() != null) {
            throw new IllegalArgumentException("a URL with a user name or password is not delivered to");
        }
        String host = ascii.getHost();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the URL has no host Herald can call (a name in another script "
                                               + "is written in its xn-- form)");
        }
        boolean literal = host.startsWith("[");
        String bare = literal ? host.substring(1, host.length() - 1) : host;
        literal = literal || bare.chars().allMatch(c -> c == '.' || c >= '0' && c <= '9');
        int port = ascii.getPort();
        if (port == 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not one Herald calls");
        }
        boolean https = scheme.equals("https");
        int effective = port < 0 ? (https ? HTTPS_PORT : HTTP_PORT) : port;
        String path = ascii.getRawPath() == null || ascii.getRawPath().isEmpty() ? "/" : ascii.getRawPath();
        String query = ascii.getRawQuery() == null ? "" : "?" + ascii.getRawQuery();
        return new EndpointUrl(https, bare, literal, effective, ascii.getRawAuthority(), path + query);
    }
}
