/**
 * The API's own conventions, shared by every surface: errors (one exception type, one mapper, two body shapes),
 * JSON read strictly and written compactly, ETags, media types, paths, and the headers every answer carries.
 * HTTP framing and connection hardening live apart, in {@code dev.herald.wire}.
 */
package dev.herald.api;
