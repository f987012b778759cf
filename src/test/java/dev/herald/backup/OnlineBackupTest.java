package dev.herald.backup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import dev.herald.api.ApiException;
import dev.herald.support.MutableClock;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import io.helidon.dbclient.DbClient;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * One backup at a time, on a thread of its own: a second, asked while one runs, is answered 409 at once; a caller
 * whose wait ends, or whose thread is interrupted, leaves the backup going on and the live database writable; what a
 * failure leaves half written is deleted; only the newest {@code db.backup.keep} stay; the files are the owner's.
 */
class OnlineBackupTest {

    private static final Duration LONG_WAIT = Duration.ofMinutes(1);

    @Test
    void aSecondBackupWhileOneRunsIsRefusedAndTheNextOneRuns() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            HeldClock clock = new HeldClock();
            OnlineBackup backup = new OnlineBackup(herald.serving().client(),
                                                   new BackupSettings(directory.resolve("backups")), clock, LONG_WAIT);
            CompletableFuture<OnlineBackup.Outcome> first = CompletableFuture.supplyAsync(() -> backup.take(taken -> {
            }));
            assertThat("the first backup has begun", clock.asked.await(10, TimeUnit.SECONDS), is(true));

            ApiException second = assertThrows(ApiException.class, () -> backup.take(taken -> {
            }));

