package dev.herald.config;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.helidon.config.Config;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Asks for a reload of the configuration when the file's content changes ({@code config.reload-interval}, polled),
 * and at SIGHUP. The content is compared, not the file's time or inode: an editor that writes a new file and
 * renames it over the old one, and Kubernetes, which swaps a ConfigMap's directory behind a symbolic link, are
 * seen alike, and a file touched without a change is not read again. One thread, a daemon: reloads never overlap.
 */
public final class ConfigWatcher {

    /** {@code config.reload-interval}'s default: a changed file is in force on every instance within seconds. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(2);
    /** Less would read the file in a loop. */
    private static final Duration SHORTEST_INTERVAL = Duration.ofMillis(100);
    /** What SIGHUP asks, on the queue; a poll that finds the content changed asks the same. */
    private static final Object SIGNAL = new Object();
    private static final System.Logger LOGGER = System.getLogger(ConfigWatcher.class.getName());

    private final Optional<Path> file;
    private final Duration interval;
    private final Runnable reload;
    /** One SIGHUP waiting at most: the handler never blocks, and one reload reads whatever the signals asked for. */
    private final BlockingQueue<Object> signals = new LinkedBlockingQueue<>(1);
    private final Thread thread;
    /** Read and written by the watcher's thread alone, but for the first, before it starts. */
    private byte[] lastContent;

    private ConfigWatcher(Optional<Path> file, Duration interval, Runnable reload) {
        this.file = file;
        this.interval = interval;
        this.reload = reload;
        this.thread = new Thread(this::run, "herald-config-watcher");
        thread.setDaemon(true);
    }

    /**
     * {@code config.reload-interval}: how often the file is compared with what was last read; zero for never (SIGHUP
     * still reloads).
     *
     * @throws BadSetting for a negative one, or one under 100 ms
     */
    public static Duration interval(Config config) {
        Config node = config.get("config.reload-interval");
        Duration interval = ConfigValues.duration(node, DEFAULT_INTERVAL);
        if (interval.isNegative() || !interval.isZero() && interval.compareTo(SHORTEST_INTERVAL) < 0) {
            throw new BadSetting("config.reload-interval (" + ConfigValues.environmentName(node) + ") is \""
                    + interval + "\"; it must be PT0S (the file is not watched; SIGHUP still reloads) or at least"
                    + " PT0.1S, e.g. PT2S");
        }
        return interval;
    }

    /**
     * Starts watching {@code file} every {@code interval} (zero: at SIGHUP only) and takes SIGHUP, which would
     * otherwise end the JVM. The content read now is taken for the one the running configuration was loaded from
     * (a change in the seconds of the start between the two is seen at the next change, or SIGHUP).
     *
     * @param reload reads the whole configuration again and applies it; never throws
     */
    public static ConfigWatcher start(Optional<Path> file, Duration interval, Runnable reload) {
        ConfigWatcher watcher = watch(file, interval, reload);
        boolean hangUp = watcher.takeHangUp();
        if (file.isEmpty()) {
            LOGGER.log(Level.INFO, "Configuration: no file to watch (environment variables are read at start only)");
        } else if (interval.isZero()) {
            LOGGER.log(Level.INFO, "Configuration: file " + file.get() + (hangUp ? " is read again at SIGHUP only"
                    : " is not read again: SIGHUP is ignored") + " (config.reload-interval is 0)");
        } else {
            LOGGER.log(Level.INFO, "Configuration: file " + file.get() + " is read again when it changes (checked"
                    + " every " + interval + ", config.reload-interval)" + (hangUp ? " and at SIGHUP" : ""));
        }
        return watcher;
    }

    /** The same without SIGHUP, which is the JVM's alone: for the tests. */
    static ConfigWatcher watch(Optional<Path> file, Duration interval, Runnable reload) {
        ConfigWatcher watcher = new ConfigWatcher(file, interval, reload);
        watcher.lastContent = watcher.contentDigest();
        watcher.thread.start();
        return watcher;
    }

    /** Stops watching; a reload under way ends first. */
    void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
    }

    /**
     * SIGHUP asks for a reload. {@code sun.misc.Signal} (module jdk.unsupported) is the JDK's only way to take a
     * signal; a JVM started with {@code -Xrs} refuses it, and polling alone then changes the configuration.
     *
     * @return whether SIGHUP now asks for a reload
     */
    private boolean takeHangUp() {
        try {
            SignalHandler before = Signal.handle(new Signal("HUP"), signal -> signals.offer(SIGNAL));
            // A signal ignored when the JVM started (nohup) stays ignored: the JVM keeps SIG_IGN and says so here.
            if (before == SignalHandler.SIG_IGN) {
                LOGGER.log(Level.WARNING, "SIGHUP is ignored by this process (started under nohup, or by a parent that"
                        + " ignores it), so it does not reload the configuration; start Herald without nohup (a"
                        + " service manager, or in the background with &) for SIGHUP to reload");
                return false;
            }
            return true;
        } catch (IllegalArgumentException e) {
            LOGGER.log(Level.WARNING, "SIGHUP does not reload the configuration in this JVM: " + e.getMessage());
            return false;
        }
    }

    private void run() {
        boolean polling = file.isPresent() && !interval.isZero();
        while (true) {
            try {
                Object signal = polling ? signals.poll(interval.toMillis(), TimeUnit.MILLISECONDS) : signals.take();
                byte[] content = contentDigest();
                if (signal != null || !Arrays.equals(content, lastContent)) {
                    lastContent = content;
                    reload.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Throwable e) {
                // A reload reports its own failures; whatever slipped through, an Error included, must not end the
                // one thread that applies SIGHUP: removing an account would silently stop working.
                LOGGER.log(Level.WARNING, "Configuration not reloaded: " + e + "; the file is read again at its next"
                        + " change or SIGHUP");
            }
        }
    }

    /**
     * The SHA-256 of the file's content now, following symbolic links, read by parts. A file that is not one to read
     * ({@link HeraldConfig#unreadable}: gone, a directory, a named pipe, over 1 MiB) is never opened, so the watcher
     * never blocks on it nor holds it whole; what is wrong with it stands for its content, so that it is a change
     * (the reload says what is wrong, once) and the file's return is another.
     */
    private byte[] contentDigest() {
        if (file.isEmpty()) {
            return null;
        }
        Optional<String> unreadable = HeraldConfig.unreadable(file.get());
        if (unreadable.isPresent()) {
            return unreadable.get().getBytes(StandardCharsets.UTF_8);
        }
        try (InputStream in = Files.newInputStream(file.get())) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] part = new byte[8192];
            long total = 0;
            for (int read = in.read(part); read >= 0; read = in.read(part)) {
                total += read;
                if (total > HeraldConfig.LARGEST_FILE) {
                    // Grown since its size was asked: the reload's own check says so.
                    return "over the largest".getBytes(StandardCharsets.UTF_8);
                }
                digest.update(part, 0, read);
            }
            return digest.digest();
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
