package dev.herald.account;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a reload changed of {@code admin.accounts} and {@code admin.tokens}, for its log line: accounts by name, roles,
 * that a token was replaced, how many tokens came and went; never a token nor a digest.
 */
public final class AccountChanges {

    private AccountChanges() {
    }

    /** {@code added alice (editor), removed bob, carol now viewer, dave's token replaced}, or {@code reordered}. */
    public static String between(AdminSettings before, AdminSettings after) {
        Map<String, AccountSettings> old = byName(before);
        Map<String, AccountSettings> now = byName(after);
        List<String> changes = new ArrayList<>();
        now.values().stream().filter(account -> !old.containsKey(account.name()))
                .forEach(account -> changes.add("added " + account.name() + " (" + account.role().id() + ")"));
        old.values().stream().filter(account -> !now.containsKey(account.name()))
                .forEach(account -> changes.add("removed " + account.name()));
        for (AccountSettings account : now.values()) {
            AccountSettings was = old.get(account.name());
            if (was == null) {
                continue;
            }
            if (was.role() != account.role()) {
                changes.add(account.name() + " now " + account.role().id());
            }
            if (!MessageDigest.isEqual(was.tokenSha256(), account.tokenSha256())) {
                changes.add(account.name() + "'s token replaced");
            }
        }
        return changes.isEmpty() ? "reordered" : String.join(", ", changes);
    }

    /** {@code 1 added, 1 removed (2 in all)}: how many, never which. */
    public static String tokensBetween(AdminSettings before, AdminSettings after) {
        long added = after.tokens().stream().filter(token -> !before.tokens().contains(token)).count();
        long removed = before.tokens().stream().filter(token -> !after.tokens().contains(token)).count();
        return added + " added, " + removed + " removed (" + after.tokens().size() + " in all)";
    }

    private static Map<String, AccountSettings> byName(AdminSettings settings) {
        return settings.accounts().stream().collect(Collectors.toMap(AccountSettings::name, Function.identity(),
                                                                     (a, b) -> a, LinkedHashMap::new));
    }
}
