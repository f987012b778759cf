package dev.herald.backup;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.herald.api.ApiException;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;

/**
 * An online backup of the embedded H2 database: H2's {@code BACKUP TO} copies the database into a zip file while
 * Herald keeps reading and writing, a consistent image of one moment (docs/operations.md#backups). Copying the
 * live {@code .mv.db} file instead may catch a page H2 is writing and a header that points past it: a file that opens,
 * or not, on the day it is needed.
 *
 * <p>H2 copies on a platform thread of the backup's own, never on the caller's: an interrupt reaching a thread in
 * the middle of H2's file I/O (the server cutting a request at {@code limits.read-timeout}) closes the live
 * database's file channel, and every later write fails until a restart. The caller waits a bounded time and is told
 * either the result or that the backup goes on.
 *
 * <p>One at a time: a second backup while one runs would double the disk's load for a copy of the same data.
 */
public final class OnlineBackup {

    private static final System.Logger LOGGER = System.getLogger(OnlineBackup.class.getName());

    /** The instant in ISO 8601's basic form, UTC: names sort in the order taken, and no colon troubles a file system. */
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String PREFIX = "herald-";
    private static final String SUFFIX = ".zip";
    private static final String PARTIAL = ".partial";
    /** The longest a caller waits, whatever the read timeout: an answer within seconds, the rest in the log. */
    private static final Duration LONGEST_WAIT = Duration.ofSeconds(10);
    /** A backup holds the hash of every token and session: its owner's alone, where the file system says so. */
    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    /** What one backup made: its file's name in the backup directory, its size, how long it took. */
    public record Taken(String file, long bytes, long tookMillis) {
    }

    /** What the caller learns within its wait: the backup's file, and what it made, null while it still runs. */
    public record Outcome(String file, Taken taken) {

        public boolean done() {
            return taken != null;
        }
    }

    private final DbClient db;
    private final BackupSettings settings;
    private final Clock clock;
    private final Duration wait;
    private final AtomicBoolean running = new AtomicBoolean();

    /** @param readTimeout {@code limits.read-timeout}: the caller waits less than half of it, at most ten seconds */
    public OnlineBackup(DbClient db, BackupSettings settings, Duration readTimeout, Clock clock) {
        this(db, settings, clock, min(LONGEST_WAIT, readTimeout.dividedBy(2)));
    }

    OnlineBackup(DbClient db, BackupSettings settings, Clock clock, Duration wait) {
        this.db = db;
        this.settings = settings;
        this.clock = clock;
        this.wait = wait;
        try {
            deletePartials();
        } catch (IOException e) {
            LOGGER.log(System.Logger.Level.WARNING, "Backups left half written in " + directory() + " could not be"
                    + " deleted: " + e);
        }
    }

    /**
     * Starts a backup and waits for it a bounded time. It writes beside its final name and moves the file there
     * whole: a file of that name is always a complete backup, never one a failure or a stop left half written.
     *
     * @param whenComplete called on the backup's thread once the file is complete, before the caller hears of it
     * @throws ApiException 409 while another backup runs, or when a file of this instant exists; 500 when the
     *                      backup failed within the wait (the log says why, in one line)
     */
    public Outcome take(Consumer<Taken> whenComplete) {
        if (!running.compareAndSet(false, true)) {
            throw ApiException.error(Status.CONFLICT_409, "BACKUP_RUNNING", "A backup is running; try again once it"
                    + " has finished");
        }
        boolean started = false;
        try {
            long startedAt = clock.millis();
            String name = PREFIX + NAME_TIME.format(clock.instant()) + SUFFIX;
            if (Files.exists(directory().resolve(name))) {
                throw ApiException.error(Status.CONFLICT_409, "BACKUP_EXISTS", "A backup named " + name + " exists"
                        + " already; try again");
            }
            Path partial = prepare(name);
            CompletableFuture<Taken> done = new CompletableFuture<>();
            Thread.ofPlatform().name("herald-backup").daemon(true)
                    .start(() -> run(name, partial, startedAt, whenComplete, done));
            started = true;
            return waitFor(name, done);
        } finally {
            if (!started) {
                running.set(false);
            }
        }
    }

