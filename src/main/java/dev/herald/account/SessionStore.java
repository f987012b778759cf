package dev.herald.account;

import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import dev.herald.admin.Actor;
import dev.herald.api.Json;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;

import jakarta.json.JsonObject;

/**
 * Console sessions, in the database so that every instance behind a balancer knows them and a restart ends none.
 * A session's cookie is random and carries a MAC ({@link SessionKey}): one Herald did not make is refused without a
 * query. The table holds the cookie's SHA-256 only, and the credential that opened the session. A session ends at
 * sign-out, when an editor ends it, after {@code admin.sessions.idle-timeout} without a request, {@code max-age}
 * after its sign-in, when its account is no longer configured, when the account's token is replaced (the credential
 * that opened it changed), when its account of the console is disabled or reset ({@link TeamStore}, which deletes its
 * rows; and {@link Credentials} reads the account at every request), and when its account signs in more than
 * {@code max-per-account} times (the least recently used goes first). Opening, closing and ending sessions is
 * audited, in the transaction that does it.
 *
 * <p>Its last use is written at most once a minute (so the idle time-out is exact to a minute), not at every request.
 */
public final class SessionStore {

    /** {@code __Host-}: the browser keeps it only if Secure, for this host alone, with Path=/ (RFC 6265bis). */
    public static final String COOKIE = "__Host-herald-session";
    static final String TARGET = "session";
    private static final Pattern ID = Pattern.compile("[0-9a-f]{64}");
    private static final System.Logger LOGGER = System.getLogger(SessionStore.class.getName());
    /** A session's last use is written once a minute at most, not at each of its requests. */
    private static final long TOUCH_AT_MOST_EVERY_MILLIS = 60_000;

    /** A live session: its id (its cookie's SHA-256, which opens nothing) and its account as configured now. */
    record Session(String id, Actor account, long createdAt, long lastSeenAt) {
    }

    /** A session just opened, and its cookie, which exists nowhere else. */
    record Opened(Session session, String cookie) {
    }

    private final DbClient db;
    private final SessionSettings settings;
    private final Credentials credentials;
    private final Clock clock;
    /**
     * A quarter of the idle time-out at the shortest: written once a minute, a session used every 2 s under the
     * shortest time-out (a minute) ended at its 60th second.
     */
    private final long touchEveryMillis;
    /** A removed binding ({@link Credentials#binding}) and when it was removed, until its sessions are deleted. */
    private final Map<String, Long> removedAt = new ConcurrentHashMap<>();
    private volatile SessionKey key;

    public SessionStore(DbClient db, SessionSettings settings, Credentials credentials, Clock clock) {
        this.db = db;
        this.settings = settings;
        this.credentials = credentials;
        this.clock = clock;
        this.touchEveryMillis = Math.min(TOUCH_AT_MOST_EVERY_MILLIS, settings.idleTimeout().toMillis() / 4);
    }

    /**
     * Once the schema is current, before the first request: reads the cookies' key (made now if there is none), and
     * deletes the sessions of credentials this configuration no longer has, so that a removed account added back,
     * or a token replaced and restored, does not revive them.
     */
    public void start() {
        key = SessionKey.load(db, clock);
        endUnconfigured();
    }

    /**
     * Bindings a reload removed ({@link Credentials#reconfigure}), until their sessions are deleted: a session opened
     * by the removal is refused whatever the configuration says meanwhile. Without this, a removal whose deletion
     * failed (the database away) and the account added back with its token at the next reload revived the sessions
     * (an operator's trial).
     */
    void ending(Set<String> removed) {
        long now = clock.millis();
        // The latest removal: a session opened between two removals ends with the second.
        removed.forEach(binding -> removedAt.merge(binding, now, Math::max));
    }

    /** Deletes the sessions opened by each removal of {@link #ending}; a binding is forgotten once they are. */
    private void endRemovedBindings() {
        for (Map.Entry<String, Long> removal : Map.copyOf(removedAt).entrySet()) {
            String[] binding = removal.getKey().split("\n", 2);
            db.execute().namedDelete("delete-credential-admin-sessions-opened-by", binding[0], binding[1],
                                     removal.getValue());
            removedAt.remove(removal.getKey(), removal.getValue());
        }
    }

