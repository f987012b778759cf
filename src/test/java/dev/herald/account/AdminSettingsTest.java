package dev.herald.account;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.herald.admin.Actor;
import dev.herald.admin.Role;
import dev.herald.config.HeraldConfig;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The admin configuration as an operator writes it: tokens from a file's list or the environment's comma list,
 * short tokens refused, the sign-in throttle's numbers. ProcessLifecycleTest shows a refused start end the process.
 */
class AdminSettingsTest {

    private static final String A = "tokA-0123456789abcdef0123456789abcdef";
    private static final String B = "tokB-0123456789abcdef0123456789abcdef";

    /** ADMIN_TOKENS="tokA, tokB" arrives as one value, spaces and all. */
    @Test
    void aCommaSeparatedValueGivesEveryTokenTrimmedAndBlankEntriesIgnored() {
        assertThat(settings(Map.of("admin.tokens", " " + A + ", " + B + " ,, ")).tokens(), is(List.of(A, B)));
    }

    @Test
    void listEntriesAreTrimmedToo() {
        assertThat(settings(Map.of("admin.tokens.0", A + " ", "admin.tokens.1", " ", "admin.tokens.2", "\t" + B))
                           .tokens(), is(List.of(A, B)));
    }

    @Test
    void noTokensCloseTheManagementApi() {
        assertThat(settings(Map.of()).tokens(), is(List.of()));
        assertThat(settings(Map.of("admin.tokens", " , ")).tokens(), is(List.of()));
    }

