package dev.herald.account;

import java.util.Optional;

import dev.herald.admin.Actor;

import io.helidon.dbclient.DbExecute;

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
        public Optional<Active> lockActive(DbExecute transaction, String name) {
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

    /**
     * The same in {@code transaction}, whose account's row it locks until the transaction ends: a sign-in's session
     * is inserted while no disable or reset can change the account.
     */
    Optional<Active> lockActive(DbExecute transaction, String name);

    Optional<Active> byTokenSha256(byte[] digest);
}
