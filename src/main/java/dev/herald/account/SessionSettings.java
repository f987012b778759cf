package dev.herald.account;

import java.time.Duration;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code admin.sessions} configuration: a console session ends after {@code idle-timeout} without a request,
 * and {@code max-age} after its sign-in whatever its use; an account has at most {@code max-per-account} sessions
 * (a sign-in past it ends the least recently used), so that a script signing in in a loop does not fill the table.
 */
public record SessionSettings(Duration idleTimeout, Duration maxAge, int maxPerAccount) {

    public SessionSettings {
        if (idleTimeout.toSeconds() < 60 || maxAge.compareTo(idleTimeout) < 0) {
            throw new IllegalArgumentException("admin.sessions.idle-timeout must be at least PT1M, and"
                    + " admin.sessions.max-age at least as long");
        }
        if (maxPerAccount < 1 || maxPerAccount > 1000) {
            throw new IllegalArgumentException("admin.sessions.max-per-account must be from 1 to 1000");
        }
    }

    public static SessionSettings from(Config config) {
        return new SessionSettings(ConfigValues.duration(config.get("idle-timeout"), Duration.ofMinutes(30)),
                                   ConfigValues.duration(config.get("max-age"), Duration.ofHours(12)),
                                   ConfigValues.integer(config.get("max-per-account"), 10));
    }
}
