package dev.herald.project;

/**
 * A product team's space: its keys and notifications belong to it.
 */
public record Project(String id, String name, long createdAt) {
}
