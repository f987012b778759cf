package dev.herald.account;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import dev.herald.admin.Role;
import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * One of {@code admin.accounts}: a named credential with a role, for a person (the console signs in with it) or a
 * script (as a bearer token). The configuration holds the SHA-256 of the token, never the token: a configuration
 * file may be read by more people than may change announcements. {@code java -jar herald.jar account NAME ROLE}
 * makes a token and prints the entry.
 *
 * @param tokenSha256 the SHA-256 digest of the account's token
 */
public record AccountSettings(String name, Role role, byte[] tokenSha256) {

    static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._@-]{0,99}");
    private static final Pattern DIGEST = Pattern.compile("[0-9a-fA-F]{64}");

    /**
     * The list's entries. {@code accounts:} left empty (YAML's null) is no accounts, as a removed line is: it was
     * refused with Helidon's words, and the accounts it meant to remove kept their access.
     */
    private static List<Config> entries(Config accounts) {
        if (!accounts.exists()) {
            return List.of();
        }
        if (accounts.type() == Config.Type.VALUE) {
            if (accounts.asString().orElse("").isBlank()) {
                return List.of();
            }
            throw new IllegalArgumentException("admin.accounts must be a list of accounts, each with a name, a role and"
                    + " a token-sha256, not a single value");
        }
        return accounts.asNodeList().orElse(List.of());
    }

    /**
     * Every entry of {@code admin.accounts}, each checked: a name (letters, digits, {@code . _ @ -}; at most 100)
     * given once, a role, and a digest of 64 hex digits.
     *
     * @throws IllegalArgumentException naming the entry and what is wrong with it, never a digest
     */
    static List<AccountSettings> listFrom(Config accounts) {
        List<Config> entries = entries(accounts);
        List<AccountSettings> all = new ArrayList<>();
        // Lower-cased: names are one whatever their case, as the console's are, so that no two read alike in the log.
        Map<String, String> names = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            Config entry = entries.get(i);
            String where = "admin.accounts: entry " + (i + 1) + " of " + entries.size();
            String name = ConfigValues.string(entry.get("name")).map(String::strip).orElse("");
            if (!NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(where + " needs a name of 1 to 100 letters, digits, '.', '_', '@'"
                        + " or '-'");
            }
            String earlier = names.putIfAbsent(name.toLowerCase(Locale.ROOT), name);
            if (earlier != null) {
                throw new IllegalArgumentException(where + ": the name " + name + " is given twice"
                        + (earlier.equals(name) ? "" : " (as " + earlier + ": names are one whatever their case)"));
            }
            String roleId = ConfigValues.string(entry.get("role")).map(String::strip).orElse("");
            Role role = Role.of(roleId).orElseThrow(() -> new IllegalArgumentException(
                    where + " (" + name + ") needs a role: owner, editor or viewer, not '" + roleId + "'"));
            String digest = ConfigValues.string(entry.get("token-sha256")).map(String::strip).orElse("");
            if (!DIGEST.matcher(digest).matches()) {
                throw new IllegalArgumentException(where + " (" + name + ") needs token-sha256: the SHA-256 of its"
                        + " token, 64 hex digits (java -jar herald.jar account " + name + " " + role.id() + ")");
            }
            all.add(new AccountSettings(name, role, HexFormat.of().parseHex(digest)));
        }
        return List.copyOf(all);
    }
}
