package dev.herald.console;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console's word difference (console/diff.js), unit by unit: its cases are in src/test/js/diff.test.mjs, run here
 * with Node's own test runner, so that Maven runs them with the rest. ConsoleLifecycleBrowserTest sees it at work in
 * Chromium, in the history of an announcement. So are its language helpers (console/languages.js,
 * src/test/js/languages.test.mjs), at work in ConsoleLanguagesBrowserTest.
 */
class ConsoleWordDiffTest {

    @Test
    void everyCaseOfTheWordDifferencePasses() throws IOException, InterruptedException {
        assertEveryCasePasses("src/test/js/diff.test.mjs");
    }

    /** Issue 32: a tag's canonical form, its direction, a required language missing, the suggestions. */
    @Test
    void everyCaseOfTheLanguageHelpersPasses() throws IOException, InterruptedException {
        assertEveryCasePasses("src/test/js/languages.test.mjs");
    }

    private static void assertEveryCasePasses(String cases) throws IOException, InterruptedException {
        assumeTrue(nodeInstalled(), "node is not installed: the console's helpers are still tested in Chromium");
        Path log = Files.createTempFile("console-test", ".log");
        Process node = new ProcessBuilder("node", "--test", cases)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = node.waitFor(2, TimeUnit.MINUTES);
        String output = Files.readString(log, StandardCharsets.UTF_8);
        Files.delete(log);
        assertThat(output, ended, is(true));
        assertThat(output, node.exitValue(), is(0));
        assertThat(output, containsString("# fail 0"));
    }

    private static boolean nodeInstalled() {
        try {
            return new ProcessBuilder("node", "--version").start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
