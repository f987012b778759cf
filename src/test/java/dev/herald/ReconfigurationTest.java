package dev.herald;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;

import dev.herald.account.Accounts;
import dev.herald.account.SessionStore;
import dev.herald.support.AdminClient;
import dev.herald.support.HeraldServerTest;
import dev.herald.support.LoggerLines;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;
import dev.herald.support.Tokens;

import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * docs/operations.md#changing-the-configuration-without-a-restart: a running server's configuration file changed and
 * read again ({@link Reconfiguration#reload}, what the watcher calls), on the real server and database. Accounts,
 * admin tokens, CORS origins, rate limits and trusted proxies change at once; a file with a mistake changes nothing
 * and says what is wrong in one line; a setting read at start only says so.
 */
@ServerTest
class ReconfigurationTest extends HeraldServerTest {

    private static final String ALICE_TOKEN = "alice-reload-token-0123456789abcdef0123456789";
    private static final String BOB_TOKEN = "bob-reload-token-0123456789abcdef0123456789ab";
    private static final String PREFLIGHT_PATH = "/api/v1/public/track/x";
    private static final String PUBLIC_PATH = "/api/v1/public/nothing/notifications";
    private static Path file;
    private static TestDatabase database;

    private final Http1Client client;
    private Reconfiguration reconfiguration;
    private LoggerLines log;

    ReconfigurationTest(Http1Client client) {
        this.client = client;
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) throws IOException {
        database = TestDatabase.h2();
        file = Files.createTempFile("herald-reload", ".yaml");
        Files.writeString(file, base(""));
        herald = TestHerald.start(database, Map.of(), file);
        herald.server(server);
    }

    @AfterAll
    static void deleteFile() throws IOException {
        Files.deleteIfExists(file);
    }

    /** The file every test starts from, the running configuration read from it; every window of the limits over. */
    @BeforeEach
    void startFromTheBase() throws IOException {
        Files.writeString(file, base(""));
        reconfiguration = new Reconfiguration(herald.loader(), herald.fileAlone(), herald.config(),
                                              herald.services().live());
        reconfiguration.reload();
        herald.clock().advance(Duration.ofHours(1));
        log = new LoggerLines(Reconfiguration.class.getName());
    }

    @AfterEach
    void closeLog() {
        log.close();
    }

    /**
     * The database's, an admin token, alice (an editor), one CORS origin, a public limit of 1,000 requests; then
     * {@code more}, YAML at the top level.
     */
    private static String base(String more) {
        return """
                server:
                  port: 0
                db:
                  connection:
                    url: "%s"
                admin:
                  tokens: ["%s"]
                  accounts:
                    - name: alice
                      role: editor
                      token-sha256: "%s"
                %s
                cors:
                  allowed-origins: ["https://old.example"]
                """.formatted(database.url(), AdminClient.TOKEN, Tokens.sha256(ALICE_TOKEN), more.contains("rate-limit:")
                ? "" : "rate-limit:\n  requests: 1000\n") + more;
    }

    private void reloadWith(String yaml) throws IOException {
        Files.writeString(file, yaml);
        reconfiguration.reload();
    }

    @Test
    void anAccountAddedToTheFileSignsIn() throws IOException {
        assertThat(signIn("bob", BOB_TOKEN).status(), is(401));

        reloadWith(base("").replace("""
                  accounts:
                """, """
                  accounts:
                    - name: bob
                      role: viewer
                      token-sha256: "%s"
                """.formatted(Tokens.sha256(BOB_TOKEN))));

        Accounts.Answer signedIn = signIn("bob", BOB_TOKEN);
        assertThat(signedIn.body(), signedIn.status(), is(201));
        assertThat(signedIn.object().getString("role"), is("viewer"));
        assertThat(bearer(BOB_TOKEN), is(200));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: admin.accounts: added bob (viewer)"));
    }

    @Test
    void aRemovedAccountsSessionAndTokenAnswer401AndStayEndedWhenItComesBack() throws IOException {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);
        assertThat(signedIn.status(), is(201));
        assertThat(session(signedIn), is(200));
        assertThat(bearer(ALICE_TOKEN), is(200));

        String withoutAlice = base("").replaceAll("(?s)  accounts:.*?token-sha256: \"[0-9a-f]+\"\n", "");
        reloadWith(withoutAlice);

        assertThat(session(signedIn), is(401));
        assertThat(bearer(ALICE_TOKEN), is(401));
        assertThat(signIn("alice", ALICE_TOKEN).status(), is(401));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: admin.accounts: removed alice"));

        reloadWith(base(""));
        assertThat("a session of a removed account is deleted, not revived", session(signedIn), is(401));
        assertThat(bearer(ALICE_TOKEN), is(200));
    }

    /**
     * The removal's deletion of the sessions failed (the database away: here, its table out of reach), then the
     * account came back with its token at the next reload: its session of before the removal was served again (an
     * operator's trial). It stays ended, and is deleted once the database answers.
     */
    @Test
    void aSessionWhoseDeletionFailedStaysEndedWhenItsAccountComesBack() throws Exception {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);
        assertThat(session(signedIn), is(200));

        sql("ALTER TABLE admin_sessions RENAME TO admin_sessions_away");
        try {
            reloadWith(base("").replaceAll("(?s)  accounts:.*?token-sha256: \"[0-9a-f]+\"\n", ""));
            assertThat(log.warnings().getFirst(), startsWith("The sessions of removed accounts were not deleted: "));
        } finally {
            sql("ALTER TABLE admin_sessions_away RENAME TO admin_sessions");
        }
        herald.clock().advance(Duration.ofSeconds(1));
        reloadWith(base(""));

        assertThat("a session of before the removal is not revived", session(signedIn), is(401));
        assertThat("a new one opens", session(signIn("alice", ALICE_TOKEN)), is(200));
    }

    private static void sql(String statement) throws SQLException {
        try (Connection connection = database.connect(); Statement sql = connection.createStatement()) {
            sql.execute(statement);
        }
    }

    // "accounts:" with nothing after it was refused, and the account and the token removed with it kept their access.
    @Test
    void accountsLeftEmptyRemoveEveryAccount() throws IOException {
        assertThat(bearer(ALICE_TOKEN), is(200));

        reloadWith(base("").replaceAll("(?s)(  accounts:\n).*?token-sha256: \"[0-9a-f]+\"\n", "$1"));

        assertThat(log.lines(), contains("INFO: Configuration reloaded: admin.accounts: removed alice"));
        assertThat(bearer(ALICE_TOKEN), is(401));
        assertThat(signIn("alice", ALICE_TOKEN).status(), is(401));
    }

    @Test
    void aChangedRoleHoldsAtTheNextRequest() throws IOException {
        Accounts.Answer signedIn = signIn("alice", ALICE_TOKEN);
        reloadWith(base("").replace("role: editor", "role: viewer"));

        Accounts.Answer current = Accounts.send(client, Method.GET, "/session", null, cookie(signedIn));
        assertThat(current.object().getString("role"), is("viewer"));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: admin.accounts: alice now viewer"));
    }

    @Test
    void anAdminTokenAddedOpensAndOneRemovedCloses() throws IOException {
        String second = "second-admin-token-0123456789abcdef012345";
        reloadWith(base("").replace("tokens: [\"" + AdminClient.TOKEN + "\"]", "tokens: [\"" + second + "\"]"));

        assertThat(bearer(second), is(200));
        assertThat(bearer(AdminClient.TOKEN), is(401));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: admin.tokens: 1 added, 1 removed (1 in all)"));
        assertThat(String.join("\n", log.lines()), not(containsString(second)));
    }

    @Test
    void aPreflightFromTheNewOriginIsAllowedAndFromTheOldNot() throws IOException {
        assertThat(allowedOrigin("https://old.example"), is("https://old.example"));

        reloadWith(base("").replace("https://old.example", "https://new.example"));

        assertThat(allowedOrigin("https://new.example"), is("https://new.example"));
        assertThat(allowedOrigin("https://old.example"), is("none"));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: cors.allowed-origins: https://new.example"
                + " (was https://old.example)"));
    }

    @Test
    void aNewPublicLimitAppliesAndTheWindowGoesOnCounting() throws IOException {
        assertThat(publicGet(Map.of()).remaining(), is("999"));
        assertThat(publicGet(Map.of()).remaining(), is("998"));

        reloadWith(base("rate-limit:\n  requests: 3\n"));

        Limited third = publicGet(Map.of());
        assertThat(third.limit(), is("3"));
        assertThat("the two requests before the reload still count", third.remaining(), is("0"));
        assertThat(publicGet(Map.of()).status(), is(429));
        assertThat(log.lines(), contains("INFO: Configuration reloaded: rate-limit.requests: 3 (was 1000)"));
    }

    @Test
    void aNewManagementLimitApplies() throws IOException {
        reloadWith(base("").replace("""
                admin:
                """, """
                admin:
                  rate-limit:
                    requests: 2
                """));

        assertThat(bearer(AdminClient.TOKEN), is(200));
        assertThat(bearer(AdminClient.TOKEN), is(200));
        assertThat(bearer(AdminClient.TOKEN), is(429));
    }

    @Test
    void aTrustedProxysForwardedAddressIsTheClientOnceTrustedAndNotOnceRemoved() throws IOException {
        assertThat(publicGet(Map.of("X-Forwarded-For", "203.0.113.1")).remaining(), is("999"));
        assertThat("the test client's own address is the client", publicGet(Map.of("X-Forwarded-For",
                                                                                    "203.0.113.2")).remaining(),
                   is("998"));

        reloadWith(base("rate-limit:\n  requests: 1000\n  trusted-proxies: [\"127.0.0.1\", \"::1\"]\n"));

        assertThat(publicGet(Map.of("X-Forwarded-For", "203.0.113.3")).remaining(), is("999"));
        assertThat(publicGet(Map.of("X-Forwarded-For", "203.0.113.4")).remaining(), is("999"));

        reloadWith(base(""));

        assertThat(publicGet(Map.of("X-Forwarded-For", "203.0.113.5")).remaining(), is("997"));
    }

    @Test
    void aFileThatIsNotYamlKeepsTheConfigurationAndSaysWhereInOneLine() throws IOException {
        reloadWith(base("").replace("https://old.example", "https://new.example") + "feed: [unclosed\n");

        assertThat(log.lines(), hasSize(1));
        assertThat(log.warnings().get(0), startsWith("Configuration not reloaded: Configuration file "
                + file.toAbsolutePath() + " is not valid YAML"));
        assertThat(allowedOrigin("https://old.example"), is("https://old.example"));
        assertThat(allowedOrigin("https://new.example"), is("none"));
    }

    @Test
    void aBadValueKeepsTheWholeConfigurationAndNamesTheSetting() throws IOException {
        reloadWith(base("rate-limit:\n  requests: many\n").replace("https://old.example", "https://new.example"));

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: rate-limit.requests"
                + " (RATE_DASH_LIMIT_REQUESTS) is \"many\"; it must be a whole number, e.g. 1000"));
        assertThat("nothing of the file is applied", allowedOrigin("https://new.example"), is("none"));
    }

    /** A misspelt database setting in a reload: refused, and the line no longer says that Herald stops. */
    @Test
    void aMisspeltDatabaseSettingKeepsTheConfigurationAndSaysWhy() throws IOException {
        reloadWith(base("").replace("    url: ", "    maximumPolSize: 4\n    url: "));

        assertThat(log.lines(), hasSize(1));
        assertThat(log.warnings().getFirst(), startsWith("Configuration not reloaded: db.connection.maximumPolSize (file "));
        assertThat(log.warnings().getFirst(), endsWith("is not a setting Herald knows (did you mean "
                + "db.connection.maximumPoolSize?): a mistake under db could point Herald at another database than "
                + "meant, so it is refused"));
    }

    @Test
    void aShortTokenKeepsTheOldTokensAndIsNotShown() throws IOException {
        reloadWith(base("").replace(AdminClient.TOKEN, "short-secret"));

        assertThat(log.lines(), hasSize(1));
        assertThat(log.warnings().get(0), startsWith("Configuration not reloaded: admin.tokens: entry 1 of 1 is"
                + " shorter than 32 characters"));
        assertThat(log.warnings().get(0), not(containsString("short-secret")));
        assertThat(bearer(AdminClient.TOKEN), is(200));
    }

    @Test
    void aSettingReadAtStartOnlySaysSoAndTheLiveOnesStillChange() throws IOException {
        reloadWith(base("").replace("port: 0", "port: 19399").replace("https://old.example", "https://new.example"));

        assertThat(log.lines(), contains(
                "WARNING: server.port changed in the file: takes effect at the next restart",
                "INFO: Configuration reloaded: cors.allowed-origins: https://new.example (was https://old.example)"));
        assertThat(allowedOrigin("https://new.example"), is("https://new.example"));

        reloadWith(base("").replace("https://old.example", "https://new.example"));
        assertThat("as it was at start: nothing to restart for", log.warnings(), contains(
                "server.port changed in the file: takes effect at the next restart"));
    }

    /**
     * The file changed a setting that a source above it sets (here the test's own, as the environment would): the
     * reload said nothing changed, and the operator did not know why. Now one line names it, without its value.
     */
    @Test
    void aSettingOfTheFileThatASourceAboveItSetsIsNamedAsUnused() throws IOException {
        reloadWith(base("observe:\n  port: 19398\n"));

        assertThat(log.lines(), hasSize(2));
        assertThat(log.lines().getFirst(), startsWith("INFO: Set in the file but not used, since the environment or a "
                + "system property sets them and wins: observe.port ("));
        assertThat(log.lines().getFirst(), not(containsString("19398")));
        assertThat(log.lines().get(1), is("INFO: Configuration read again: no setting that changes live has changed"));
    }

    @Test
    void aFileReadAgainUnchangedSaysSo() {
        reconfiguration.reload();

        assertThat(log.lines(), contains("INFO: Configuration read again: no setting that changes live has changed"));
    }

    @Test
    void aFileThatIsGoneKeepsTheConfiguration() throws IOException {
        Files.delete(file);
        try {
            reconfiguration.reload();
        } finally {
            Files.writeString(file, base(""));
        }

        assertThat(log.warnings(), hasItem("Configuration not reloaded: Configuration file not found: "
                + file.toAbsolutePath()));
        assertThat(bearer(AdminClient.TOKEN), is(200));
    }

    @Test
    void aFileOverOneMibKeepsTheConfigurationInOneLineAndTheNextGoodEditApplies() throws IOException {
        String large = base("").replace("https://old.example", "https://new.example")
                + ("# " + "x".repeat(1021) + "\n").repeat(1025);
        reloadWith(large);

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: Configuration file "
                + file.toAbsolutePath() + " is " + large.length() + " bytes, more than 1 MiB (1048576), which no"
                + " configuration needs"));
        assertThat(allowedOrigin("https://new.example"), is("none"));

        reloadWith(base("").replace("https://old.example", "https://new.example"));
        assertThat(allowedOrigin("https://new.example"), is("https://new.example"));
    }

    @Test
    void aDirectoryInPlaceOfTheFileIsCalledADirectory() throws IOException {
        Files.delete(file);
        try {
            Files.createDirectory(file);
            reconfiguration.reload();
        } finally {
            Files.deleteIfExists(file);
            Files.writeString(file, base(""));
        }

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: Configuration file "
                + file.toAbsolutePath() + " is a directory, not a file"));
    }

    /** docs/security.md: tokens are never logged, not even one pasted into a setting of another form. */
    @Test
    void aTokenInASettingOfTheWrongFormIsNotShown() throws IOException {
        reloadWith(base("").replace("admin:\n", "admin:\n  allow-short-tokens: \"" + BOB_TOKEN + "\"\n"));

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: admin.allow-short-tokens"
                + " (ADMIN_ALLOW_DASH_SHORT_DASH_TOKENS) is a value of " + BOB_TOKEN.length() + " characters (not shown: it"
                + " could be a token); it must be true or false"));
    }

    @Test
    void aMisspeltKeyIsNoSettingThatARestartApplies() throws IOException {
        reloadWith(base("limits:\n  conections: 5\n"));

        assertThat(log.lines(), contains("INFO: Configuration read again: no setting that changes live has changed"));
    }

    // A misspelt key in a live section was listed as reloaded beside the setting that did change.
    @Test
    void aMisspeltKeyInALiveSectionIsNotReportedAsApplied() throws IOException {
        reloadWith(base("rate-limit:\n  requests: 5\n  reqests: 7\n"));

        assertThat(log.lines(), contains("INFO: Configuration reloaded: rate-limit.requests: 5 (was 1000)"));
    }

    @Test
    void aListWhereOneValueBelongsKeepsTheConfiguration() throws IOException {
        reloadWith(base("rate-limit:\n  requests: [1, 2]\n").replace("https://old.example", "https://new.example"));

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: rate-limit.requests (file " + file
                + ") must be a single value, not a list"));
        assertThat("nothing of the file is applied", allowedOrigin("https://new.example"), is("none"));
    }

    @Test
    void anAllowedOriginThatIsNoOriginKeepsTheConfiguration() throws IOException {
        reloadWith(base("").replace("[\"https://old.example\"]", "[\"https://old.example\", \"not a url\", 5]"));

        assertThat(log.lines(), contains("WARNING: Configuration not reloaded: cors.allowed-origins"
                + " (CORS_ALLOWED_DASH_ORIGINS): entry 2 of 3, \"not a url\", is not an origin; each must be"
                + " scheme://host[:port], without a path or a trailing slash, e.g. https://app.example.com"));
        assertThat(allowedOrigin("https://old.example"), is("https://old.example"));
    }

    private Accounts.Answer signIn(String name, String token) {
        return Accounts.send(client, Method.POST, "/session", Accounts.signInBody(name, token), Map.of());
    }

    private int session(Accounts.Answer signedIn) {
        return Accounts.send(client, Method.GET, "/session", null, cookie(signedIn)).status();
    }

    private static Map<String, String> cookie(Accounts.Answer signedIn) {
        return Map.of("Cookie", SessionStore.COOKIE + "=" + signedIn.session().orElseThrow(),
                      "Sec-Fetch-Site", "same-origin");
    }

    private int bearer(String token) {
        return Accounts.send(client, Method.GET, "/projects", null, Map.of("Authorization", "Bearer " + token))
                .status();
    }

    /** The Access-Control-Allow-Origin of a preflight from {@code origin}, or {@code none}. */
    private String allowedOrigin(String origin) {
        try (Http1ClientResponse response = client.method(Method.OPTIONS).path(PREFLIGHT_PATH)
                .header(HeaderNames.ORIGIN, origin)
                .header(HeaderNames.ACCESS_CONTROL_REQUEST_METHOD, "POST")
                .request()) {
            return response.headers().first(HeaderNames.ACCESS_CONTROL_ALLOW_ORIGIN).orElse("none");
        }
    }

    private record Limited(int status, String limit, String remaining) {
    }

    private Limited publicGet(Map<String, String> headers) {
        var request = client.get(PUBLIC_PATH);
        headers.forEach((name, value) -> request.header(HeaderNames.create(name), value));
        try (Http1ClientResponse response = request.request()) {
            return new Limited(response.status().code(),
                               response.headers().first(HeaderNames.create("RateLimit-Limit")).orElse("none"),
                               response.headers().first(HeaderNames.create("RateLimit-Remaining")).orElse("none"));
        }
    }
}
