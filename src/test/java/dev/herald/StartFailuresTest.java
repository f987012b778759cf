package dev.herald;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.config.ConfigValues;
import dev.herald.storage.Database;
import dev.herald.support.ChildHerald;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

/**
 * A start that cannot succeed ends with exit code 1 and one line that names the setting, what it holds and what it
 * needs, never a stack trace, and before any database is created. Each case as an operator meets it: Herald in a JVM
 * of its own, the mistake in its file or its environment.
 */
class StartFailuresTest {

    private static final String LISTENERS = """
            server:
              port: 0
              host: 127.0.0.1
            observe:
              port: 0
            """;

    @TempDir
    Path directory;

    @Test
    void invalidYamlNamesTheFileLineAndColumn() throws Exception {
        assertFailedStart(LISTENERS + "admin:\n  tokens: [x\nlimits: {\n", Map.of(),
                          "Configuration file " + directory.resolve("herald.yaml").toAbsolutePath()
                                  + " is not valid YAML: expected ',' or ']', but got : at line 8, column 7");
    }

    @Test
    void aFileThatIsNoMappingIsNamed() throws Exception {
        // (The comment keeps ChildHerald from adding an observe: section to it.)
        assertFailedStart("# not an observe: section\n- server\n- db\n", Map.of(), "Configuration file "
                + directory.resolve("herald.yaml").toAbsolutePath() + " is not a mapping of settings: its top level must "
                + "be keys such as server: and db:");
    }

    @Test
    void aPortThatIsNoNumberSaysWhatItMustBe() throws Exception {
        assertFailedStart(h2(), Map.of("SERVER_PORT", "abc"),
                          "server.port (SERVER_PORT) is \"abc\"; it must be a whole number, e.g. 8080");
    }

    @Test
    void aPortOutOfRangeSaysWhatItMustBe() throws Exception {
        assertFailedStart(h2(), Map.of("OBSERVE_PORT", "70000"),
                          "observe.port (OBSERVE_PORT) is \"70000\"; it must be a port from 1 to 65535, or 0 for any "
                                  + "free one, e.g. 8081");
    }

