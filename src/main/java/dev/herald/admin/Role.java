package dev.herald.admin;

import java.util.Locale;
import java.util.Optional;

/**
 * What a signed-in caller may do with the management API: an {@code owner} does what an editor does and manages the
 * team (the accounts made in the console), an {@code editor} reads and writes, a {@code viewer} only reads (GET and
 * HEAD). The tokens of {@code admin.tokens} are editors.
 */
public enum Role {
    OWNER,
    EDITOR,
    VIEWER;

    public boolean mayChange() {
        return this != VIEWER;
    }

    public boolean managesTeam() {
        return this == OWNER;
    }

    /** As configuration and answers spell it. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Role> of(String id) {
        for (Role role : values()) {
            if (role.id().equals(id)) {
                return Optional.of(role);
            }
        }
        return Optional.empty();
    }
}