    /** The directory, 0700 when this creates it, with no half-written backup; an empty file to write, 0600. */
    private Path prepare(String name) {
        try {
            Files.createDirectories(directory(), posix("rwx------"));
            deletePartials();
            return Files.createFile(directory().resolve(name + PARTIAL), posix("rw-------"));
        } catch (IOException e) {
            LOGGER.log(System.Logger.Level.WARNING, "Backup " + name + " not taken: " + directory() + " (db.backup"
                    + ".directory) cannot be written: " + e);
            throw failed();
        }
    }

    private void run(String name, Path partial, long startedAt, Consumer<Taken> whenComplete,
                     CompletableFuture<Taken> done) {
        Taken taken = null;
        Exception failure = null;
        try {
            // H2 truncates the file it is given and writes into it: the permissions set at its creation stay.
            db.execute().createNamedDmlStatement("backup-to").addParam(partial.toAbsolutePath().toString()).execute();
            Path file = directory().resolve(name);
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            taken = new Taken(name, Files.size(file), clock.millis() - startedAt);
            whenComplete.accept(taken);
            LOGGER.log(System.Logger.Level.INFO, "Backup " + file + " taken: " + taken.bytes() + " bytes in "
                    + taken.tookMillis() + " ms");
            keepNewest();
        } catch (IOException | RuntimeException e) {
            failure = e;
            try {
                Files.deleteIfExists(partial);
            } catch (IOException notDeleted) {
                e.addSuppressed(notDeleted);
            }
            LOGGER.log(System.Logger.Level.WARNING, "Backup " + name + " into " + directory() + " failed: " + e);
        } finally {
            // Free before the caller hears: an owner told 201 may take the next backup at once.
            running.set(false);
            if (failure == null) {
                done.complete(taken);
            } else {
                done.completeExceptionally(failure);
            }
        }
    }

    private Outcome waitFor(String name, CompletableFuture<Taken> done) {
        try {
            return new Outcome(name, done.get(wait.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return new Outcome(name, null);
        } catch (InterruptedException e) {
            // The request's fate, not the backup's: it goes on, on its own thread.
            Thread.currentThread().interrupt();
            return new Outcome(name, null);
        } catch (ExecutionException e) {
            throw failed();
        }
    }

    /** {@code db.backup.keep}: the newest backups stay, the older ones go once a new one is complete. */
    private void keepNewest() {
        if (settings.keep() == 0) {
            return;
        }
        try {
            List<Path> backups = list(SUFFIX);
            // Names sort in the order taken: all but the last {@code keep} are older.
            for (Path old : backups.subList(0, Math.max(0, backups.size() - settings.keep()))) {
                Files.deleteIfExists(old);
                LOGGER.log(System.Logger.Level.INFO, "Backup " + old + " deleted: db.backup.keep is "
                        + settings.keep());
            }
        } catch (IOException e) {
            LOGGER.log(System.Logger.Level.WARNING, "Older backups in " + directory() + " could not be deleted: " + e);
        }
    }

    /** What a failure, a stop or a crash left half written: never a backup, and as large as one. */
    private void deletePartials() throws IOException {
        if (!Files.isDirectory(directory())) {
            return;
        }
        for (Path partial : list(SUFFIX + PARTIAL)) {
            Files.deleteIfExists(partial);
        }
    }

    private List<Path> list(String suffix) throws IOException {
        try (Stream<Path> files = Files.list(directory())) {
            return files.filter(file -> {
                String name = file.getFileName().toString();
                return name.startsWith(PREFIX) && name.endsWith(suffix);
            }).sorted().toList();
        }
    }

    private Path directory() {
        return settings.directory().toAbsolutePath();
    }

    private static ApiException failed() {
        return ApiException.error(Status.INTERNAL_SERVER_ERROR_500, "BACKUP_FAILED", "The backup failed; the"
                + " server's log says why");
    }

    private static FileAttribute<?>[] posix(String permissions) {
        return POSIX ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString(permissions))} : new FileAttribute<?>[0];
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
