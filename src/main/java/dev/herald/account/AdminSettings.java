package dev.herald.account;

import java.util.ArrayList;
import java.util.List;

import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * The {@code admin} configuration. Tokens are trimmed and blank ones ignored: from the environment they arrive as
 * one comma-separated list ({@code ADMIN_TOKENS="tokA, tokB"}), spaces and a trailing comma included.
 *
 * @param tokens the bearer tokens of the management API, editors; none and no accounts closes it (403)
 * @param accounts named tokens with a role, for people (the console) and scripts
 */
public record AdminSettings(List<String> tokens, List<AccountSettings> accounts, AuthFailureSettings authFailures,
                            SessionSettings sessions) {

    /**
     * 32 characters of {@code openssl rand -hex 32} already carry 128 bits: no number of guesses at any rate finds
     * one. A short token would make the sign-in throttle the only thing between a guesser and the API.
     */
    static final int SHORTEST_TOKEN = 32;
    /**
     * Random tokens of 32 characters hold at least 13 different ones (hex) in practice; fewer than 8 is a word
     * repeated to length ({@code changemechangeme…}) or one key held down.
     */
    static final int FEWEST_DIFFERENT_CHARACTERS = 8;

    public AdminSettings {
        tokens = List.copyOf(tokens);
        accounts = List.copyOf(accounts);
    }

    /**
     * Refuses a token shorter than {@link #SHORTEST_TOKEN}, or with fewer than
     * {@link #FEWEST_DIFFERENT_CHARACTERS} different characters, unless {@code admin.allow-short-tokens} is true.
     */
    public static AdminSettings from(Config config) {
        List<String> configured = ConfigValues.list(config.get("tokens"));
        boolean allowShort = ConfigValues.bool(config.get("allow-short-tokens"), false);
        List<String> tokens = new ArrayList<>();
        for (int i = 0; i < configured.size(); i++) {
            String token = configured.get(i).strip();
            if (token.isEmpty()) {
                continue;
            }
            if (token.length() < SHORTEST_TOKEN && !allowShort) {
                // The entry's position, never the token: start-up lines end up in logs that others read.
                throw new IllegalArgumentException("admin.tokens: entry " + (i + 1) + " of " + configured.size()
                        + " is shorter than " + SHORTEST_TOKEN + " characters; use random tokens (openssl rand -hex 32)"
                        + " or set admin.allow-short-tokens: true (development only)");
            }
            if (token.codePoints().distinct().count() < FEWEST_DIFFERENT_CHARACTERS && !allowShort) {
                throw new IllegalArgumentException("admin.tokens: entry " + (i + 1) + " of " + configured.size()
                        + " has fewer than " + FEWEST_DIFFERENT_CHARACTERS + " different characters, so it is not"
                        + " random; use random tokens (openssl rand -hex 32)"
                        + " or set admin.allow-short-tokens: true (development only)");
            }
            tokens.add(token);
        }
        return new AdminSettings(tokens, AccountSettings.listFrom(config.get("accounts")),
                                 AuthFailureSettings.from(config.get("auth-failures")),
                                 SessionSettings.from(config.get("sessions")));
    }
}
