package dev.herald.support;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server written in another language (a documented webhook receiver, say), run as its own process on loopback for
 * a test: started with its environment, its port read from the line {@code listening on PORT} it prints first, its
 * output kept in files (a full pipe never blocks it), ended when the test closes it.
 */
public final class ServerProcess implements AutoCloseable {

    private static final Pattern LISTENING = Pattern.compile("listening on (\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path out;
    private final Path err;
    private final int port;

    private ServerProcess(Process process, Path out, Path err, int port) {
        this.process = process;
        this.out = out;
        this.err = err;
        this.port = port;
    }

    /** Started with {@code HOST=127.0.0.1}, {@code PORT=0} (a port of its own) and {@code environment}. */
    public static ServerProcess start(List<String> command, Map<String, String> environment) {
        try {
            Path directory = Files.createDirectories(Path.of("target/interop-tmp"));
            Path out = Files.createTempFile(directory, "server-out", ".txt");
            Path err = Files.createTempFile(directory, "server-err", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            builder.environment().put("HOST", "127.0.0.1");
            builder.environment().put("PORT", "0");
            builder.environment().putAll(environment);
            Process process = builder.start();
            long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
            while (System.nanoTime() < deadline) {
                Matcher listening = LISTENING.matcher(Files.readString(out, StandardCharsets.UTF_8));
                if (listening.find()) {
                    return new ServerProcess(process, out, err, Integer.parseInt(listening.group(1)));
                }
                if (!process.isAlive()) {
                    throw new AssertionError(command + " ended (exit " + process.exitValue() + ") before listening: "
                                             + Files.readString(err, StandardCharsets.UTF_8).strip());
                }
                Thread.sleep(20);
            }
            process.destroyForcibly();
            throw new AssertionError(command + " did not say it was listening within " + START_TIMEOUT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /**
     * A Python script of the standard library alone, on the machine's python3 (3.9 or later). Skips the calling test
     * (or fails it under {@code CI=true}) when there is none, saying {@code purpose}.
     */
    public static ServerProcess python(Path script, Map<String, String> environment, String purpose) {
        try {
            ExternalTools.probe(List.of("python3", "-c", "import sys; assert sys.version_info >= (3, 9)"),
                                "python3 (3.9 or later) is not installed: apt-get install python3");
        } catch (ExternalTools.Missing missing) {
            ExternalTools.unavailable(missing.getMessage() + ". " + purpose);
        }
        return start(List.of("python3", script.toString()), environment);
    }

    public int port() {
        return port;
    }

    /** What it printed so far. */
    public String output() {
        try {
            return Files.readString(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // a temporary file left in target
        }
    }
}
