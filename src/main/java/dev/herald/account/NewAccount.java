package dev.herald.account;

import java.security.SecureRandom;
import java.util.HexFormat;

import dev.herald.admin.Role;
import dev.herald.config.BadSetting;
import dev.herald.logging.LogText;

/**
 * {@code herald account NAME ROLE}: a fresh token for a new entry of {@code admin.accounts}, and the entry, which
 * holds the token's SHA-256 only. The token is printed this once; Herald cannot show it again.
 */
public final class NewAccount {

    private static final SecureRandom RANDOM = new SecureRandom();

    private NewAccount() {
    }

    /** A new account's token: 256 random bits, hex; for the configuration and for the console's accounts alike. */
    static String token() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** @throws BadSetting when the name or role could not be configured */
    public static String describe(String name, String roleId) {
        // What was typed, as one line: a line break in it made the refusal two (an outside review).
        if (!AccountSettings.NAME.matcher(name).matches()) {
            throw new BadSetting("An account's name is 1 to 100 letters, digits, '.', '_', '@' or '-', not: "
                    + LogText.of(name));
        }
        Role role = Role.of(roleId).orElseThrow(() -> new BadSetting("An account's role is owner, editor or viewer, not: "
                + LogText.of(roleId)));
        String token = token();
        return """
                Token of %1$s, shown this once (Herald keeps only its SHA-256); give it to %1$s alone:
                  %2$s
                Add this entry to admin.accounts in the configuration file, which Herald reads again as it runs:
                  - name: %1$s
                    role: %3$s
                    token-sha256: "%4$s\"""".formatted(name, token, role.id(),
                                                       HexFormat.of().formatHex(Credentials.sha256(token)));
    }
}
