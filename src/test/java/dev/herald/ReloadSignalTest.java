package dev.herald;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.herald.support.ChildHerald;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;
import dev.herald.support.Tokens;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * SIGHUP reads the configuration file again (docs/operations.md#changing-the-configuration-without-a-restart), in a
 * Herald of its own as an operator runs it: it used to end the JVM. Its file is not watched here
 * ({@code config.reload-interval: PT0S}), so the signal alone applies the change.
 */
class ReloadSignalTest {

    private static final String TOKEN = "reload-signal-admin-token-0123456789abcdef";
    private static final String ALICE_TOKEN = "reload-signal-alice-token-0123456789abcdef";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path directory;

    @Test
    void anAccountAddedToTheFileSignsInAfterSighupAndHeraldRunsOn() throws IOException, InterruptedException {
        TestDatabase database = TestDatabase.h2File(directory.resolve("data"));
        try (ChildHerald herald = ChildHerald.start(directory.resolve("run"), ChildHerald.onDatabase(database.url()) + """
                config:
                  reload-interval: PT0S
                admin:
                  tokens: ["%s"]
                """.formatted(TOKEN))) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            assertThat(signIn(api), is(401));

            addAlice(herald);
            assertThat(new ProcessBuilder("kill", "-HUP", String.valueOf(herald.pid())).inheritIO().start()
                               .waitFor(10, TimeUnit.SECONDS), is(true));
            awaitLine(herald, "Configuration reloaded: admin.accounts: added alice (editor)");

            assertThat(herald.log(), signIn(api), is(201));
            assertThat(herald.isAlive(), is(true));
        }
    }

    /**
     * Under nohup SIGHUP stays ignored (the JVM keeps what it found at start): the start said "and at SIGHUP" and a
     * signal did nothing, without a word (an operator's trial). Now the start says so; the file's changes still apply.
     */
    @Test
    void underNohupTheStartSaysSighupIsIgnoredAndAChangeOfTheFileStillApplies() throws Exception {
        TestDatabase database = TestDatabase.h2File(directory.resolve("data"));
        try (ChildHerald herald = ChildHerald.startUnder(List.of("nohup"), directory.resolve("run"),
                ChildHerald.onDatabase(database.url()) + """
                config:
                  reload-interval: PT0.2S
                admin:
                  tokens: ["%s"]
                """.formatted(TOKEN))) {
            awaitLine(herald, "SIGHUP is ignored by this process (started under nohup, or by a parent that ignores it),"
                    + " so it does not reload the configuration");
            assertThat(herald.log(), herald.log().contains("(checked every PT0.2S, config.reload-interval)\n"),
                       is(true));
            addAlice(herald);
            awaitLine(herald, "Configuration reloaded: admin.accounts: added alice (editor)");
            assertThat(herald.isAlive(), is(true));
        }
    }

    /** Alice, an editor, added to the file's accounts. */
    private static void addAlice(ChildHerald herald) throws IOException {
        Files.writeString(herald.configFile(), Files.readString(herald.configFile()).replace("""
                admin:
                """, """
                admin:
                  accounts:
                    - name: alice
                      role: editor
                      token-sha256: "%s"
                """.formatted(Tokens.sha256(ALICE_TOKEN))));
    }

    private static int signIn(URI api) throws IOException {
        byte[] body = ("{\"name\":\"alice\",\"token\":\"" + ALICE_TOKEN + "\"}").getBytes(StandardCharsets.UTF_8);
        return RawHttp.exchange(api, "POST /api/v1/admin/session HTTP/1.1\r\nHost: x\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + body.length, body).status();
    }

    /** Polls the log until the line is there: how soon is not what is tested. */
    private static void awaitLine(ChildHerald herald, String line) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!herald.log().contains(line) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(herald.log(), herald.log().contains(line), is(true));
    }
}
