package dev.herald;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Herald's version, as the build wrote it (src/main/resources-filtered): the first line of the log names it.
 */
final class Version {

    private Version() {
    }

    static String current() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "(version unknown)";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "(version unknown)");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
