package dev.herald.logging;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.herald.support.ChildHerald;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

/** Where Herald's log takes its configuration from, in a Herald of its own (the JVM's logging is global). */
class LogSetupTest {

    @TempDir
    Path directory;

    @Test
    void aLoggingPropertiesInTheWorkingDirectoryIsTheOneRead() throws Exception {
        Files.writeString(directory.resolve("logging.properties"), """
                handlers=java.util.logging.ConsoleHandler
                java.util.logging.ConsoleHandler.formatter=java.util.logging.SimpleFormatter
                java.util.logging.SimpleFormatter.format=OURS %4$s %5$s%n
                .level=INFO
                """);
        try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase("jdbc:h2:file:./data/herald"))) {
            assertThat(herald.log(), containsString("OURS INFO Logging configured from file "
                    + directory.resolve("logging.properties").toAbsolutePath() + "\n"));
            assertThat(herald.log(), containsString("OURS INFO Herald listening on "));
        }
    }

    @Test
    void theJvmsOwnSettingWinsOverTheWorkingDirectory() throws Exception {
        Path elsewhere = Files.createDirectories(directory.resolve("elsewhere")).resolve("jul.properties");
        Files.writeString(elsewhere, """
                handlers=java.util.logging.ConsoleHandler
                java.util.logging.ConsoleHandler.formatter=java.util.logging.SimpleFormatter
                java.util.logging.SimpleFormatter.format=JVM'S %4$s %5$s%n
                .level=INFO
                """);
        Files.writeString(directory.resolve("logging.properties"), ".level=OFF\n");
        try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase("jdbc:h2:file:./data/herald"),
                                                    List.of("-Djava.util.logging.config.file=" + elsewhere))) {
            assertThat(herald.log(), containsString(
                    "JVM'S INFO Logging configured by the JVM's java.util.logging.config settings\n"));
            assertThat(herald.log(), containsString("JVM'S INFO Herald listening on "));
        }
    }

    @Test
    void oneThatCannotBeReadIsNamedAndHeraldsIsRead() throws Exception {
        Files.writeString(directory.resolve("logging.properties"), ".level=INFO\nbroken=\\u00zz\n");
        try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase("jdbc:h2:file:./data/herald"),
                                                    Map.of())) {
            assertThat(herald.log(), containsString("Z WARNING dev.herald.logging.LogSetup: Logging configured from "
                    + "Herald's logging.properties: " + directory.resolve("logging.properties").toAbsolutePath()
                    + " cannot be read (Malformed \\uxxxx encoding.)\n"));
            assertThat(herald.log(), containsString("Z INFO dev.herald.Main: Herald listening on "));
        }
    }

    @Test
    void herald_sOwnIsReadWithoutALineAboutIt() throws Exception {
        try (ChildHerald herald = ChildHerald.start(directory, ChildHerald.onDatabase("jdbc:h2:file:./data/herald"))) {
            assertThat(herald.log(), containsString("Z INFO dev.herald.Main: Herald listening on "));
            assertThat(herald.log(), not(containsString("Logging configured")));
        }
    }
}
