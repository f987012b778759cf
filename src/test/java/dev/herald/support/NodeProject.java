package dev.herald.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A test-only node project of src/test whose scripts run npm packages Herald did not write, pinned by its committed
 * lock. Installed on first use into target with {@code npm ci} (npm's cache makes later runs work offline); never
 * part of Herald's build.
 */
public final class NodeProject {

    /** jose and jsonwebtoken, for the user-token interoperability tests ({@link TokenLibraries}). */
    static final NodeProject TOKENS = new NodeProject("src/test/interop", "target/interop-node", "mint.mjs");
    /**
     * {@code @formatjs/intl-localematcher} and {@code negotiator}, and node's own {@code Intl}, for
     * dev.herald.locale.LanguageInteropTest (docs/languages.md#tested-against).
     */
    public static final NodeProject LANGUAGES = new NodeProject("src/test/interop-languages",
                                                                "target/interop-languages-node", "languages.mjs");
    /**
     * {@code standardwebhooks}, the Standard Webhooks reference library, under the Node receiver of docs/webhooks.md
     * ({@code docs/examples/webhook-receiver.mjs}, run as it is published there), for
     * dev.herald.webhook.StandardWebhooksInteropTest.
     */
    public static final NodeProject WEBHOOKS = new NodeProject("src/test/interop-webhooks",
                                                               "target/interop-webhooks-node",
                                                               Path.of("docs/examples/webhook-receiver.mjs"));

    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);
    /** jose 6 dropped Node 18 (Debian 12's nodejs): its WebCrypto Ed25519 and global crypto need Node 20. */
    private static final int MIN_NODE = 20;

    private final Path sources;
    private final Path home;
    private final String script;
    private final Path scriptSource;
    /** Null until checked; then "" when installed, else what is missing. */
    private String missing;

    private NodeProject(String sources, String home, String script) {
        this.sources = Path.of(sources);
        this.home = Path.of(home);
        this.script = script;
        this.scriptSource = this.sources.resolve(script);
    }

    /** A project whose script lives elsewhere (a documented example), copied beside the packages it imports. */
    private NodeProject(String sources, String home, Path scriptSource) {
        this.sources = Path.of(sources);
        this.home = Path.of(home);
        this.script = scriptSource.getFileName().toString();
        this.scriptSource = scriptSource;
    }

    /**
     * Stdout of the project's script given {@code input} on stdin. Skips the calling test (or fails it under
     * {@code CI=true}) when node or npm is missing, with {@code purpose} (what the tests do with the packages, and
     * where they are documented) in the message.
     */
    public String run(String input, Duration timeout, String purpose) {
        String why = missing();
        if (why != null) {
            ExternalTools.unavailable(why + ". " + purpose + "; .ci/run installs what they need.");
        }
        return ExternalTools.run(List.of("node", home.resolve(script).toString()), input, timeout);
    }

    /**
     * The project's script started as a server with {@code environment}, its port read from its first line
     * ({@code listening on PORT}). Skips or fails the calling test as {@link #run} does when node or npm is missing.
     */
    public ServerProcess startServer(Map<String, String> environment, String purpose) {
        String why = missing();
        if (why != null) {
            ExternalTools.unavailable(why + ". " + purpose + "; .ci/run installs what they need.");
        }
        return ServerProcess.start(List.of("node", home.resolve(script).toString()), environment);
    }

    /** Null when node and the packages are there; else what is missing. Checked (and npm ci run) once per JVM. */
    synchronized String missing() {
        if (missing == null) {
            try {
                install();
                missing = "";
            } catch (ExternalTools.Missing absent) {
                missing = absent.getMessage();
            }
        }
        return missing.isEmpty() ? null : missing;
    }

    @Override
    public String toString() {
        return sources.toString();
    }

    private void install() throws ExternalTools.Missing {
        String version = ExternalTools.probe(List.of("node", "--version"),
                                             "node is not installed: apt-get install nodejs npm").strip();
        if (nodeMajor(version) < MIN_NODE) {
            throw new ExternalTools.Missing("node " + version + " is older than the packages of " + sources
                                            + " support: Node " + MIN_NODE
                                            + " or later (Debian 13's nodejs, or NodeSource's on Debian 12)");
        }
        ExternalTools.probe(List.of("npm", "--version"), "npm is not installed: apt-get install npm");
        try {
            Files.createDirectories(home);
            // Surefire forks or two builds at once must not run npm ci into the same directory together.
            try (FileChannel channel = FileChannel.open(home.resolve(".lock"), StandardOpenOption.CREATE,
                                                        StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                Path lock = sources.resolve("package-lock.json");
                // A copy of the lock npm ci last succeeded with: an interrupted install is run again.
                Path installed = home.resolve("installed-package-lock.json");
                boolean current = Files.exists(installed) && Files.mismatch(lock, installed) == -1;
                for (String file : List.of("package.json", "package-lock.json")) {
                    Files.copy(sources.resolve(file), home.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                }
                Files.copy(scriptSource, home.resolve(script), StandardCopyOption.REPLACE_EXISTING);
                if (!current) {
                    // --ignore-scripts: nothing of a package runs at install time; --prefer-offline: npm's cache first.
                    try {
                        ExternalTools.run(home, List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                                                        "--prefer-offline", "--loglevel=error"), null, INSTALL_TIMEOUT,
                                          "npm ci in " + home + " failed (registry unreachable and npm's cache empty?)");
                    } catch (AssertionError failed) {
                        throw new ExternalTools.Missing(failed.getMessage());
                    }
                    Files.copy(lock, installed, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** "v20.20.2" to 20; 0 when unreadable. */
    private static int nodeMajor(String version) {
        String digits = version.startsWith("v") ? version.substring(1) : version;
        int dot = digits.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? digits : digits.substring(0, dot));
        } catch (NumberFormatException unreadable) {
            return 0;
        }
    }
}
