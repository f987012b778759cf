package dev.herald.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.Main;

/**
 * Herald in a JVM of its own, as an operator runs it: started with a configuration file, stopped with SIGTERM.
 */
public final class ChildHerald implements AutoCloseable {

    private static final String LOG = "herald.log";
    private static final Pattern LISTENING =
            Pattern.compile("Herald listening on http://[^:]+:(\\d+); health, metrics and OpenAPI on http://[^:]+:(\\d+)");

    private final Process process;
    private final Path log;
    private final int port;
    private final int observePort;

    private ChildHerald(Process process, Path log) throws IOException, InterruptedException {
        this.process = process;
        this.log = log;
        Matcher listening = awaitListening();
        this.port = Integer.parseInt(listening.group(1));
        this.observePort = Integer.parseInt(listening.group(2));
    }

    /**
     * A configuration on this database, listening on loopback on a free port. Settings of {@code db.connection}
     * (username, password) may follow it directly, other sections after them.
     */
    public static String onDatabase(String url) {
        return """
                server:
                  port: 0
                  host: 127.0.0.1
                db:
                  connection:
                    url: "%s"
                """.formatted(url);
    }

    /** The same on a test database, with its user and password. */
    public static String onDatabase(TestDatabase database) {
        return onDatabase(database.url()) + """
                    username: "%s"
                    password: "%s"
                """.formatted(database.username(), database.password());
    }

    /**
     * Starts Herald in {@code directory} with this configuration (YAML) and waits until it listens. Unless the
     * configuration says otherwise, the operations listener takes any free port.
     */
    public static ChildHerald start(Path directory, String yaml) throws IOException, InterruptedException {
        return start(directory, yaml, List.of());
    }

    /** The same, with these JVM options (a heap as small as the launcher's, say). */
    public static ChildHerald start(Path directory, String yaml, List<String> jvmOptions)
            throws IOException, InterruptedException {
        return new ChildHerald(launch(directory, yaml, jvmOptions, Map.of()), directory.resolve(LOG));
    }

    /** The same, with these environment variables over the file. */
    public static ChildHerald start(Path directory, String yaml, Map<String, String> environment)
            throws IOException, InterruptedException {
        return new ChildHerald(launch(directory, yaml, List.of(), environment), directory.resolve(LOG));
    }

    /** The same, launched by {@code launcher} (its command line before java's: {@code nohup}, say). */
    public static ChildHerald startUnder(List<String> launcher, Path directory, String yaml)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        String withObserve = yaml.contains("observe:") ? yaml : yaml + "\nobserve:\n  port: 0\n";
        Path config = Files.writeString(directory.resolve("herald.yaml"), withObserve);
        return new ChildHerald(launch(launcher, directory, List.of(), Map.of(), List.of(config.toString())),
                               directory.resolve(LOG));
    }

    /** A start not waited for: the process, whose output goes to {@code directory}'s log (see {@link #logOf}). */
    public static Process launched(Path directory, String yaml) throws IOException {
        return launch(directory, yaml, List.of(), Map.of());
    }

    /** What a process {@link #launched} in {@code directory} has printed so far. */
    public static String logOf(Path directory) throws IOException {
        Path log = directory.resolve(LOG);
        return Files.exists(log) ? Files.readString(log) : "";
    }

    /** A start that is to fail: waits up to 30 s for the exit. */
    public static Ended failedStart(Path directory, String yaml, Map<String, String> environment)
            throws IOException, InterruptedException {
        return ended(launch(directory, yaml, List.of(), environment), directory);
    }

    /** A run without a file of its own, with these program arguments, that is to end by itself (a failed start). */
    public static Ended failedStart(Path directory, Map<String, String> environment, String... arguments)
            throws IOException, InterruptedException {
        Files.createDirectories(directory);
        return ended(launch(directory, List.of(), environment, List.of(arguments)), directory);
    }

    private static Ended ended(Process process, Path directory) throws IOException, InterruptedException {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("Herald did not end within 30 s:\n" + Files.readString(directory.resolve(LOG)));
        }
        return new Ended(process.exitValue(), Files.readString(directory.resolve(LOG)));
    }

    /** How a process ended: its exit code and everything it printed. */
    public record Ended(int exitCode, String log) {
    }

    private static Process launch(Path directory, String yaml, List<String> jvmOptions, Map<String, String> environment)
            throws IOException {
        Files.createDirectories(directory);
        String withObserve = yaml.contains("observe:") ? yaml : yaml + "\nobserve:\n  port: 0\n";
        Path config = Files.writeString(directory.resolve("herald.yaml"), withObserve);
        return launch(directory, jvmOptions, environment, List.of(config.toString()));
    }

    private static Process launch(Path directory, List<String> jvmOptions, Map<String, String> environment,
                                  List<String> arguments) throws IOException {
        return launch(List.of(), directory, jvmOptions, environment, arguments);
    }

    private static Process launch(List<String> launcher, Path directory, List<String> jvmOptions,
                                  Map<String, String> environment, List<String> arguments) throws IOException {
        List<String> command = new ArrayList<>(launcher);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(arguments);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(directory.resolve(LOG).toFile());
        builder.environment().putAll(environment);
        return builder.start();
    }

    /** The process, to signal it ({@code kill -HUP}). */
    public long pid() {
        return process.pid();
    }

    /** The configuration file it was started with, to change it while it runs. */
    public Path configFile() {
        return log.resolveSibling("herald.yaml");
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public int port() {
        return port;
    }

    /** The operations listener's port: health, metrics, OpenAPI. */
    public int observePort() {
        return observePort;
    }

    /** SIGTERM, then waits for the exit; the exit code. */
    public int stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("Herald did not stop within 30 s of SIGTERM");
        }
        return process.exitValue();
    }

    /** SIGKILL: no shutdown hook runs. The exit code. */
    public int kill() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("Herald did not end within 30 s of SIGKILL");
        }
        return process.exitValue();
    }

    public String log() throws IOException {
        return Files.exists(log) ? Files.readString(log) : "";
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Matcher awaitListening() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Matcher listening = LISTENING.matcher(log());
            if (listening.find()) {
                return listening;
            }
            if (!process.isAlive()) {
                throw new AssertionError("Herald ended without listening:\n" + log());
            }
            Thread.sleep(50);
        }
        throw new AssertionError("Herald did not start within 60 s:\n" + log());
    }
}
