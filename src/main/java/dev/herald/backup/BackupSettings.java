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
 * @param directory created with the first backup; its files are named for the instant each was taken
 */
public record BackupSettings(Path directory) {

    private static final String DEFAULT_DIRECTORY = "./data/backups";

    /** @throws BadSetting for a blank path, one the file system cannot name, or one that is a file */
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
        return new BackupSettings(directory);
    }

    private static String where() {
        return "db.backup.directory (" + ConfigValues.environmentName("db.backup.directory") + ")";
    }
}
