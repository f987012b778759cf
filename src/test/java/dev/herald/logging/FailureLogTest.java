package dev.herald.logging;

import java.lang.System.Logger.Level;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLTransientConnectionException;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.support.LoggerLines;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;

/** Failures are logged at most once a second, and every one of them is counted in a line, the last ones too. */
class FailureLogTest {

    private static final Pattern COUNT = Pattern.compile("^(\\d+) ");
    private static final Pattern AND_MORE = Pattern.compile("\\(and (\\d+) more since the last line\\)");

    @Test
    void whatTheSecondHeldBackIsReportedWhenItEndsWithoutAnotherFailure() throws Exception {
        String what = "test failure(s) " + UUID.randomUUID();
        FailureLog log = new FailureLog(what, Level.WARNING);
        try (LoggerLines lines = new LoggerLines(FailureLog.class.getName())) {
            log.failed(1, new SQLTransientConnectionException("the first"));
            log.failed(2, new SQLTransientConnectionException("the second"));

            List<String> ours = awaitLines(lines, what, 2);
            assertThat(ours, is(List.of(
                    "WARNING: 1 " + what + ": SQLTransientConnectionException: the first",
                    "WARNING: 2 " + what + " (since the last line): SQLTransientConnectionException: the second")));
        }
    }

    @Test
    void aCausesLineBreaksAndControlsStayOnTheLine() throws Exception {
        String what = "test failure(s) " + UUID.randomUUID();
        FailureLog log = new FailureLog(what, Level.WARNING);
        try (LoggerLines lines = new LoggerLines(FailureLog.class.getName())) {
            log.failed(1, new SQLIntegrityConstraintViolationException(
                    "Duplicate entry 'x\n2026-12-02T01:00:00Z SEVERE forged line\u001b[2J' for key; SQL statement:\r\nINSERT"));

            assertThat(awaitLines(lines, what, 1), is(List.of("WARNING: 1 " + what
                    + ": SQLIntegrityConstraintViolationException: Duplicate entry 'x 2026-12-02T01:00:00Z SEVERE forged"
                    + " line\\x1b[2J' for key; SQL statement: INSERT")));
        }
    }

    @Test
    void aFloodIsALineASecondAndEveryFailureIsCounted() throws Exception {
        String what = "test failure(s) " + UUID.randomUUID();
        FailureLog log = new FailureLog(what, Level.WARNING);
        try (LoggerLines lines = new LoggerLines(FailureLog.class.getName())) {
            long started = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                log.failed(1, new SQLTransientConnectionException("failure " + i));
                Thread.sleep(50);
            }
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            Thread.sleep(2_500);

            List<String> ours = ours(lines, what);
            assertThat(ours.toString(), counted(ours), is(50L));
            assertThat(ours.toString(), ours.size(), lessThanOrEqualTo((int) seconds + 3));
        }
    }

    private static List<String> awaitLines(LoggerLines lines, String what, int count) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (ours(lines, what).size() < count && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(1_200);
        return ours(lines, what);
    }

    private static List<String> ours(LoggerLines lines, String what) {
        return lines.lines().stream().filter(line -> line.contains(what)).toList();
    }

    private static long counted(List<String> lines) {
        long total = 0;
        for (String line : lines) {
            String text = line.substring(line.indexOf(": ") + 2);
            Matcher count = COUNT.matcher(text);
            assertThat(line, count.find(), is(true));
            Matcher more = AND_MORE.matcher(text);
            total += Long.parseLong(count.group(1)) + (more.find() ? Long.parseLong(more.group(1)) : 0);
        }
        return total;
    }
}
