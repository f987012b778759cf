package dev.herald.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The watcher of the configuration file asks for a reload when the content changes, however the change is made: a
 * write in place, an editor's new file renamed over the old, a Kubernetes ConfigMap's symbolic link swapped.
 */
class ConfigWatcherTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private static final String GOOD = """
            db: {connection: {url: "jdbc:h2:mem:watcher"}}
            cors: {allowed-origins: ["https://a.example"]}
            """;

    @TempDir
    Path directory;

    @Test
    void aChangeOfContentIsSeenHoweverTheFileIsReplaced() throws IOException, InterruptedException {
        // As Kubernetes mounts a ConfigMap: the file is a link into a directory that a second link points to.
        Path first = Files.createDirectory(directory.resolve("..2026_11_28_first"));
        Files.writeString(first.resolve("herald.yaml"), "cors: {allowed-origins: [\"https://a.example\"]}\n");
        Path data = Files.createSymbolicLink(directory.resolve("..data"), first.getFileName());
        Path file = Files.createSymbolicLink(directory.resolve("herald.yaml"), Path.of("..data", "herald.yaml"));
        AtomicInteger reloads = new AtomicInteger();
        ConfigWatcher watcher = ConfigWatcher.watch(Optional.of(file), Duration.ofMillis(100),
                                                    reloads::incrementAndGet);
        try {
            Path target = data.resolveSibling(Files.readSymbolicLink(data)).resolve("herald.yaml");
            Files.writeString(target, "cors: {allowed-origins: [\"https://b.example\"]}\n");
            awaitReloads(reloads, 1);

            Path written = Files.writeString(first.resolve("herald.yaml.swp"),
                                             "cors: {allowed-origins: [\"https://c.example\"]}\n");
            Files.move(written, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            awaitReloads(reloads, 2);

            Path second = Files.createDirectory(directory.resolve("..2026_11_28_second"));
            Files.writeString(second.resolve("herald.yaml"), "cors: {allowed-origins: [\"https://d.example\"]}\n");
            Path link = Files.createSymbolicLink(directory.resolve("..data_tmp"), second.getFileName());
            Files.move(link, data, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            awaitReloads(reloads, 3);
        } finally {
            watcher.close();
        }
    }

    /** A FIFO put in the file's place used to block the watcher in its read for good, SIGHUP's reloads with it. */
    @Test
    @Timeout(60)
    void aNamedPipeInPlaceOfTheFileIsRefusedOnceAndTheFileThatReplacesItApplied() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.yaml"), GOOD);
        Reloads reloads = new Reloads(file);
        ConfigWatcher watcher = ConfigWatcher.watch(Optional.of(file), Duration.ofMillis(100), reloads::reload);
        try {
            Files.delete(file);
            Process mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
            assertThat(mkfifo.waitFor(), is(0));
            reloads.await(1);
            assertThat(reloads.failures, contains("Configuration file " + file.toAbsolutePath()
                    + " is a named pipe (FIFO), not a regular file"));

            Files.delete(file);
            Files.writeString(file, GOOD.replace("a.example", "b.example"));
            reloads.await(2);
            assertThat("one line for the pipe, however many rounds saw it", reloads.failures, hasSize(1));
        } finally {
            watcher.close();
        }
    }

    /** A file read whole could take the heap (150 MB: OutOfMemoryError, the watcher's thread gone). */
    @Test
    void aFileOverOneMibIsRefusedOnceAndTheNextGoodEditApplied() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.yaml"), GOOD);
        Reloads reloads = new Reloads(file);
        ConfigWatcher watcher = ConfigWatcher.watch(Optional.of(file), Duration.ofMillis(100), reloads::reload);
        try {
            String large = GOOD + ("# " + "x".repeat(1021) + "\n").repeat(1025);
            Files.writeString(file, large);
            reloads.await(1);
            assertThat(reloads.failures, contains("Configuration file " + file.toAbsolutePath() + " is "
                    + large.length() + " bytes, more than 1 MiB (1048576), which no configuration needs"));

            Files.writeString(file, GOOD.replace("a.example", "b.example"));
            reloads.await(2);
            assertThat(reloads.failures, hasSize(1));
        } finally {
            watcher.close();
        }
    }

    @Test
    void aRoundThatThrowsEvenAnErrorDoesNotStopLaterReloads() throws Exception {
        Path file = Files.writeString(directory.resolve("herald.yaml"), GOOD);
        AtomicInteger reloads = new AtomicInteger();
        ConfigWatcher watcher = ConfigWatcher.watch(Optional.of(file), Duration.ofMillis(100), () -> {
            if (reloads.incrementAndGet() == 1) {
                throw new OutOfMemoryError("Java heap space (thrown by the test)");
            }
        });
        try {
            Files.writeString(file, GOOD.replace("a.example", "b.example"));
            awaitReloads(reloads, 1);
            Files.writeString(file, GOOD.replace("a.example", "c.example"));
            awaitReloads(reloads, 2);
        } finally {
            watcher.close();
        }
    }

    @Test
    void aReloadIntervalUnder100MillisecondsOrNegativeIsRefusedNamingTheSetting() {
        for (String interval : new String[] {"PT0.01S", "-PT1S"}) {
            BadSetting refused = assertThrows(BadSetting.class, () -> ConfigWatcher.interval(
                    HeraldConfig.withDefaults(List.of(ConfigSources.create(
                            Map.of("config.reload-interval", interval))))));
            assertThat(refused.getMessage(), startsWith("config.reload-interval (CONFIG_RELOAD_DASH_INTERVAL) is"));
        }
        assertThat(ConfigWatcher.interval(HeraldConfig.withDefaults(List.of())), is(Duration.ofSeconds(2)));
    }

    /** What the watcher's reloads read, as Reconfiguration reads it: each refusal's message kept. */
    private static final class Reloads {

        private final Path file;
        private final AtomicInteger count = new AtomicInteger();
        private final List<String> failures = new CopyOnWriteArrayList<>();

        Reloads(Path file) {
            this.file = file;
        }

        void reload() {
            try {
                HeraldConfig.load(Optional.of(file), List.of());
            } catch (BadSetting e) {
                failures.add(e.getMessage());
            } finally {
                count.incrementAndGet();
            }
        }

        void await(int expected) throws InterruptedException {
            awaitReloads(count, expected);
        }
    }

    /** Polls until the watcher has asked this many reloads: the watcher's pace is not what is tested. */
    private static void awaitReloads(AtomicInteger reloads, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (reloads.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(reloads.get(), is(expected));
    }
}
