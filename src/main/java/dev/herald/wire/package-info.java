/**
 * HTTP framing and connection hardening: what Herald adds where Helidon's parser and connection handling alone
 * would let a client's bytes smuggle a request, hold memory or keep a connection. Each class names the Helidon
 * behaviour it answers and the versions checked; the API's own conventions live in {@code dev.herald.api}.
 */
package dev.herald.wire;