    @Test
    void aShortTokenStopsTheStartNamingTheSettingNotTheToken() {
        String shortToken = "0123456789abcdef0123456789abcde";
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("admin.tokens", A + "," + shortToken)));
        assertThat(refused.getMessage(), is("admin.tokens: entry 2 of 2 is shorter than 32 characters; use random"
                + " tokens (openssl rand -hex 32) or set admin.allow-short-tokens: true (development only)"));
        assertThat(refused.getMessage(), not(containsString(shortToken)));
        assertThat(settings(Map.of("admin.tokens", A + "," + shortToken + "f")).tokens().size(), is(2));
    }

    @Test
    void aLongTokenOfAFewCharactersRepeatedStopsTheStart() {
        for (String weak : new String[] {"changemechangemechangemechangeme", "a".repeat(40)}) {
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> settings(Map.of("admin.tokens", A + "," + weak)));
            assertThat(refused.getMessage(), is("admin.tokens: entry 2 of 2 has fewer than 8 different characters, so"
                    + " it is not random; use random tokens (openssl rand -hex 32) or set admin.allow-short-tokens:"
                    + " true (development only)"));
            assertThat(refused.getMessage(), not(containsString(weak)));
        }
        assertThat(settings(Map.of("admin.tokens", "changemechangemechangemechangemeX")).tokens().size(), is(1));
    }

    @Test
    void shortTokensAreAcceptedWhenAllowed() {
        assertThat(settings(Map.of("admin.tokens", "dev", "admin.allow-short-tokens", "true")).tokens(),
                   is(List.of("dev")));
    }

    /** The development configuration's token is short: it says so, and it starts. */
    @Test
    void theDevelopmentConfigurationStartsWithItsShortToken() {
        var config = HeraldConfig.withDefaults(List.of(ConfigSources.file(Path.of("config/dev.yaml"))));
        assertThat(AdminSettings.from(config.get("admin")).tokens(), is(List.of("dev-admin-token")));
    }

    @Test
    void failedAuthenticationsAreLimitedTo10PerMinuteByDefault() {
        AuthFailureSettings defaults = settings(Map.of()).authFailures();
        assertThat(defaults.limit(), is(10));
        assertThat(defaults.window(), is(Duration.ofSeconds(60)));
        assertThat(defaults.maxClients(), is(10_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"limit", "max-clients"})
    void aLimitBelowOneStopsTheStart(String setting) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("admin.auth-failures." + setting, "0")));
        assertThat(refused.getMessage(), containsString("admin.auth-failures"));
    }

    @Test
    void accountsAreReadWithTheirRolesAndEachMistakeStopsTheStartNamingTheEntry() {
        String digest = Accounts.sha256(Accounts.ALICE_TOKEN);
        AdminSettings read = settings(Map.of("admin.accounts.0.name", " alice ", "admin.accounts.0.role", "viewer",
                                             "admin.accounts.0.token-sha256", digest.toUpperCase(Locale.ROOT)));
        assertThat(read.accounts().getFirst().name(), is("alice"));
        assertThat(read.accounts().getFirst().role(), is(Role.VIEWER));
        assertThat(Credentials.of(read).actorOf(Accounts.ALICE_TOKEN).orElseThrow(),
                   is(new Actor("alice", Role.VIEWER)));

        assertThat(refusal(Map.of("admin.accounts.0.name", "alice", "admin.accounts.0.role", "admin",
                                  "admin.accounts.0.token-sha256", digest)),
                   is("admin.accounts: entry 1 of 1 (alice) needs a role: owner, editor or viewer, not 'admin'"));
        assertThat(refusal(Map.of("admin.accounts.0.name", "al ice", "admin.accounts.0.role", "editor",
                                  "admin.accounts.0.token-sha256", digest)),
                   is("admin.accounts: entry 1 of 1 needs a name of 1 to 100 letters, digits, '.', '_', '@' or '-'"));
        assertThat(refusal(Map.of("admin.accounts.0.name", "alice", "admin.accounts.0.role", "editor",
                                  "admin.accounts.0.token-sha256", Accounts.ALICE_TOKEN)),
                   is("admin.accounts: entry 1 of 1 (alice) needs token-sha256: the SHA-256 of its token, 64 hex"
                              + " digits (java -jar herald.jar account alice editor)"));
        assertThat(refusal(Map.of("admin.accounts.0.name", "alice", "admin.accounts.0.role", "editor",
                                  "admin.accounts.0.token-sha256", digest, "admin.accounts.1.name", "alice",
                                  "admin.accounts.1.role", "viewer", "admin.accounts.1.token-sha256", digest)),
                   is("admin.accounts: entry 2 of 2: the name alice is given twice"));
        assertThat("names are one whatever their case, as the console's are (docs/api.md#team)",
                   refusal(Map.of("admin.accounts.0.name", "alice", "admin.accounts.0.role", "owner",
                                  "admin.accounts.0.token-sha256", digest, "admin.accounts.1.name", "Alice",
                                  "admin.accounts.1.role", "viewer", "admin.accounts.1.token-sha256", digest)),
                   is("admin.accounts: entry 2 of 2: the name Alice is given twice (as alice: names are one whatever"
                              + " their case)"));
    }

    @Test
    void oneTokenForTwoCallersStopsTheStart() {
        AdminSettings twice = settings(Map.of("admin.tokens.0", A, "admin.accounts.0.name", "alice",
                                              "admin.accounts.0.role", "viewer",
                                              "admin.accounts.0.token-sha256", Accounts.sha256(A)));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> Credentials.of(twice));
        assertThat(refused.getMessage(), is("admin: alice has the token of token:" + Accounts.sha256(A).substring(0, 8)
                + "; give each its own"));
    }

    /** What `herald account` prints opens the API as that account once configured. */
    @Test
    void aNewAccountsEntryHoldsTheDigestOfTheTokenItPrints() {
        String printed = NewAccount.describe("bob", "viewer");
        String token = printed.lines().toList().get(1).strip();
        String digest = printed.lines().toList().getLast().replaceAll(".*\"(\\p{XDigit}{64})\"", "$1");

        assertThat(token.length(), is(64));
        assertThat(digest, is(Accounts.sha256(token)));
        assertThat(printed, containsString("  - name: bob\n    role: viewer\n"));
        assertThat(NewAccount.describe("bob", "viewer"), not(containsString(token)));
        assertThat("an owner manages the team in the console", NewAccount.describe("olive", "owner"),
                   containsString("    role: owner\n"));
        assertThrows(dev.herald.config.BadSetting.class, () -> NewAccount.describe("bob", "admin"));
    }

    private static String refusal(Map<String, String> values) {
        return assertThrows(IllegalArgumentException.class, () -> settings(values)).getMessage();
    }

    private static AdminSettings settings(Map<String, String> values) {
        return AdminSettings.from(HeraldConfig.withDefaults(List.of(ConfigSources.create(values))).get("admin"));
    }
}
