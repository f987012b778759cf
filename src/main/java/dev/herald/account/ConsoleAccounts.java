package dev.herald.account;

import java.util.Optional;

import dev.herald.admin.Actor;

/**
 * The accounts made in the console, as {@link Credentials} asks for them at every request: only those that may sign
 * in now (invitation accepted, not disabled), with the digest of their token. Read from the database each time, never
 * kept: a role changed, an account disabled or reset through one instance holds on every other at its next request.
 */
interface ConsoleAccounts {

    /** Without a database: the configuration's accounts only. */
    ConsoleAccounts NONE = new ConsoleAccounts() {
        @Override
        public Optional<Active> byName(String name) {
            return Optional.empty();
        }

        @Override
        public Optional<Active> byTokenSha256(byte[] digest) {
            return Optional.empty();
        }
    };

    /** @param tokenSha256 the SHA-256 of the account's token */
    record Active(Actor actor, byte[] tokenSha256) {
    }

    Optional<Active> byName(String name);

    Optional<Active> byTokenSha256(byte[] digest);
}
