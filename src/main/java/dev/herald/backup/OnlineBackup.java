package dev.herald.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.herald.api.ApiException;

import io.helidon.dbclient.DbClient;
import io.helidon.http.Status;

/**
 * An online backup of the embedded H2 database: H2's {@code BACKUP TO} copies the database into a zip file while
 * Herald keeps reading and writing, a consistent image of one moment (docs/operations.md#backups). Copying the
 * live {@code .mv.db} file instead may catch a page H2 is writing and a header that points past it: a file that opens,
 * or not, on the day it is needed.
 *
 * <p>One at a time: a second backup while one runs would double the disk's load for a copy of the same data.
 */
public final class OnlineBackup {

    /** The instant in ISO 8601's basic form, UTC: names sort in the order taken, and no colon troubles a file system. */
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /** What one backup made: its file's name in the backup directory, its size, how long it took. */
    public record Taken(String file, long bytes, long tookMillis) {
    }

    private final DbClient db;
    private final Path directory;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean();

    public OnlineBackup(DbClient db, BackupSettings settings, Clock clock) {
        this.db = db;
        this.directory = settings.directory();
        this.clock = clock;
    }

    /**
     * Writes the backup beside its final name and moves it there whole: a file of that name is always a complete
     * backup, never one a failure or a stop left half written.
     *
     * @throws ApiException 409 while another backup runs, or when a file of this instant exists
     */
    public Taken take() {
        if (!running.compareAndSet(false, true)) {
            throw ApiException.error(Status.CONFLICT_409, "BACKUP_RUNNING", "A backup is running; try again once it"
                    + " has finished");
        }
        try {
            long started = clock.millis();
            String name = "herald-" + NAME_TIME.format(clock.instant()) + ".zip";
            Path file = directory.resolve(name);
            Path partial = directory.resolve(name + ".partial");
            if (Files.exists(file)) {
                throw ApiException.error(Status.CONFLICT_409, "BACKUP_EXISTS", "A backup named " + name + " exists"
                        + " already; try again");
            }
            Files.createDirectories(directory);
            Files.deleteIfExists(partial);
            db.execute().createNamedDmlStatement("backup-to").addParam(partial.toAbsolutePath().toString()).execute();
            Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
            return new Taken(name, Files.size(file), clock.millis() - started);
        } catch (IOException e) {
            throw new UncheckedIOException("The backup directory (db.backup.directory, " + directory.toAbsolutePath()
                    + ") cannot be written: " + e.getMessage(), e);
        } finally {
            running.set(false);
        }
    }
}
