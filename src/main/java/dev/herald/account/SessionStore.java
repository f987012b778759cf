package dev.herald.account;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

import dev.herald.storage.Rows;

import io.helidon.dbclient.DbClient;

/**
 * Console sessions, in the database so that every instance behind a balancer knows them and a restart ends none.
 * A session is a random 256-bit value in an HttpOnly cookie; the table holds its SHA-256 only. It ends at sign-out,
 * after {@code admin.sessions.idle-timeout} without a request, {@code max-age} after its sign-in, or when its
 * account is no longer configured.
 *
 * <p>Its last use is written at most once a minute (so the idle time-out is exact to a minute), not at every request.
 */
public final class SessionStore {

    /** {@code __Host-}: the browser keeps it only if Secure, for this host alone, with Path=/ (RFC 6265bis). */
    public static final String COOKIE = "__Host-herald-session";
    private static final System.Logger LOGGER = System.getLogger(SessionStore.class.getName());
    private static final long TOUCH_EVERY_MILLIS = 60_000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final DbClient db;
    private final SessionSettings settings;
    private final Clock clock;

    public SessionStore(DbClient db, SessionSettings settings, Clock clock) {
        this.db = db;
        this.settings = settings;
        this.clock = clock;
    }

    public SessionSettings settings() {
        return settings;
    }

    /** A new session of {@code account}; returns the cookie's value, which exists nowhere else. */
    String open(String account) {
        long now = clock.millis();
        db.execute().namedDelete("delete-idle-admin-sessions", now - settings.idleTimeout().toMillis(),
                                 now - settings.maxAge().toMillis());
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        String cookie = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        db.execute().namedInsert("insert-admin-session", digest(cookie), account, now, now);
        return cookie;
    }

    /** The account of a live session, which this use keeps alive; empty when there is none (it is then deleted). */
    Optional<String> accountOf(String cookie) {
        String id = digest(cookie);
        long now = clock.millis();
        return db.execute().namedGet("select-admin-session", id).flatMap(row -> {
            long lastSeen = Rows.longValue(row, "last_seen_at");
            if (now - lastSeen > settings.idleTimeout().toMillis()
                    || now - Rows.longValue(row, "created_at") > settings.maxAge().toMillis()) {
                db.execute().namedDelete("delete-admin-session", id);
                return Optional.empty();
            }
            if (now - lastSeen >= TOUCH_EVERY_MILLIS) {
                touch(id, now);
            }
            return Optional.of(Rows.string(row, "account"));
        });
    }

    /**
     * Keeps the session alive. Not worth a failed request: two instances on two Galera nodes touching one session at
     * once may lose a certification, and the next request a minute on touches it again.
     */
    private void touch(String id, long now) {
        try {
            db.execute().namedUpdate("touch-admin-session", now, id, now - TOUCH_EVERY_MILLIS);
        } catch (RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "A console session's last use was not written: " + e.getMessage());
        }
    }

    void close(String cookie) {
        db.execute().namedDelete("delete-admin-session", digest(cookie));
    }

    /**
     * The token a console request that changes something must carry in {@code X-CSRF-Token}: derived from the
     * cookie, which no script can read, so only a page that was given it (by the session's own answers, which no
     * other origin can read) has it.
     */
    static String csrfToken(String cookie) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Credentials.sha256("herald-csrf\u0000" + cookie));
    }

    private static String digest(String cookie) {
        return HexFormat.of().formatHex(Credentials.sha256(cookie));
    }
}
