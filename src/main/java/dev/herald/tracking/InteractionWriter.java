package dev.herald.tracking;

/**
 * Where tracking hands its interactions: {@link #record} returns only once the interaction is committed, and
 * throws when it is not (a 500, never a 204).
 */
interface InteractionWriter extends AutoCloseable {

    void record(Interaction interaction);

    /** Figures for {@code /observe/metrics}. */
    WriterFigures figures();

    /** Stops taking interactions and commits, or fails, every one already taken. */
    @Override
    void close();
}
