package dev.herald.userstate;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What a user did with a notification (docs/api.md, POST /api/v1/public/{apiKey}/users/me/state), each kept with the
 * instant it first happened.
 */
public enum UserState {
    SEEN("seen"),
    READ("read"),
    DISMISSED("dismissed"),
    ARCHIVED("archived");

    static final List<String> WIRE_NAMES = Arrays.stream(values()).map(UserState::wireName).toList();

    private final String wireName;

    UserState(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    static Optional<UserState> fromWireName(String name) {
        return Arrays.stream(values()).filter(state -> state.wireName.equals(name)).findFirst();
    }
}
