package dev.herald.backup;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

import dev.herald.config.BadSetting;
import dev.herald.config.ConfigValues;

import io.helidon.config.Config;

/**
 * {@code db.backup.*}: where the online backups of an embedded H2 database go (docs/operations.md#backups). A
 * directory on the server, never the answer to a request: a backup holds the hashes of every token and session.
 *
 * @param directory created with the first backup (0700 where the file system has POSIX permissions); its files are
 *                  named for the instant each was taken
 * @param keep      how many of the newest backups stay once a new one is complete, 0 for all: by default the
 *                  directory is on the live database's disk, which a backup a day would fill
 */
public record BackupSettings(Path directory, int keep) {

    private static final String DEFAULT_DIRECTORY = "./data/backups";
    private static final int DEFAULT_KEEP = 7;

    /** Every backup kept: tests that count files. */
    BackupSettings(Path directory) {
        this(directory, 0);
    }

    /**
     * @throws BadSetting for a blank path, one the file system cannot name, or one that is a file; a negative
     *                    {@code keep}
     */
    public static BackupSettings from(Config backup) {
        String configured = ConfigValues.string(backup.get("directory")).orElse(DEFAULT_DIRECTORY);
        Path directory;
        try {
            directory = Path.of(configured.strip());
        } catch (InvalidPathException e) {
            throw new BadSetting(where() + " is \"" + configured + "\", which is no path: " + e.getReason());
        }
        if (configured.isBlank()) {
            throw new BadSetting(where() + " is empty: name the directory backups go to, e.g. " + DEFAULT_DIRECTORY);
        }
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new BadSetting(where() + " is \"" + configured + "\", which is a file, not a directory");
        }
        int keep = ConfigValues.integer(backup.get("keep"), DEFAULT_KEEP);
        if (keep < 0) {
            throw new BadSetting("db.backup.keep (" + ConfigValues.environmentName("db.backup.keep") + ") is " + keep
                    + ": the number of newest backups to keep, e.g. " + DEFAULT_KEEP + ", or 0 to keep them all");
        }
        return new BackupSettings(directory, keep);
    }

    private static String where() {
        return "db.backup.directory (" + ConfigValues.environmentName("db.backup.directory") + ")";
    }
}
