/**
 * What Herald's own log lines share: client text made safe to log, and counted lines instead of a flood.
 */
package dev.herald.logging;
