package dev.herald.support;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** Work run again and again in the background while a test's own steps run, to meet a race. */
public final class Repeatedly {

    /** One step of a test, numbered from 0. */
    @FunctionalInterface
    public interface Round {
        void run(int round) throws Exception;
    }

    private Repeatedly() {
    }

    /** Runs {@code background} in a loop on another thread until {@code rounds} of {@code round} have run or one threw. */
    public static void during(Runnable background, int rounds, Round round) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        CompletableFuture<Void> loop = CompletableFuture.runAsync(() -> {
            while (running.get()) {
                background.run();
            }
        });
        try {
            for (int i = 0; i < rounds; i++) {
                round.run(i);
            }
        } finally {
            running.set(false);
            loop.get();
        }
    }
}