    /**
     * Deletes the sessions of credentials the configuration no longer has: at start, and when a reload removed an
     * account or replaced its token (their requests are refused from the reload on in any case: {@link Credentials}
     * is asked at each).
     */
    void endUnconfigured() {
        endRemovedBindings();
        long ended = 0;
        for (DbRow row : db.execute().namedQuery("select-admin-session-credentials").toList()) {
            String account = Rows.string(row, "account");
            String credential = Rows.string(row, "credential");
            if (credentials.sessionAccount(account, credential).isEmpty()) {
                ended += db.execute().namedDelete("delete-credential-admin-sessions", account, credential);
            }
        }
        if (ended > 0) {
            LOGGER.log(System.Logger.Level.INFO, ended + " console sessions ended: their account is no longer"
                    + " configured, or its token was replaced");
        }
    }

    public SessionSettings settings() {
        return settings;
    }

    /**
     * A new session of {@code account}, bound to the credential of {@code token}, which signed in; the account's
     * sessions past its bound end, the least recently used first. Audited as {@code session.opened}. Empty when the
     * account no longer holds that token: disabled or reset since the token was checked. The check and the insert
     * are one transaction with the account's row locked, as a disable and a reset lock it ({@link TeamStore}): a
     * session is inserted before a disable, which deletes it, or not at all.
     */
    Optional<Opened> open(Actor account, String token) {
        long now = clock.millis();
        String credential = Credentials.credentialOfToken(token);
        deleteEnded(now);
        String cookie = key().newCookie();
        Session session = new Session(digest(cookie), account, now, now);
        boolean[] opened = new boolean[1];
        Transactions.run(db, transaction -> {
            opened[0] = credentials.holdsInTransaction(transaction, account.name(), credential);
            if (!opened[0]) {
                return;
            }
            transaction.namedDelete("delete-account-admin-sessions-of-other-credentials", account.name(), credential);
            List<String> past = transaction.namedQuery("select-account-admin-sessions-past", account.name(),
                                                       settings.maxPerAccount() - 1)
                    .map(row -> Rows.string(row, "id_sha256")).toList();
            for (String id : past) {
                transaction.namedDelete("delete-admin-session", id);
            }
            transaction.namedInsert("insert-admin-session", session.id(), account.name(), credential, now, now);
            audit(transaction, account, now, "session.opened", session.id(), Json.builders().createObjectBuilder()
                    .add("role", account.role().id()).add("endedLeastRecentlyUsed", past.size()).build());
        });
        return opened[0] ? Optional.of(new Opened(session, cookie)) : Optional.empty();
    }

    /**
     * The live session of this cookie, which this use keeps alive; empty when there is none. A cookie Herald did not
     * make is refused without a query; a session past its time is deleted.
     */
    Optional<Session> find(String cookie) {
        if (!key().madeThis(cookie)) {
            return Optional.empty();
        }
        String id = digest(cookie);
        long now = clock.millis();
        return db.execute().namedGet("select-admin-session", id).flatMap(row -> {
            long lastSeen = Rows.longValue(row, "last_seen_at");
            if (hasEnded(now, lastSeen, Rows.longValue(row, "created_at"))) {
                db.execute().namedDelete("delete-admin-session", id);
                return Optional.empty();
            }
            Optional<Session> session = live(row);
            if (session.isPresent() && now - lastSeen >= touchEveryMillis) {
                touch(id, now);
            }
            return session;
        });
    }

    /** The live sessions, of one account or of all, each account's most recently used first. */
    List<Session> list(Optional<String> account) {
        long now = clock.millis();
        long idleSince = now - settings.idleTimeout().toMillis();
        long createdSince = now - settings.maxAge().toMillis();
        return (account.isPresent()
                ? db.execute().namedQuery("select-live-account-admin-sessions", account.get(), idleSince, createdSince)
                : db.execute().namedQuery("select-live-admin-sessions", idleSince, createdSince))
                .map(this::live).flatMap(Optional::stream).toList();
    }