    /** server.* beyond port and host is Helidon's: its own readers fail, and the line still names the setting. */
    @Test
    void aHelidonServerSettingInTheWrongFormIsNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("SERVER_MAX_DASH_PAYLOAD_DASH_SIZE", "abc"),
                          "server.max-payload-size (SERVER_MAX_DASH_PAYLOAD_DASH_SIZE) is \"abc\", which is not of the "
                                  + "form it needs (README, Configuration)");
    }

    @Test
    void aDurationInTheWrongFormShowsTheRightOne() throws Exception {
        assertFailedStart(h2(), Map.of("DB_STARTUP_DASH_TIMEOUT", "30s"),
                          "db.startup-timeout (DB_STARTUP_DASH_TIMEOUT) is \"30s\"; it must be an ISO-8601 duration, "
                                  + "e.g. PT30S (30 seconds)");
        // Set with each dash an underscore, which Helidon reads too, it is named as set, not as documented.
        assertFailedStart(h2(), Map.of("DB_STARTUP_TIMEOUT", "30s"),
                          "db.startup-timeout (DB_STARTUP_TIMEOUT) is \"30s\"; it must be an ISO-8601 duration, "
                                  + "e.g. PT30S (30 seconds)");
    }

    @Test
    void aSwitchThatIsNeitherTrueNorFalseIsRefused() throws Exception {
        // In a YAML file, yes is a boolean (YAML 1.1) and arrives as true; in the environment it is a word.
        assertFailedStart(h2(), Map.of("FEED_CACHE_ENABLED", "yes"),
                          "feed.cache.enabled (FEED_CACHE_ENABLED) is \"yes\"; it must be true or false");
    }

    @Test
    void userTokenSettingsOutOfRangeAreNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("USER_DASH_TOKENS_MAX_DASH_LIFETIME", "PT0S"),
                          "user-tokens.max-lifetime must be positive, e.g. PT24H");
        assertFailedStart(h2(), Map.of("USER_DASH_TOKENS_CLOCK_DASH_SKEW", "PT1H"),
                          "user-tokens.clock-skew must be between PT0S and PT10M, e.g. PT60S");
        assertFailedStart(h2(), Map.of("USER_DASH_TOKENS_CACHE_MAX_DASH_ENTRIES", "-1"),
                          "user-tokens.cache: max-entries and max-bytes must be 0 (no cache) or more");
    }

    @Test
    void aDrainPeriodOutOfRangeIsNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("OBSERVE_DRAIN_DASH_PERIOD", "PT6M"),
                          "observe.drain-period must be from PT0S to PT5M, not PT6M");
        assertFailedStart(h2(), Map.of("OBSERVE_DRAIN_DASH_PERIOD", "-PT1S"),
                          "observe.drain-period must be from PT0S to PT5M, not PT-1S");
    }

    @Test
    void theDemoSwitchIsCheckedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("SDK_DEMO_ENABLED", "on"),
                          "sdk.demo.enabled (SDK_DEMO_ENABLED) is \"on\"; it must be true or false");
    }

    /** Found at the start, not at the first backup an owner asks for (docs/operations.md#backups). */
    @Test
    void aBackupDirectoryThatIsAFileIsNamedBeforeTheDatabase() throws Exception {
        Path file = Files.writeString(directory.resolve("backups"), "");
        assertFailedStart(h2(), Map.of("DB_BACKUP_DIRECTORY", file.toString()),
                          "db.backup.directory (DB_BACKUP_DIRECTORY) is \"" + file + "\", which is a file, not a directory");
    }

    @Test
    void aNegativeNumberOfBackupsToKeepIsNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("DB_BACKUP_KEEP", "-1"), "db.backup.keep (DB_BACKUP_KEEP) is -1: the number of"
                + " newest backups to keep, e.g. 7, or 0 to keep them all");
    }

    @Test
    void aMisspelledDatabaseSettingStopsTheStartInsteadOfFallingBackToH2() throws Exception {
        assertFailedStart(LISTENERS + "db:\n  conection:\n    url: \"jdbc:mariadb://db.internal/herald\"\n", Map.of(),
                          "db.conection.url (file " + directory.resolve("herald.yaml")
                                  + ") is not a setting Herald knows (did you mean db.connection.url?)");
        assertThat("the bundled H2 database was not created", Files.exists(directory.resolve("data")), is(false));
    }

    /** The finding: a second db: block replaced the first, and config/prod.yaml started on embedded H2. */
    @Test
    void aKeyGivenTwiceInTheFileIsRefusedWithItsLine() throws Exception {
        assertFailedStart(h2() + "limits:\n  connections: 10\ndb:\n  startup-timeout: PT5S\n", Map.of(),
                          "Configuration file " + directory.resolve("herald.yaml").toAbsolutePath() + " has a key twice"
                                  + " in one section at line 9 (found duplicate key db): the second would silently"
                                  + " replace the first; merge them");
    }

    /** Embedded H2 is the default of a start without a file; a file must name its database. */
    @Test
    void aFileThatNamesNoDatabaseStopsTheStartInsteadOfFallingBackToH2() throws Exception {
        assertFailedStart(LISTENERS + "db:\n  startup-timeout: PT5S\n", Map.of(),
                          "No database is named: neither file " + directory.resolve("herald.yaml") + " nor the "
                                  + "environment sets db.connection.url (DB_CONNECTION_URL), and Herald does not fall "
                                  + "back to its embedded H2 database when a configuration file is given. Set it: "
                                  + "jdbc:mariadb://host:3306/herald, or jdbc:h2:file:./data/herald to run on embedded "
                                  + "H2 on purpose");
    }

    @Test
    void theEnvironmentMayNameTheDatabaseOfAFile() throws Exception {
        try (ChildHerald herald = ChildHerald.start(directory, LISTENERS, Map.of("DB_CONNECTION_URL",
                                                                                 "jdbc:h2:file:./data/named"))) {
            assertThat(herald.log(), containsString("Database: H2 at jdbc:h2:file:./data/named"));
        }
    }

    @Test
    void aMisspelledDatabaseVariableStopsTheStart() throws Exception {
        assertFailedStart(h2(), Map.of("DB_CONNECTION_UR", "jdbc:mariadb://db.internal/herald"),
                          "db.connection.ur (environment variable DB_CONNECTION_UR) is not a setting Herald knows "
                                  + "(did you mean db.connection.url?): a mistake under db could point Herald at another"
                                  + " database than meant, so it is refused");
    }

    @Test
    void aSectionGivenAsAValueIsRefusedWithItsForm() throws Exception {
        assertFailedStart(h2() + "rate-limit:\n  window:\n    seconds: 60\n", Map.of(),
                          "rate-limit.window (file " + directory.resolve("herald.yaml") + ") must be a single value, "
                                  + "not a section (rate-limit.window.seconds)");
    }

    // Helidon answered the default for a list where one value belongs: Herald listened on 8080, or kept 1,000.
    @Test
    void aListWhereOneValueBelongsIsRefusedWithItsForm() throws Exception {
        assertFailedStart(h2() + "rate-limit:\n  requests: [1, 2]\n", Map.of(),
                          "rate-limit.requests (file " + directory.resolve("herald.yaml") + ") must be a single value, "
                                  + "not a list");
        assertFailedStart(h2(), Map.of("SERVER_PORT_0", "19148"),
                          "server.port (environment variable SERVER_PORT_0) must be a single value, not a list");
    }

    // Read when the services were made: the schema was half migrated, and its lock held the next start a minute.
    @Test
    void theExportsSettingsAreCheckedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("TRACKING_EXPORT_SETTLE_DASH_WINDOW", "PT1S"),
                          "tracking.export.settle-window must be longer than tracking.batch.max-wait (PT1.5S)");
        assertFailedStart(h2(), Map.of("TRACKING_EXPORT_ANSWER_DASH_BYTES", "0"),
                          "tracking.export.answer-bytes must be at least 65536");
    }

    @Test
    void aWebhookLeaseNoLongerThanAnAttemptIsRefused() throws Exception {
        assertFailedStart(h2(), Map.of("WEBHOOKS_LEASE", "PT1S"),
                          "webhooks.lease (WEBHOOKS_LEASE) is PT1S; it must be longer than webhooks.timeout (PT15S), or"
                                  + " another instance sends a delivery still awaiting its answer a second time");
    }

    @Test
    void aMissingConfigurationFileIsNamed() throws Exception {
        assertOneLine(ChildHerald.failedStart(directory, Map.of(), "/nowhere/prod.yaml"),
                      "Configuration file not found: /nowhere/prod.yaml (the first argument)");
        assertOneLine(ChildHerald.failedStart(directory, Map.of("HERALD_CONFIG", "/nowhere/herald.yaml")),
                      "Configuration file not found: /nowhere/herald.yaml (HERALD_CONFIG)");
    }

    @Test
    void aConfigurationFileOverOneMibIsRefusedUnread() throws Exception {
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, h2() + ("# " + "x".repeat(1021) + "\n").repeat(1025),
                                                          Map.of());
        Path file = directory.resolve("herald.yaml").toAbsolutePath();
        assertOneLine(ended, "Configuration file " + file + " is " + Files.size(file) + " bytes, more than 1 MiB"
                + " (1048576), which no configuration needs (the first argument)");
    }

    /** docs/security.md: tokens are never logged, not even one pasted into a setting of another form. */
    @Test
    void aTokenInASettingOfTheWrongFormIsNotShown() throws Exception {
        String token = "b8201bfb0c6e4d2a9f1e7c3b5a7d9e1f24fe";
        assertFailedStart(h2() + "admin:\n  allow-short-tokens: \"" + token + "\"\n", Map.of(),
                          "admin.allow-short-tokens (ADMIN_ALLOW_DASH_SHORT_DASH_TOKENS) is a value of " + token.length()
                                  + " characters (not shown: it could be a token); it must be true or false");
        for (String list : List.of("rate-limit.trusted-proxies", "webhooks.allowed-addresses")) {
            ChildHerald.Ended ended = ChildHerald.failedStart(directory, h2(),
                                                              Map.of(ConfigValues.environmentName(list), token));
            assertOneLine(ended, list + " (" + ConfigValues.environmentName(list) + "): Not an IP address or CIDR range:"
                    + " a value of " + token.length() + " characters (not shown: it could be a token)");
            assertThat(ended.log(), not(containsString(token)));
        }
    }

    @Test
    void anAllowedOriginWithAPathIsRefused() throws Exception {
        assertFailedStart(h2() + "cors:\n  allowed-origins: [\"https://app.example/\"]\n", Map.of(),
                          "cors.allowed-origins (CORS_ALLOWED_DASH_ORIGINS): entry 1 of 1, \"https://app.example/\","
                                  + " is not an origin; each must be scheme://host[:port], without a path or a trailing"
                                  + " slash, e.g. https://app.example.com");
    }

    /**
     * A database that does not answer: a line when the wait begins, one every few seconds, then the reason, however
     * many threads the start had begun (the interaction writer, the change log's reader): none keeps the JVM alive.
     */
    @Test
    void anUnreachableDatabaseIsWaitedForAloudThenGivenUp() throws Exception {
        String url = "jdbc:mariadb://127.0.0.1:1/herald";
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, ChildHerald.onDatabase(url) + """
                    username: herald
                  startup-timeout: PT6S
                """, Map.of());
        assertOneLine(ended, "The database at " + url + " did not answer within db.startup-timeout (PT6S): ");
        assertThat(ended.log(), containsString("INFO dev.herald.storage.Database: Waiting for the database at " + url
                + " (up to PT6S, db.startup-timeout): "));
        assertThat(ended.log(), containsString("INFO dev.herald.storage.Database: Still waiting for the database at "
                + url + ", "));
    }

    @Test
    void aSecondArgumentOrAnUnknownOptionIsRefused() throws Exception {
        assertOneLine(ChildHerald.failedStart(directory, Map.of(), "config/dev.yaml", "config/prod.yaml"),
                      "Herald takes one argument, its configuration file, not 2: config/dev.yaml config/prod.yaml "
                              + "(--help)");
        assertOneLine(ChildHerald.failedStart(directory, Map.of(), "--port=9000"),
                      "Unknown option --port=9000; Herald takes one argument, its configuration file (--help)");
    }

    @Test
    void helpAndVersionAnswerAndEnd() throws Exception {
        ChildHerald.Ended help = ChildHerald.failedStart(directory, Map.of(), "--help");
        assertThat(help.exitCode(), is(0));
        assertThat(help.log(), containsString("Usage: herald [CONFIGURATION-FILE]\n"));
        ChildHerald.Ended version = ChildHerald.failedStart(directory, Map.of(), "--version");
        assertThat(version.exitCode(), is(0));
        // The schema versions it knows: what an operator rolling back needs to know of a binary before starting it.
        assertThat(version.log(), version.log().matches("(?s).*Herald \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? \\(schema versions 1 to "
                + Database.newestSchemaVersion() + "\\)\n"), is(true));
        assertThat("nothing started", Files.exists(directory.resolve("data")), is(false));
    }

    /**
     * {@code herald account} is a command, not a start: its refusal said "Herald did not start" in a log line (an
     * operator's trial). It is one line on standard error, exit 1, and nothing on standard output, which a script
     * reads for the new account's entry.
     */
    @Test
    void anAccountCommandThatCannotBeMadeSaysSoWithoutTalkOfAStart() throws Exception {
        for (String[] arguments : List.of(new String[] {"account", "alice", "admin"},
                                          new String[] {"account", "alice"})) {
            ChildHerald.Ended refused = ChildHerald.failedStart(directory, Map.of(), arguments);
            assertThat(refused.exitCode(), is(1));
            assertThat(refused.log(), startsWith("herald account: "));
            assertThat(refused.log(), not(containsString("did not start")));
        }
        assertThat(ChildHerald.failedStart(directory, Map.of(), "account", "alice", "admin").log(),
                   is("herald account: An account's role is owner, editor or viewer, not: admin\n"));
        assertThat("what was typed stays on one line",
                   ChildHerald.failedStart(directory, Map.of(), "account", "alice", "admin\nforged").log(),
                   is("herald account: An account's role is owner, editor or viewer, not: admin\\x0aforged\n"));
        ChildHerald.Ended made = ChildHerald.failedStart(directory, Map.of(), "account", "alice", "editor");
        assertThat(made.exitCode(), is(0));
        assertThat(made.log(), startsWith("Token of alice, shown this once"));
    }

    /** A password written into the URL is masked wherever the driver's words quote the URL. */
    @Test
    void aPasswordInTheUrlNeverReachesTheLog() throws Exception {
        assertFailedStart(h2(), Map.of("DB_CONNECTION_URL", "jdbc:mariadb:127.0.0.1/herald?password=Secret-1;x",
                                       "DB_CONNECTION_USERNAME", "herald"),
                          "db.connection.url (DB_CONNECTION_URL) or a driver option under db.connection.dataSource is "
                                  + "refused by the MariaDB driver: error parsing url: url parsing error : '//' is not "
                                  + "present in the url jdbc:mariadb:127.0.0.1/herald?password=***");
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, h2(), Map.of(
                "DB_CONNECTION_URL", "jdbc:mariadb://herald:Sec@ret-2@127.0.0.1:3306/herald",
                "DB_CONNECTION_USERNAME", "herald"));
        assertOneLine(ended, "db.connection.url (DB_CONNECTION_URL) or a driver option");
        for (String secret : List.of("Secret-1", "Sec@ret-2", "ret-2")) {
            assertThat(ended.log() + secret, ended.log().contains(secret), is(false));
        }
    }

    /** HikariCP reads its settings when the pool opens, after the migrations began: they are read before. */
    @Test
    void aPoolSettingHikariCannotTakeIsNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("DB_CONNECTION_MAXIMUMPOOLSIZE", "abc"),
                          "db.connection.maximumPoolSize (DB_CONNECTION_MAXIMUMPOOLSIZE) is \"abc\", which HikariCP "
                                  + "refuses: java.lang.NumberFormatException: For input string: \"abc\"\n");
    }

    /** The driver reads its options when it connects, which start-up would retry as a database not answering. */
    @Test
    void aDriverOptionTheDriverCannotTakeIsNamedBeforeTheDatabase() throws Exception {
        assertFailedStart(h2(), Map.of("DB_CONNECTION_URL", "jdbc:mariadb://127.0.0.1:3306/herald?sslMode=bogus",
                                       "DB_CONNECTION_USERNAME", "herald"),
                          "db.connection.url (DB_CONNECTION_URL) or a driver option under db.connection.dataSource is "
                                  + "refused by the MariaDB driver: error parsing url: Wrong argument value 'bogus' for "
                                  + "SslMode\n");
    }

    @Test
    void theTwoListenersCannotShareAPort() throws Exception {
        assertFailedStart(h2(), Map.of("SERVER_PORT", "18555", "OBSERVE_PORT", "18555"),
                          "server.port (SERVER_PORT) and observe.port (OBSERVE_PORT) are both 18555: the public API and "
                                  + "the operations listener need a port each");
    }

    @Test
    void aHostThatIsNotThisMachinesIsNamedAsTheHost() throws Exception {
        // 192.0.2.1 is reserved for documentation (RFC 5737): no machine has it.
        assertFailedStart(h2(), Map.of("SERVER_HOST", "192.0.2.1", "SERVER_PORT", "18556"),
                          "192.0.2.1 is not an address of this host (server.host, SERVER_HOST): use one of its own, or "
                                  + "0.0.0.0 for all");
        assertFailedStart(h2(), Map.of("SERVER_HOST", "nohost.invalid"),
                          "nohost.invalid is not a name or address this host can resolve (server.host, SERVER_HOST)");
    }

    /** As container platforms write secrets: Helidon cannot merge the key below the file's list. */
    @Test
    void anEnvironmentVariableBelowAListIsNamed() throws Exception {
        assertFailedStart(h2() + "admin:\n  tokens: [\"0123456789abcdef0123456789abcdef\"]\n",
                          Map.of("ADMIN_TOKENS_FILE", "/run/secrets/tokens"),
                          "The environment variable ADMIN_TOKENS_FILE sets a key below a list setting, which has none; "
                                  + "unset it (a list is one comma-separated variable: ADMIN_TOKENS=tokenA,tokenB)");
        // Without the list in the file, the line called the list a single value.
        assertFailedStart(h2(), Map.of("ADMIN_TOKENS_FILE", "/run/secrets/tokens"),
                          "admin.tokens is a list, and admin.tokens.file (environment variable ADMIN_TOKENS_FILE) is no"
                                  + " entry of it: Herald reads no _FILE variables; a list is one comma-separated"
                                  + " variable (ADMIN_TOKENS=a,b) or a YAML list in the file");
    }

    /** A server that accepts and never answers: each attempt is cut at 5 s, so the wait is reported as it goes. */
    @Test
    void aDatabaseThatAcceptsButNeverAnswersIsWaitedForAloud() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            String url = "jdbc:mariadb://127.0.0.1:" + silent.getLocalPort() + "/herald";
            ChildHerald.Ended ended = ChildHerald.failedStart(directory, ChildHerald.onDatabase(url) + """
                        username: herald
                      startup-timeout: PT8S
                    """, Map.of());
            assertOneLine(ended, "The database at " + url + " did not answer within db.startup-timeout (PT8S): ");
            assertThat(ended.log(), containsString("Waiting for the database at " + url + " (up to PT8S, "
                    + "db.startup-timeout): "));
        }
    }

    /** Embedded H2 has no server to wait for: a file it cannot create ends the start at once, in one line. */
    @Test
    void anEmbeddedDatabaseThatCannotBeCreatedEndsTheStartAtOnce() throws Exception {
        Path notADirectory = Files.writeString(directory.resolve("a-file"), "");
        String url = "jdbc:h2:file:" + notADirectory.resolve("herald");
        long started = System.nanoTime();
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, ChildHerald.onDatabase(url), Map.of());
        assertThat("not retried for db.startup-timeout (30 s)",
                   Duration.ofNanos(System.nanoTime() - started), lessThan(Duration.ofSeconds(20)));
        assertOneLine(ended, "The embedded H2 database at " + url);
        assertThat(ended.log(), containsString("; check that the directory in db.connection.url (DB_CONNECTION_URL) "
                + "exists or can be created, and that this user may write there\n"));
        assertThat("nothing of H2's own on the console", ended.log(), not(containsString("org.h2.")));
    }

    /**
     * An H2 file Herald may read but not write (an operator's trial: a file of 0444 in a directory of 0555, Herald run
     * as nobody; here H2's own read-only mode) said "Schema migration failed: The database is read only; SQL
     * statement:", its line cut at H2's next one, and nothing of what to do.
     */
    @Test
    void aReadOnlyEmbeddedDatabaseSaysWhatToDoInOneLine() throws Exception {
        String file = directory.resolve("data").resolve("herald").toString();
        try (Connection created = DriverManager.getConnection("jdbc:h2:file:" + file + ";DATABASE_TO_LOWER=TRUE",
                                                             "sa", "")) {
            created.createStatement().execute("CREATE TABLE something_else (id INT)");
        }
        String url = "jdbc:h2:file:" + file + ";ACCESS_MODE_DATA=r";
        ChildHerald.Ended ended = ChildHerald.failedStart(directory, ChildHerald.onDatabase(url), Map.of());
        assertOneLine(ended, "Schema migration failed: The database is read only; the user Herald runs as may not"
                + " write the H2 files of " + url + ";");
        assertThat(ended.log(), containsString(": give it write access to them and to their directory\n"));
        assertThat("no line of H2's statement", ended.log(), not(containsString("SQL statement")));
    }

    /** A misspelled setting outside {@code db} is a warning: Herald starts and says which key it ignored. */
    @Test
    void aMisspelledSettingIsNamedWithTheNearestOneAndHeraldStarts() throws Exception {
        try (ChildHerald herald = ChildHerald.start(directory, h2() + "limits:\n  conections: 5\n",
                                                    Map.of("TRACKING_BATCH_LINGR", "PT0.001S", "DB_PORT", "3306"))) {
            assertThat(herald.log(), containsString("WARNING dev.herald.config.HeraldConfig: limits.conections (file "
                    + directory.resolve("herald.yaml") + ") is not a setting Herald knows (did you mean "
                    + "limits.connections?); it is ignored\n"));
            assertThat(herald.log(), containsString("tracking.batch.lingr (environment variable TRACKING_BATCH_LINGR)"
                    + " is not a setting Herald knows (did you mean tracking.batch.linger?); it is ignored\n"));
            // Kubernetes sets DB_PORT for a service named db: far from any setting, it is not taken for a typo.
            assertThat(herald.log(), containsString("db.port (environment variable DB_PORT) is not a setting Herald "
                    + "knows; it is ignored\n"));
            assertThat("the JVM's code for a stop by SIGTERM", herald.stop(), is(143));
        }
    }

    /**
     * Helidon reads a variable that spells each dash of a setting as {@code _} (MicroProfile's rule) as that setting:
     * LIMITS_READ_TIMEOUT set limits.read-timeout while Herald warned that "limits.read.timeout" was ignored (an
     * operator's trial). Such a variable is a known setting; a misspelt one is still named.
     */
    @Test
    void aVariableThatSpellsEachDashAsAnUnderscoreIsTakenWithoutAFalseWarning() throws Exception {
        try (ChildHerald herald = ChildHerald.start(directory, h2(), Map.of("LIMITS_READ_TIMEOUT", "PT7S",
                "TRACKING_BATCH_MAX_WAIT", "PT2S", "ADMIN_AUTH_FAILURES_LIMIT", "20", "LIMITS_READ_TIMEOT", "PT1S"))) {
            assertThat(herald.log(), not(containsString("limits.read.timeout")));
            assertThat(herald.log(), not(containsString("tracking.batch.max.wait")));
            assertThat(herald.log(), not(containsString("admin.auth.failures.limit")));
            assertThat(herald.log(), containsString("limits.read.timeot (environment variable LIMITS_READ_TIMEOT) is not"
                    + " a setting Herald knows"));
        }
        // Both spellings of one setting: the _DASH_ one wins, and the other was ignored without a word.
        try (ChildHerald herald = ChildHerald.start(directory, h2(), Map.of("LIMITS_READ_TIMEOUT", "PT9S",
                "LIMITS_READ_DASH_TIMEOUT", "PT7S"))) {
            assertThat(herald.log(), containsString("WARNING dev.herald.config.HeraldConfig: LIMITS_READ_DASH_TIMEOUT and"
                    + " LIMITS_READ_TIMEOUT set the same setting; LIMITS_READ_DASH_TIMEOUT is used (the other is"
                    + " ignored): set one\n"));
        }
    }

    /** server: is Helidon's, but its first level is known: a typo there was ignored, and the port error blamed 8080. */
    @Test
    void aMisspelledServerSettingIsNamedWithTheNearestOne() throws Exception {
        String yaml = h2().replace("  host: 127.0.0.1\n", "  host: 127.0.0.1\n  prot: 29080\n");
        try (ChildHerald herald = ChildHerald.start(directory, yaml, Map.of())) {
            assertThat(herald.log(), containsString("WARNING dev.herald.config.HeraldConfig: server.prot (file "
                    + directory.resolve("herald.yaml") + ") is not a setting Herald knows (did you mean "
                    + "server.port?); it is ignored\n"));
        }
    }

    /**
     * The log's first lines say what runs, from which settings, on which database and where. The configuration is
     * read on a thread of its own while logging is set up: its lines still come after the start's, in Herald's
     * format, and its warnings before the database's line.
     */
    @Test
    void theFirstLinesSayVersionSourcesDatabaseAndAddress() throws Exception {
        String yaml = h2().replace("  host: 127.0.0.1\n", "  host: 127.0.0.1\n  prot: 29080\n");
        try (ChildHerald herald = ChildHerald.start(directory, yaml, Map.of())) {
            String log = herald.log();
            List<Pattern> inOrder = List.of(
                    Pattern.compile("INFO dev.herald.Main: Herald \\d+\\.\\d+\\.\\d+(-SNAPSHOT)? starting on Java \\d+"),
                    Pattern.compile(Pattern.quote("INFO dev.herald.config.HeraldConfig: Configuration, highest priority "
                            + "first: system properties, environment variables, file " + directory.resolve("herald.yaml")
                            + ", bundled defaults\n")),
                    Pattern.compile(Pattern.quote("WARNING dev.herald.config.HeraldConfig: server.prot (file ")),
                    Pattern.compile(Pattern.quote("Database: H2 at jdbc:h2:file:./data/herald, user sa\n")),
                    Pattern.compile(Pattern.quote("Herald listening on http://127.0.0.1:" + herald.port() + ";")));
            int from = 0;
            for (Pattern line : inOrder) {
                Matcher found = line.matcher(log);
                assertThat(line + " after the line before it in\n" + log, found.find(from), is(true));
                from = found.end();
            }
            Pattern heraldsFormat = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z (INFO|WARNING) \\S+: .*");
            log.lines().takeWhile(line -> !line.contains("Herald listening")).forEach(line -> assertThat(
                    "in Herald's format: " + line, heraldsFormat.matcher(line).matches(), is(true)));
        }
    }

    private String h2() {
        return ChildHerald.onDatabase("jdbc:h2:file:./data/herald");
    }

    private void assertFailedStart(String yaml, Map<String, String> environment, String line) throws Exception {
        assertOneLine(ChildHerald.failedStart(directory, yaml, environment), line);
        assertThat("no database was created", Files.exists(directory.resolve("data")), is(false));
    }

    /** Exit code 1, the line, and nothing of a stack trace or a migration. */
    static void assertOneLine(ChildHerald.Ended ended, String line) {
        assertThat(ended.log(), ended.exitCode(), is(1));
        assertThat(ended.log(), containsString("SEVERE dev.herald.Main: Herald did not start: " + line));
        assertThat("no stack trace", ended.log(), not(containsString("\tat ")));
        assertThat(ended.log(), not(containsString("Exception in thread")));
        assertThat(ended.log(), not(containsString("Applied schema migration")));
    }
}
