package dev.herald.project;

import java.util.List;

/**
 * A product team's space: its keys and notifications belong to it.
 *
 * @param defaultLocale   the language of its notifications that name none (docs/api.md#languages), canonical
 * @param requiredLocales the languages every notification must have a text in before it is published, canonical, in
 *                        the order given; empty: none
 */
public record Project(String id, String name, long createdAt, String defaultLocale, List<String> requiredLocales) {

    /** What every project was before languages (migration 21). */
    public static final String DEFAULT_LOCALE = "en";

    public Project {
        requiredLocales = List.copyOf(requiredLocales);
    }

    public Project(String id, String name, long createdAt) {
        this(id, name, createdAt, DEFAULT_LOCALE, List.of());
    }
}