    /** Signs out: audited as {@code session.closed} under the session's account. */
    void close(Session session) {
        Transactions.run(db, transaction -> {
            if (transaction.namedDelete("delete-admin-session", session.id()) > 0) {
                audit(transaction, session.account(), clock.millis(), "session.closed", session.id(),
                      Json.builders().createObjectBuilder().build());
            }
        });
    }

    /** Ends the session of this id, whoever's it is; false when there is none. Audited as {@code session.ended}. */
    boolean end(String id, Actor by) {
        if (!ID.matcher(id).matches()) {
            return false;
        }
        boolean[] ended = new boolean[1];
        Transactions.run(db, transaction -> {
            Optional<String> account = transaction.namedGet("select-admin-session", id)
                    .map(row -> Rows.string(row, "account"));
            ended[0] = account.isPresent() && transaction.namedDelete("delete-admin-session", id) > 0;
            if (ended[0]) {
                audit(transaction, by, clock.millis(), "session.ended", id,
                      Json.builders().createObjectBuilder().add("account", account.get()).build());
            }
        });
        return ended[0];
    }

    /**
     * Ends every session of {@code account} but {@code keep} (the caller's own, when it came with one); returns how
     * many. Audited as {@code sessions.ended}, its target the account.
     */
    long endAll(String account, Optional<Session> keep, Actor by) {
        long[] ended = new long[1];
        Transactions.run(db, transaction -> {
            ended[0] = transaction.namedDelete("delete-account-admin-sessions-but", account,
                                               keep.map(Session::id).orElse(""));
            AuditLog.record(transaction, AuditEntry.of(by, clock.millis(), "sessions.ended", null, "account", account,
                                                       Json.builders().createObjectBuilder().add("ended", ended[0])
                                                               .build()));
        });
        return ended[0];
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

    /** The row's session, if its credential is still its account's. */
    private Optional<Session> live(DbRow row) {
        Long removed = removedAt.isEmpty() ? null : removedAt.get(Credentials.binding(Rows.string(row, "account"),
                                                                                        Rows.string(row, "credential")));
        if (removed != null && Rows.longValue(row, "created_at") <= removed) {
            return Optional.empty();
        }
        return credentials.sessionAccount(Rows.string(row, "account"), Rows.string(row, "credential"))
                .map(actor -> new Session(Rows.string(row, "id_sha256"), actor, Rows.longValue(row, "created_at"),
                                          Rows.longValue(row, "last_seen_at")));
    }

    private boolean hasEnded(long now, long lastSeen, long created) {
        return now - lastSeen > settings.idleTimeout().toMillis() || now - created > settings.maxAge().toMillis();
    }

    /**
     * Sessions idle or old, each by its own index. Not worth a failed sign-in: on MariaDB these range deletes met the
     * locks of sign-ins of one account at once as deadlocks (40 sign-ins racing a reset: about half answered 500),
     * and the next sign-in deletes what this one left.
     */
    private void deleteEnded(long now) {
        try {
            db.execute().namedDelete("delete-idle-admin-sessions", now - settings.idleTimeout().toMillis());
            db.execute().namedDelete("delete-old-admin-sessions", now - settings.maxAge().toMillis());
        } catch (RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "Ended console sessions were not deleted: " + e.getMessage());
        }
    }

    /**
     * Keeps the session alive. Not worth a failed request: two instances on two Galera nodes touching one session at
     * once may lose a certification, and a later request touches it again.
     */
    private void touch(String id, long now) {
        try {
            db.execute().namedUpdate("touch-admin-session", now, id, now - touchEveryMillis);
        } catch (RuntimeException e) {
            LOGGER.log(System.Logger.Level.DEBUG, "A console session's last use was not written: " + e.getMessage());
        }
    }

    private SessionKey key() {
        SessionKey loaded = key;
        if (loaded == null) {
            throw new IllegalStateException("SessionStore.start() was not called");
        }
        return loaded;
    }

    private static void audit(DbExecute transaction, Actor actor, long now, String action, String id,
                              JsonObject details) {
        AuditLog.record(transaction, AuditEntry.of(actor, now, action, null, TARGET, id, details));
    }

    private static String digest(String cookie) {
        return HexFormat.of().formatHex(Credentials.sha256(cookie));
    }
}
