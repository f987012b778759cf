package dev.herald.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

import dev.herald.admin.Actor;
import dev.herald.admin.Role;

import io.helidon.dbclient.DbExecute;

/**
 * The tokens that open the management API and whose they are: {@code admin.tokens} (editors) and
 * {@code admin.accounts}. A presented token is compared as a SHA-256 digest with {@link MessageDigest#isEqual}
 * against every known one, so neither the time taken nor an early exit tells how close a guess was, or how long a
 * token is.
 *
 * <p>A console session is bound to the credential that opened it ({@link #credentialOfToken}): a digest of its account's
 * {@code token-sha256}, which changes when the token is replaced.
 *
 * <p>Accounts made in the console ({@link ConsoleAccounts}) come after the configuration's: a name of
 * {@code admin.accounts} is the configuration's whatever the database holds, and a token is looked up in the database
 * only when no configured one matches (by its digest, an index's look-up: the digest of 256 random bits tells a
 * guesser nothing, however long the look-up takes).
 */
public final class Credentials {

    private static final byte[] CREDENTIAL_PREFIX = "herald-session-credential\u0000".getBytes(StandardCharsets.UTF_8);

    /** @param credential of an account, what its sessions are bound to; null for a token of admin.tokens */
    private record Known(byte[] digest, Actor actor, byte[] credential) {
    }

    /** Replaced whole by a reload ({@link #reconfigure}): a request reads it once per look-up. */
    private volatile List<Known> known;
    private final ConsoleAccounts console;

    private Credentials(List<Known> known, ConsoleAccounts console) {
        this.known = List.copyOf(known);
        this.console = console;
    }

    /** @throws IllegalArgumentException when one token is given twice (as two accounts, or account and token) */
    public static Credentials of(AdminSettings settings) {
        return of(settings, ConsoleAccounts.NONE);
    }

    /** The configuration's credentials, then those of the accounts made in the console. */
    static Credentials of(AdminSettings settings, ConsoleAccounts console) {
        return new Credentials(known(settings), console);
    }

    /**
     * The tokens and accounts of a configuration reloaded while Herald runs: from the next request on, a removed
     * token or account opens nothing, and a removed account's sessions end ({@link #sessionAccount}).
     *
     * @return each account's binding that the reload removed ({@link #binding}): its account gone, or its token
     *         replaced
     * @throws IllegalArgumentException as {@link #of}, and then nothing changes
     */
    Set<String> reconfigure(AdminSettings settings) {
        List<Known> before = known;
        known = List.copyOf(known(settings));
        Set<String> kept = bindings(known);
        Set<String> removed = new HashSet<>(bindings(before));
        removed.removeAll(kept);
        return removed;
    }

    /** An account's name and the credential its sessions are bound to, as one key. */
    static String binding(String name, String credential) {
        return name + "\n" + credential.toLowerCase(Locale.ROOT);
    }

    private static Set<String> bindings(List<Known> known) {
        Set<String> bindings = new HashSet<>();
        for (Known entry : known) {
            if (entry.credential() != null) {
                bindings.add(binding(entry.actor().name(), HexFormat.of().formatHex(entry.credential())));
            }
        }
        return bindings;
    }

    private static List<Known> known(AdminSettings settings) {
        List<Known> known = new ArrayList<>();
        for (String token : settings.tokens()) {
            byte[] digest = sha256(token);
            known.add(new Known(digest, new Actor("token:" + HexFormat.of().formatHex(digest, 0, 4), Role.EDITOR),
                                null));
        }
        for (AccountSettings account : settings.accounts()) {
            known.add(new Known(account.tokenSha256(), new Actor(account.name(), account.role()),
                                credential(account.tokenSha256())));
        }
        for (int i = 0; i < known.size(); i++) {
            for (int j = i + 1; j < known.size(); j++) {
                if (MessageDigest.isEqual(known.get(i).digest(), known.get(j).digest())) {
                    throw new IllegalArgumentException("admin: " + known.get(j).actor().name() + " has the token of "
                            + known.get(i).actor().name() + "; give each its own");
                }
            }
        }
        return known;
    }

    /**
     * Whether the configuration names no token and no account: the management API is closed then, whatever accounts
     * the console made (the configuration stays the switch that closes it).
     */
    public boolean isEmpty() {
        return known.isEmpty();
    }

    /** Whose the token is, if anyone's. */
    public Optional<Actor> actorOf(String token) {
        byte[] presented = sha256(token);
        List<Known> known = this.known;
        Actor match = null;
        for (Known candidate : known) {
            if (MessageDigest.isEqual(candidate.digest(), presented)) {
                match = candidate.actor();
            }
        }
        if (match != null) {
            return Optional.of(match);
        }
        return console.byTokenSha256(presented).map(ConsoleAccounts.Active::actor)
                .filter(actor -> accountEntry(known, actor.name()).isEmpty());
    }

    /** Whether {@code admin.accounts} has an account of this name. */
    boolean isConfigured(String accountName) {
        return accountEntry(known, accountName).isPresent();
    }

    /** What a session opened with this token is bound to, if its account still holds that token. */
    static String credentialOfToken(String token) {
        return HexFormat.of().formatHex(credential(sha256(token)));
    }

    /**
     * Whether the account is still bound to {@code credential} (as {@link #credentialOfToken}), read in
     * {@code transaction}: an account of the console has its row locked until the transaction ends, so no disable
     * or reset comes between this answer and the transaction's writes.
     */
    boolean holdsInTransaction(DbExecute transaction, String name, String credential) {
        Optional<Known> configured = accountEntry(known, name);
        Optional<byte[]> bound = configured.isPresent()
                ? configured.map(Known::credential)
                : console.lockActive(transaction, name).map(active -> credential(active.tokenSha256()));
        return bound.filter(value -> MessageDigest.isEqual(value, HexFormat.of().parseHex(credential))).isPresent();
    }

    /**
     * The account of a session bound to {@code credential}, as configured now (its role may have changed), if the
     * account is still configured with that credential: a replaced token, or a removed account, ends its sessions.
     */
    Optional<Actor> sessionAccount(String name, String credential) {
        byte[] bound;
        try {
            bound = HexFormat.of().parseHex(credential);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return boundTo(name).filter(entry -> MessageDigest.isEqual(entry.credential(), bound))
                .map(Known::actor);
    }

    /** The account of this name as configured, or else as made in the console and active now. */
    private Optional<Known> boundTo(String name) {
        Optional<Known> configured = accountEntry(known, name);
        if (configured.isPresent()) {
            return configured;
        }
        return console.byName(name).map(active -> new Known(active.tokenSha256(), active.actor(),
                                                            credential(active.tokenSha256())));
    }

    private static Optional<Known> accountEntry(List<Known> known, String name) {
        return known.stream().filter(entry -> entry.credential() != null && entry.actor().name().equals(name))
                .findFirst();
    }

    private static byte[] credential(byte[] tokenSha256) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(CREDENTIAL_PREFIX);
            return digest.digest(tokenSha256);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
