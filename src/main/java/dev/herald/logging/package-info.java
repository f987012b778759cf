/**
 * What Herald's own log lines share: client text made safe to log, and counted lines instead of a flood; and the
 * set-up of the log itself.
 */
package dev.herald.logging;
