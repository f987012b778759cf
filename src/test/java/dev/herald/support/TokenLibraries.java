package dev.herald.support;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs the minting scripts of src/test/interop (docs/identity.md#interoperability): a batch of JSON specs in, one
 * answer per spec out, {@code {"token":…}} or {@code {"refused":…}} when the library will not make that token.
 *
 * <p>The npm packages are installed on first use into target/interop-node with {@code npm ci} and the committed lock
 * (npm's cache makes later runs work offline); they are never part of Herald's build. PyJWT is Debian's, run by
 * /usr/bin/python3 (the machine's default python3 may be another one without it). Where node, npm or PyJWT is
 * missing, the library's tests are skipped with how to run them, except under {@code CI=true}, where they fail.
 */
public final class TokenLibraries {

    private static final Path SOURCES = Path.of("src/test/interop");
    private static final Path NODE_HOME = Path.of("target/interop-node");
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(5);
    private static final Duration MINT_TIMEOUT = Duration.ofSeconds(60);
    private static final int MIN_NODE = 20;
    private static final Map<Runtime, Readiness> READY = new EnumMap<>(Runtime.class);

    private TokenLibraries() {
    }

    /** What runs a library's script. */
    enum Runtime {
        NODE, PYTHON
    }

    /**
     * One answer per spec, in order. Skips the calling test (or fails it under {@code CI=true}) when the library's
     * runtime is missing.
     */
    public static List<JsonObject> mint(TokenLibrary library, List<JsonObject> specs) {
        String missing = ready(library.runtime()).missing();
        if (missing != null) {
            unavailable(library + ": " + missing);
        }
        JsonArray input = Json.createArrayBuilder(specs).build();
        List<String> command = library.runtime() == Runtime.NODE
                ? List.of("node", NODE_HOME.resolve("mint.mjs").toString())
                : List.of(PYTHON.toString(), SOURCES.resolve("mint.py").toString());
        String output = run(command, input.toString(), MINT_TIMEOUT);
        List<JsonObject> answers = new ArrayList<>();
        try (var reader = Json.createReader(new StringReader(output))) {
            for (JsonValue answer : reader.readArray()) {
                answers.add(answer.asJsonObject());
            }
        }
        if (answers.size() != specs.size()) {
            throw new AssertionError(library + " answered " + answers.size() + " tokens for " + specs.size() + " specs");
        }
        return answers;
    }

    /** The version PyJWT reports, or null when it cannot be run. */
    public static String pyjwtVersion() {
        Readiness python = ready(Runtime.PYTHON);
        return python.missing() == null ? python.detail() : null;
    }

    /** Checked (and npm ci run) once per JVM. */
    private static synchronized Readiness ready(Runtime runtime) {
        return READY.computeIfAbsent(runtime, unchecked -> {
            try {
                return new Readiness(runtime == Runtime.NODE ? installNodePackages() : checkPython(), null);
            } catch (ToolMissing missing) {
                return new Readiness(null, missing.getMessage());
            }
        });
    }

    /** @param detail what is there (PyJWT's version); @param missing null when ready, else what is missing */
    private record Readiness(String detail, String missing) {
    }

    private static String installNodePackages() throws ToolMissing {
        String version = probe(List.of("node", "--version"), "node is not installed: apt-get install nodejs npm").strip();
        if (nodeMajor(version) < MIN_NODE) {
            // jose 6 dropped Node 18 (Debian 12's nodejs): its WebCrypto Ed25519 and global crypto need Node 20.
            throw new ToolMissing("node " + version + " is older than jose 6 supports: Node " + MIN_NODE
                                  + " or later (Debian 13's nodejs, or NodeSource's on Debian 12)");
        }
        probe(List.of("npm", "--version"), "npm is not installed: apt-get install npm");
        try {
            Files.createDirectories(NODE_HOME);
            // Surefire forks or two builds at once must not run npm ci into the same directory together.
            try (FileChannel channel = FileChannel.open(NODE_HOME.resolve(".lock"), StandardOpenOption.CREATE,
                                                        StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                Path lock = SOURCES.resolve("package-lock.json");
                // A copy of the lock npm ci last succeeded with: an interrupted install is run again.
                Path installed = NODE_HOME.resolve("installed-package-lock.json");
                boolean current = Files.exists(installed) && Files.mismatch(lock, installed) == -1;
                for (String file : List.of("package.json", "package-lock.json", "mint.mjs")) {
                    Files.copy(SOURCES.resolve(file), NODE_HOME.resolve(file), StandardCopyOption.REPLACE_EXISTING);
                }
                if (!current) {
                    // --ignore-scripts: nothing of a package runs at install time; --prefer-offline: npm's cache first.
                    try {
                        runIn(NODE_HOME, List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                                                 "--prefer-offline", "--loglevel=error"), INSTALL_TIMEOUT,
                              "npm ci in " + NODE_HOME + " failed (registry unreachable and npm's cache empty?)");
                    } catch (AssertionError failed) {
                        throw new ToolMissing(failed.getMessage());
                    }
                    Files.copy(lock, installed, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return "installed";
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

    private static String checkPython() throws ToolMissing {
        if (!Files.isExecutable(PYTHON)) {
            throw new ToolMissing(PYTHON + " is missing: apt-get install python3 python3-jwt python3-cryptography");
        }
        String version = probe(List.of(PYTHON.toString(), "-c",
                                       "import jwt, cryptography; print(jwt.__version__)"),
                               "PyJWT is not installed for " + PYTHON
                                       + ": apt-get install python3-jwt python3-cryptography");
        return version.strip();
    }

    private static String probe(List<String> command, String missing) throws ToolMissing {
        try {
            return runIn(Path.of("."), command, Duration.ofSeconds(30), missing);
        } catch (AssertionError | UncheckedIOException failed) {
            throw new ToolMissing(missing);
        }
    }

    private static String run(List<String> command, String input, Duration timeout) {
        try {
            Path in = Files.createTempFile(tempDirectory(), "specs", ".json");
            Files.writeString(in, input);
            try {
                return runIn(Path.of("."), command, in, timeout, String.join(" ", command) + " failed");
            } finally {
                Files.deleteIfExists(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String runIn(Path directory, List<String> command, Duration timeout, String failure) {
        return runIn(directory, command, null, timeout, failure);
    }

    /** Stdout of the command; its output goes through files, so a full pipe never blocks it. */
    private static String runIn(Path directory, List<String> command, Path input, Duration timeout, String failure) {
        try {
            Path out = Files.createTempFile(tempDirectory(), "out", ".txt");
            Path err = Files.createTempFile(tempDirectory(), "err", ".txt");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile());
                if (input != null) {
                    builder.redirectInput(input.toFile());
                }
                Process process = builder.start();
                if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    throw new AssertionError(failure + ": no answer within " + timeout + " (" + command + ")");
                }
                if (process.exitValue() != 0) {
                    throw new AssertionError(failure + ": exit " + process.exitValue() + ": "
                                             + Files.readString(err, StandardCharsets.UTF_8).strip());
                }
                return Files.readString(out, StandardCharsets.UTF_8);
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(failure + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(failure + ": interrupted", e);
        }
    }

    private static Path tempDirectory() throws IOException {
        return Files.createDirectories(Path.of("target/interop-tmp"));
    }

    private static void unavailable(String why) {
        String message = why + ". The interoperability tests mint tokens with it (src/test/interop, "
                + "docs/identity.md#interoperability); .ci/run installs what they need.";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true requires it: " + message);
        }
        Assumptions.abort("Skipping: " + message);
    }

    /** A tool a library's script needs is absent. */
    private static final class ToolMissing extends Exception {
        ToolMissing(String message) {
            super(message);
        }
    }
}