            assertThat(second.status().code(), is(409));
            assertThat(second.code(), is("BACKUP_RUNNING"));
            clock.release.countDown();
            String firstFile = first.get(30, TimeUnit.SECONDS).taken().file();
            clock.now = clock.now.plusSeconds(1);
            OnlineBackup.Taken next = backup.take(taken -> {
            }).taken();
            assertThat(Files.exists(directory.resolve("backups").resolve(firstFile)), is(true));
            assertThat(Files.size(directory.resolve("backups").resolve(next.file())), is(next.bytes()));
        }
    }

    @Test
    void aCallerInterruptedDuringABackupLeavesTheLiveDatabaseWritable() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            DbClient db = withProbeTable(herald);
            // The request's thread is interrupted while the backup runs, as when the server cuts a request at
            // limits.read-timeout: H2 must never see that interrupt on a channel of the live file.
            InterruptingClock clock = new InterruptingClock(Thread.currentThread());
            OnlineBackup backup = new OnlineBackup(db, new BackupSettings(directory.resolve("backups")), clock,
                                                   LONG_WAIT);
            Completed completed = new Completed();

            OnlineBackup.Outcome outcome = backup.take(completed);
            clock.callerReturned.countDown();

            assertThat("the interrupted caller is told the backup goes on", outcome.done(), is(false));
            assertThat("the interrupt stays the caller's to see", Thread.interrupted(), is(true));
            OnlineBackup.Taken taken = completed.await();
            assertThat(taken.file(), is(outcome.file()));
            assertThat(entries(directory.resolve("backups").resolve(taken.file())), hasItem("herald.mv.db"));
            assertThat(db.execute().dml("INSERT INTO backup_probe (id) VALUES (1)"), is(1L));
        }
    }

    @Test
    void aBackupLongerThanTheWaitGoesOnAndCompletes() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            DbClient db = withProbeTable(herald);
            BackupThreadHeldClock clock = new BackupThreadHeldClock();
            OnlineBackup backup = new OnlineBackup(db, new BackupSettings(directory.resolve("backups")), clock,
                                                   Duration.ZERO);
            Completed completed = new Completed();

            OnlineBackup.Outcome outcome = backup.take(completed);

            assertThat("the caller is told the backup goes on", outcome.done(), is(false));
            assertThat("the backup runs on", clock.asked.await(10, TimeUnit.SECONDS), is(true));
            ApiException second = assertThrows(ApiException.class, () -> backup.take(taken -> {
            }));
            assertThat(second.code(), is("BACKUP_RUNNING"));
            clock.release.countDown();
            OnlineBackup.Taken taken = completed.await();
            Path file = directory.resolve("backups").resolve(outcome.file());
            assertThat(taken.bytes(), is(Files.size(file)));
            assertThat(entries(file), hasItem("herald.mv.db"));
            assertThat(files(directory.resolve("backups")), contains(outcome.file()));
            assertThat(db.execute().dml("INSERT INTO backup_probe (id) VALUES (1)"), is(1L));
        }
    }

    @Test
    void onlyTheNewestBackupsAreKept() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            MutableClock clock = new MutableClock(TestHerald.START);
            OnlineBackup backup = new OnlineBackup(herald.serving().client(),
                                                   new BackupSettings(directory.resolve("backups"), 2), clock,
                                                   LONG_WAIT);
            String[] names = new String[3];
            for (int i = 0; i < names.length; i++) {
                names[i] = backup.take(taken -> {
                }).taken().file();
                clock.advance(Duration.ofHours(1));
            }

            assertThat(files(directory.resolve("backups")), contains(names[1], names[2]));
        }
    }

    @Test
    void whatAnEarlierBackupLeftHalfWrittenIsDeleted() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        Path backups = Files.createDirectories(directory.resolve("backups"));
        Files.writeString(backups.resolve("herald-20261121T100000.000Z.zip.partial"), "cut short at a stop");
        Files.writeString(backups.resolve("notes.partial"), "not Herald's");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            new OnlineBackup(herald.serving().client(), new BackupSettings(backups), herald.clock(), LONG_WAIT);

            assertThat(files(backups), contains("notes.partial"));
        }
    }

    @Test
    void theDirectoryAndTheBackupsAreTheOwnersAlone() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            Path backups = directory.resolve("backups");
            OnlineBackup backup = new OnlineBackup(herald.serving().client(), new BackupSettings(backups),
                                                   herald.clock(), LONG_WAIT);

            String file = backup.take(taken -> {
            }).taken().file();

            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backups)), is("rwx------"));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(backups.resolve(file))),
                       is("rw-------"));
        }
    }

    @Test
    void aDirectoryThatCannotBeWrittenIsAClearFailure() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        Path aFile = Files.writeString(directory.resolve("a-file"), "not a directory");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            OnlineBackup backup = new OnlineBackup(herald.serving().client(),
                                                   new BackupSettings(aFile.resolve("backups")), herald.clock(),
                                                   LONG_WAIT);

            ApiException failure = assertThrows(ApiException.class, () -> backup.take(taken -> {
            }));

            assertThat(failure.status().code(), is(500));
            assertThat(failure.code(), is("BACKUP_FAILED"));
        }
    }

    @Test
    void aFailedBackupLeavesNothingHalfWritten() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        Path backups = directory.resolve("backups");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            OnlineBackup backup = new OnlineBackup(herald.serving().client(), new BackupSettings(backups),
                                                   herald.clock(), LONG_WAIT);
            herald.stop();

            ApiException failure = assertThrows(ApiException.class, () -> backup.take(taken -> {
            }));

            assertThat(failure.code(), is("BACKUP_FAILED"));
            assertThat(files(backups), is(empty()));
        }
    }

    /** The live database, with a table for a write after the backup: the write H2 refused once it was broken. */
    private static DbClient withProbeTable(TestHerald herald) {
        DbClient db = herald.serving().client();
        db.execute().dml("CREATE TABLE backup_probe (id INT)");
        return db;
    }

    private static List<String> files(Path directory) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    private static List<String> entries(Path zip) throws Exception {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            return file.stream().map(entry -> entry.getName()).toList();
        }
    }

    /** What the backup's thread reports once its file is complete. */
    private static final class Completed implements java.util.function.Consumer<OnlineBackup.Taken> {

        private final CountDownLatch done = new CountDownLatch(1);
        private final AtomicReference<OnlineBackup.Taken> taken = new AtomicReference<>();

        @Override
        public void accept(OnlineBackup.Taken backup) {
            taken.set(backup);
            done.countDown();
        }

        OnlineBackup.Taken await() throws InterruptedException {
            assertThat("the backup completed", done.await(60, TimeUnit.SECONDS), is(true));
            return taken.get();
        }
    }

    /**
     * A clock that interrupts the caller when it reads it: the caller of a backup, whose request the server cut. The
     * backup's own thread, which reads it once the copy is made, waits until the caller has its answer: a small
     * database is copied in a moment, and a copy finished before the caller looked was answered as done (CI,
     * 2026-11-29), which is right but not the case this test is about.
     */
    private static final class InterruptingClock extends UtcClock {

        private final Thread caller;
        private final CountDownLatch callerReturned = new CountDownLatch(1);

        InterruptingClock(Thread caller) {
            this.caller = caller;
        }

        @Override
        public Instant instant() {
            if (Thread.currentThread() == caller) {
                caller.interrupt();
            } else if (Thread.currentThread().getName().equals("herald-backup")) {
                awaitQuietly(callerReturned);
            }
            return TestHerald.START;
        }
    }

    /** A clock that holds the backup's own thread when it reads it, until the test lets it go. */
    private static final class BackupThreadHeldClock extends UtcClock {

        private final CountDownLatch asked = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Instant instant() {
            if (Thread.currentThread().getName().equals("herald-backup")) {
                asked.countDown();
                awaitQuietly(release);
            }
            return TestHerald.START;
        }
    }

    /**
     * A clock whose first reading waits until the test lets it go: the first backup is held while it runs, and any
     * other reading answers at once.
     */
    private static final class HeldClock extends UtcClock {

        private final CountDownLatch asked = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean first = new AtomicBoolean(true);
        private volatile Instant now = TestHerald.START;

        @Override
        public Instant instant() {
            if (!first.getAndSet(false)) {
                return now;
            }
            asked.countDown();
            awaitQuietly(release);
            return now;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private abstract static class UtcClock extends Clock {

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("UTC only");
        }
    }
}
