package dev.herald.account;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * The key of the MAC that each session cookie carries: a cookie is 32 random bytes and the first 16 bytes of their
 * HMAC-SHA256, so that one Herald did not make is refused in memory, without a query (a random cookie used to cost a
 * query each, and a flood of them emptied the pool). Every instance behind a balancer must know every session, and
 * they share only the database and the configuration; a key in the configuration would be one more secret for an
 * operator to make and keep equal everywhere, so it lives in the database ({@code server_keys}), made by the first
 * instance that starts without one and read by every instance at its start.
 *
 * <p>Rotation (docs/security.md): delete the row and restart every instance; the first to start makes a new key, and
 * every session ends. An instance not yet restarted refuses the new key's cookies until it is.
 */
final class SessionKey {

    private static final System.Logger LOGGER = System.getLogger(SessionKey.class.getName());
    private static final String NAME = "session-mac";
    private static final String ALGORITHM = "HmacSHA256";
    private static final int SECRET_BYTES = 32;
    private static final int MAC_BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    private SessionKey(byte[] key) {
        this.key = new SecretKeySpec(key, ALGORITHM);
    }

    /** The database's key, made now if it has none; of two instances that make one at once, one insert wins. */
    static SessionKey load(DbClient db, Clock clock) {
        Optional<String> stored = read(db);
        if (stored.isEmpty()) {
            byte[] fresh = new byte[32];
            RANDOM.nextBytes(fresh);
            try {
                db.execute().namedInsert("insert-server-key", NAME, HexFormat.of().formatHex(fresh), clock.millis());
                LOGGER.log(System.Logger.Level.INFO, "Made the key of console session cookies (server_keys, "
                        + NAME + "); sessions made with another key end");
            } catch (RuntimeException e) {
                LOGGER.log(System.Logger.Level.DEBUG, "Another instance made the session key first: " + e.getMessage());
            }
            stored = read(db);
        }
        return new SessionKey(HexFormat.of().parseHex(stored.orElseThrow(
                () -> new IllegalStateException("server_keys holds no " + NAME + " after it was inserted"))));
    }

    /** A new session's cookie: its random bytes and their MAC, base64url (64 characters). */
    String newCookie() {
        byte[] secret = new byte[SECRET_BYTES];
        RANDOM.nextBytes(secret);
        byte[] cookie = Arrays.copyOf(secret, SECRET_BYTES + MAC_BYTES);
        System.arraycopy(mac(secret), 0, cookie, SECRET_BYTES, MAC_BYTES);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cookie);
    }

    /** Whether Herald made this cookie with this key; compared in constant time, so a guess learns nothing. */
    boolean madeThis(String cookie) {
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(cookie);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (bytes.length != SECRET_BYTES + MAC_BYTES) {
            return false;
        }
        return MessageDigest.isEqual(mac(Arrays.copyOf(bytes, SECRET_BYTES)),
                                     Arrays.copyOfRange(bytes, SECRET_BYTES, bytes.length));
    }

    private byte[] mac(byte[] secret) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return Arrays.copyOf(mac.doFinal(secret), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private static Optional<String> read(DbClient db) {
        return db.execute().namedGet("select-server-key", NAME).map(row -> Rows.string(row, "secret"));
    }
}
