package dev.herald.backup;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.herald.api.ApiException;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** One backup at a time: a second, asked while one runs, is answered 409 at once; the next one after it runs. */
class OnlineBackupTest {

    @Test
    void aSecondBackupWhileOneRunsIsRefusedAndTheNextOneRuns() throws Exception {
        Path directory = Files.createTempDirectory("herald-online-backup-test");
        try (TestHerald herald = TestHerald.start(TestDatabase.h2File(directory.resolve("db")))) {
            HeldClock clock = new HeldClock();
            OnlineBackup backup = new OnlineBackup(herald.serving().client(),
                                                   new BackupSettings(directory.resolve("backups")), clock);
            CompletableFuture<OnlineBackup.Taken> first = CompletableFuture.supplyAsync(backup::take);
            assertThat("the first backup has begun", clock.asked.await(10, TimeUnit.SECONDS), is(true));

            ApiException second = assertThrows(ApiException.class, backup::take);

            assertThat(second.status().code(), is(409));
            assertThat(second.code(), is("BACKUP_RUNNING"));
            clock.release.countDown();
            String firstFile = first.get(30, TimeUnit.SECONDS).file();
            clock.now = clock.now.plusSeconds(1);
            OnlineBackup.Taken next = backup.take();
            assertThat(Files.exists(directory.resolve("backups").resolve(firstFile)), is(true));
            assertThat(Files.size(directory.resolve("backups").resolve(next.file())), is(next.bytes()));
        }
    }

    /**
     * A clock whose first reading waits until the test lets it go: the first backup is held while it runs, and any
     * other reading answers at once.
     */
    private static final class HeldClock extends Clock {

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
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            return now;
        }

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
