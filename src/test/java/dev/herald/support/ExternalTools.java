package dev.herald.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Programs Herald did not write that the interoperability tests run (node, npm, python3): run with their output
 * through files, and what a test does when one is missing: skipped with how to run it on a laptop, failed under
 * {@code CI=true}, where .ci/run has installed them.
 */
final class ExternalTools {

    private ExternalTools() {
    }

    /** A program a test needs is absent, or cannot be installed; the message says what to do. */
    static final class Missing extends Exception {
        Missing(String message) {
            super(message);
        }
    }

    /** Skips the calling test with {@code message}, or fails it under {@code CI=true}. */
    static void unavailable(String message) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError("CI=true requires it: " + message);
        }
        Assumptions.abort("Skipping: " + message);
    }

    /** Stdout of a command that must be there; {@link Missing} with {@code missing} when it cannot run. */
    static String probe(List<String> command, String missing) throws Missing {
        try {
            return run(Path.of("."), command, null, Duration.ofSeconds(30), missing);
        } catch (AssertionError | UncheckedIOException failed) {
            throw new Missing(missing);
        }
    }

    /** Stdout of the command run with {@code input} (a JSON document, say) on its stdin. */
    static String run(List<String> command, String input, Duration timeout) {
        try {
            Path in = Files.createTempFile(tempDirectory(), "input", ".json");
            Files.writeString(in, input);
            try {
                return run(Path.of("."), command, in, timeout, String.join(" ", command) + " failed");
            } finally {
                Files.deleteIfExists(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Stdout of the command; its output goes through files, so a full pipe never blocks it. An exit other than 0 or
     * no answer within {@code timeout} is an AssertionError starting with {@code failure}.
     */
    static String run(Path directory, List<String> command, Path input, Duration timeout, String failure) {
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
}
