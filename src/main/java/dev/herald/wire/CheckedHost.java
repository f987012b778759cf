package dev.herald.wire;

/**
 * The last {@code Host} value a connection's requests sent that passed {@link HttpVersions}' check. A client sends
 * the same one on every request of a connection, and the check's name form is a regular expression (Helidon's
 * {@code UriValidator}): 4 % of the CPU samples of a tracking request (JFR, 2026-11-29). A value equal to the one
 * that passed passes again without it; any other is checked. One connection is read by one thread at a time: a
 * plain field is enough.
 */
final class CheckedHost {

    private String passed;

    boolean passed(String host) {
        return host.equals(passed);
    }

    void pass(String host) {
        passed = host;
    }
}
