package dev.herald.account;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import dev.herald.admin.Actor;
import dev.herald.admin.Role;

/**
 * The tokens that open the management API and whose they are: {@code admin.tokens} (editors) and
 * {@code admin.accounts}. A presented token is compared as a SHA-256 digest with {@link MessageDigest#isEqual}
 * against every known one, so neither the time taken nor an early exit tells how close a guess was, or how long a
 * token is.
 */
public final class Credentials {

    private record Known(byte[] digest, Actor actor) {
    }

    private final List<Known> known;

    private Credentials(List<Known> known) {
        this.known = List.copyOf(known);
    }

    /** @throws IllegalArgumentException when one token is given twice (as two accounts, or account and token) */
    public static Credentials of(AdminSettings settings) {
        List<Known> known = new ArrayList<>();
        for (String token : settings.tokens()) {
            byte[] digest = sha256(token);
            known.add(new Known(digest, new Actor("token:" + HexFormat.of().formatHex(digest, 0, 4), Role.EDITOR)));
        }
        for (AccountSettings account : settings.accounts()) {
            known.add(new Known(account.tokenSha256(), new Actor(account.name(), account.role())));
        }
        for (int i = 0; i < known.size(); i++) {
            for (int j = i + 1; j < known.size(); j++) {
                if (MessageDigest.isEqual(known.get(i).digest(), known.get(j).digest())) {
                    throw new IllegalArgumentException("admin: " + known.get(j).actor().name() + " has the token of "
                            + known.get(i).actor().name() + "; give each its own");
                }
            }
        }
        return new Credentials(known);
    }

    public boolean isEmpty() {
        return known.isEmpty();
    }

    /** Whose the token is, if anyone's. */
    public Optional<Actor> actorOf(String token) {
        byte[] presented = sha256(token);
        Actor match = null;
        for (Known candidate : known) {
            if (MessageDigest.isEqual(candidate.digest(), presented)) {
                match = candidate.actor();
            }
        }
        return Optional.ofNullable(match);
    }

    /** The account of that name, as configured now: a session names its account, whose role may have changed. */
    public Optional<Actor> account(String name) {
        return known.stream().map(Known::actor).filter(actor -> actor.name().equals(name)
                && !actor.name().startsWith("token:")).findFirst();
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
