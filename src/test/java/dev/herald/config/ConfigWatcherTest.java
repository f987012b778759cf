package dev.herald.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import io.helidon.config.ConfigSources;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The watcher of the configuration file asks for a reload when the content changes, however the change is made: a
 * write in place, an editor's new file renamed over the old, a Kubernetes ConfigMap's symbolic link swapped.
 */
class ConfigWatcherTest {

    private static final Duration DEADLINE = Duration.ofSeconds(20);

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

    /** Polls until the watcher has asked this many reloads: the watcher's pace is not what is tested. */
    private static void awaitReloads(AtomicInteger reloads, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (reloads.get() < expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(reloads.get(), is(expected));
    }
}
