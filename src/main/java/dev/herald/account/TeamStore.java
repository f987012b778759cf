package dev.herald.account;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import dev.herald.admin.Actor;
import dev.herald.admin.AdminRequests;
import dev.herald.admin.Role;
import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.api.Timestamps;
import dev.herald.audit.AuditEntry;
import dev.herald.audit.AuditLog;
import dev.herald.storage.Rows;
import dev.herald.storage.Transactions;

import io.helidon.dbclient.DbClient;
import io.helidon.dbclient.DbExecute;
import io.helidon.dbclient.DbRow;
import io.helidon.http.Status;

import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;

/**
 * The accounts an owner makes in the console (docs/api.md#team), in {@code admin_accounts}, and their one-time
 * invitations, in {@code admin_invites}. Only digests are stored: of an account's token, and of an invitation's
 * secret; both are shown once, in the answer that made them. Every change is audited in its transaction, and a
 * disabled or reset account's sessions are deleted in it; {@link Credentials} reads the account at every request
 * besides, so a session of an account disabled through another instance is refused there at its next request.
 * Every write but an acceptance locks one row first ({@link #lockTeam}): the team's writes are one at a time on a
 * database, whatever instance makes them, so what one checks (the last owner, the most accounts, its caller an
 * owner) still holds when it writes.
 */
final class TeamStore implements ConsoleAccounts {

    /** Bounds the list, which is not paged: a team, not a user base. */
    static final int MOST_ACCOUNTS = 500;
    static final Duration INVITE_VALIDITY = Duration.ofDays(1);
    private static final String TARGET = "account";
    /** The row of server_keys that team writes lock ({@link #lockTeam}): no key, a lock. */
    private static final String TEAM_WRITES = "team-writes";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** An account made in the console, as listed; {@code inviteExpiresAt} null when it has no invitation. */
    record Member(String name, Role role, boolean hasToken, Long disabledAt, String createdBy, long createdAt,
                  Long inviteExpiresAt) {

        String state() {
            return disabledAt != null ? "disabled" : hasToken ? "active" : "invited";
        }

        boolean isActiveOwner() {
            return role == Role.OWNER && hasToken && disabledAt == null;
        }
    }

    /** An invitation just made: its secret exists nowhere else. */
    record Invite(Member member, String secret, long expiresAt) {
    }

    /** An invitation taken: the account's token, which exists nowhere else. */
    record Accepted(Actor account, String token) {
    }

    private final DbClient db;
    /** {@code admin.accounts}: replaced whole by a reload ({@link #reconfigure}). */
    private volatile List<AccountSettings> configured;
    private final Clock clock;

    TeamStore(DbClient db, List<AccountSettings> configured, Clock clock) {
        this.db = db;
        this.configured = List.copyOf(configured);
        this.clock = clock;
    }

    @Override
    public Optional<Active> byName(String name) {
        return db.execute().namedGet("select-active-admin-account", name).map(TeamStore::active);
    }

    /** Locks the account's row until the transaction ends, as every change of it does ({@link #change}). */
    @Override
    public Optional<Active> lockActive(DbExecute transaction, String name) {
        return transaction.namedGet("select-admin-account-for-update", name)
                .filter(row -> Rows.string(row, "token_sha256") != null && Rows.nullableLong(row, "disabled_at") == null)
                .map(TeamStore::active);
    }

    @Override
    public Optional<Active> byTokenSha256(byte[] digest) {
        return db.execute().namedGet("select-active-admin-account-by-token", HexFormat.of().formatHex(digest))
                .map(TeamStore::active);
    }

    /** The accounts of a configuration reloaded while Herald runs. */
    void reconfigure(List<AccountSettings> accounts) {
        configured = List.copyOf(accounts);
    }

    List<AccountSettings> configured() {
        return configured;
    }

    /** The account of {@code admin.accounts} of this name, which takes it whatever the database holds. */
    Optional<AccountSettings> configured(String name) {
        return configured.stream().filter(account -> account.name().equals(name)).findFirst();
    }

    /** An account of {@code admin.accounts} whose name is this one but for case, which no new account takes. */
    private Optional<AccountSettings> configuredIgnoringCase(String name) {
        return configured.stream().filter(account -> account.name().equalsIgnoreCase(name)).findFirst();
    }

    List<Member> list() {
        return db.execute().namedQuery("select-admin-accounts").map(TeamStore::member).toList();
    }

    Optional<Member> find(String name) {
        return list().stream().filter(member -> member.name().equals(name)).findFirst();
    }

    /**
     * A new account of {@code role}, without a token until its invitation is accepted. Audited as
     * {@code account.invited}.
     */
    Invite invite(String name, Role role, Actor by) {
        // Names differ by more than case (Olive beside olive would read as one account in the audit log): the
        // name is compared as given at sign-in still, and a configured one takes its case-variants too.
        Optional<AccountSettings> configuredVariant = configuredIgnoringCase(name);
        if (configuredVariant.isPresent()) {
            throw configuredAccount(configuredVariant.get().name());
        }
        String secret = newSecret();
        long[] expiresAt = new long[1];
        try {
            Transactions.run(db, transaction -> {
                lockTeam(transaction, by);
                Optional<String> taken = transaction.namedQuery("select-admin-account-names-like", name)
                        .map(row -> Rows.string(row, "name")).findFirst();
                if (taken.isPresent()) {
                    throw nameTaken(taken.get());
                }
                long accounts = Rows.longValue(transaction.namedGet("count-admin-accounts").orElseThrow(), "accounts");
                if (accounts >= MOST_ACCOUNTS) {
                    throw ApiException.error(Status.CONFLICT_409, "TOO_MANY_ACCOUNTS", "The console holds at most "
                            + MOST_ACCOUNTS + " accounts");
                }
                long now = clock.millis();
                expiresAt[0] = now + INVITE_VALIDITY.toMillis();
                transaction.namedInsert("insert-admin-account", name, role.id(), by.name(), now, now);
                transaction.namedInsert("insert-admin-invite", digest(secret), name, expiresAt[0], now);
                audit(transaction, by, now, "account.invited", name, Json.builders().createObjectBuilder()
                        .add("role", role.id()).add("inviteExpiresAt", Timestamps.format(expiresAt[0])).build());
            });
        } catch (ApiException e) {
            throw e;
        } catch (RuntimeException e) {
            // Two invitations of one name at once: the second insert breaks the key.
            if (find(name).isPresent()) {
                throw nameTaken(name);
            }
            throw e;
        }
        return new Invite(find(name).orElseThrow(), secret, expiresAt[0]);
    }

    /**
     * Changes an account of the console in one transaction: its role (audited as {@code account.role-changed}), then
     * whether it is disabled ({@code account.disabled}, every session of it ended; {@code account.enabled}, its
     * token works again, its sessions do not come back). What changes nothing leaves no line.
     */
    Member update(String name, Optional<Role> role, Optional<Boolean> disabled, Actor by) {
        change(name, by, (transaction, member, now) -> {
            Member current = member;
            if (role.isPresent() && role.get() != current.role()) {
                changeRole(transaction, current, role.get(), by, now);
                current = new Member(current.name(), role.get(), current.hasToken(), current.disabledAt(),
                                     current.createdBy(), current.createdAt(), current.inviteExpiresAt());
            }
            if (disabled.isPresent() && disabled.get() != (current.disabledAt() != null)) {
                setDisabled(transaction, current, disabled.get(), by, now);
            }
        });
        return find(name).orElseThrow();
    }

    private void changeRole(DbExecute transaction, Member member, Role role, Actor by, long now) {
        if (member.isActiveOwner() && role != Role.OWNER) {
            refuseLastOwner(transaction, member.name(), "given another role");
        }
        transaction.namedUpdate("update-admin-account-role", role.id(), now, member.name());
        audit(transaction, by, now, "account.role-changed", member.name(), Json.builders().createObjectBuilder()
                .add("role", Json.builders().createObjectBuilder().add("from", member.role().id())
                        .add("to", role.id()))
                .build());
    }

    private void setDisabled(DbExecute transaction, Member member, boolean disabled, Actor by, long now) {
        String name = member.name();
        if (disabled) {
            if (member.isActiveOwner()) {
                refuseLastOwner(transaction, name, "disabled");
            }
            transaction.namedUpdate("disable-admin-account", now, now, name);
            long ended = transaction.namedDelete("delete-account-admin-sessions", name);
            audit(transaction, by, now, "account.disabled", name, Json.builders().createObjectBuilder()
                    .add("sessionsEnded", ended).build());
        } else {
            transaction.namedUpdate("enable-admin-account", now, name);
            // On Galera a sign-in through another node can insert a session while the disable deletes them
            // (SessionStore#open locks the account's row on its node only): what was left ends here, not revived.
            transaction.namedDelete("delete-account-admin-sessions", name);
            audit(transaction, by, now, "account.enabled", name, Json.builders().createObjectBuilder().build());
        }
    }

    /**
     * The account's token no longer works, every session of it ends, and a new invitation replaces any it had: the
     * way to a new token when one is lost or leaked. Not of a disabled account. Audited as {@code account.reset}.
     */
    Invite reset(String name, Actor by) {
        String secret = newSecret();
        long[] expiresAt = new long[1];
        change(name, by, (transaction, member, now) -> {
            if (member.disabledAt() != null) {
                // Its link would give a token that opens nothing: enabling comes first, and says so.
                throw ApiException.error(Status.CONFLICT_409, "ACCOUNT_DISABLED", name + " is disabled: enable it"
                        + " before resetting its credential");
            }
            expiresAt[0] = now + INVITE_VALIDITY.toMillis();
            transaction.namedUpdate("reset-admin-account", now, name);
            transaction.namedDelete("delete-account-admin-invites", name);
            transaction.namedInsert("insert-admin-invite", digest(secret), name, expiresAt[0], now);
            long ended = transaction.namedDelete("delete-account-admin-sessions", name);
            audit(transaction, by, now, "account.reset", name, Json.builders().createObjectBuilder()
                    .add("sessionsEnded", ended).add("inviteExpiresAt", Timestamps.format(expiresAt[0])).build());
        });
        return new Invite(find(name).orElseThrow(), secret, expiresAt[0]);
    }

    /**
     * Takes the invitation of this secret, once: it is deleted by a conditional DELETE, so of two acceptances at once
     * (on one instance or two) one finds it and the other does not. Empty when it is unknown, used or expired, or its
     * account disabled (then it is not spent: enabled again, the account takes it). Audited as
     * {@code invite.accepted}, the account its actor.
     */
    Optional<Accepted> accept(String secret) {
        String token = NewAccount.token();
        Accepted[] accepted = new Accepted[1];
        Transactions.run(db, transaction -> {
            accepted[0] = null;
            long now = clock.millis();
            Optional<String> account = transaction.namedGet("select-admin-invite", digest(secret))
                    .map(row -> Rows.string(row, "account"));
            if (account.isEmpty()) {
                return;
            }
            // The account's row first, as a reset locks it: a disabled account's link is refused, not spent.
            Optional<Member> member = transaction.namedGet("select-admin-account-for-update", account.get())
                    .map(TeamStore::member).filter(found -> found.disabledAt() == null);
            if (member.isEmpty() || transaction.namedDelete("use-admin-invite", digest(secret), now) == 0
                    || transaction.namedUpdate("set-admin-account-token",
                                               HexFormat.of().formatHex(Credentials.sha256(token)), now,
                                               account.get()) == 0) {
                return;
            }
            Actor actor = new Actor(account.get(), member.get().role());
            audit(transaction, actor, now, "invite.accepted", account.get(),
                  Json.builders().createObjectBuilder().add("role", actor.role().id()).build());
            accepted[0] = new Accepted(actor, token);
        });
        return Optional.ofNullable(accepted[0]);
    }

    /** A change to an account made in the console, in one transaction with the account's row locked. */
    @FunctionalInterface
    private interface Change {
        void apply(DbExecute transaction, Member member, long now);
    }

    private void change(String name, Actor by, Change change) {
        refuseConfigured(name);
        Transactions.run(db, transaction -> {
            lockTeam(transaction, by);
            Member member = transaction.namedGet("select-admin-account-for-update", name).map(TeamStore::member)
                    .orElseThrow(() -> AdminRequests.notFound("Account"));
            change.apply(transaction, member, clock.millis());
        });
    }

    /**
     * The team's writes one at a time, across instances on one database: an owner's check (the last owner, the most
     * accounts) and its write are one step, so two owners disabling each other at once leave one of them. Then the
     * caller must still be an active owner: a request of an owner another one just disabled or demoted is refused.
     * Every team write locks this row first, then the account's: one order, no deadlock.
     */
    private void lockTeam(DbExecute transaction, Actor by) {
        if (transaction.namedUpdate("lock-team-writes") == 0) {
            // The first team write on this database; of two at once, the second breaks the key and runs again.
            transaction.namedInsert("insert-server-key", TEAM_WRITES, "0".repeat(64), 0L);
            transaction.namedUpdate("lock-team-writes");
        }
        boolean owner = configured(by.name()).isPresent()
                ? by.role().managesTeam()
                : transaction.namedGet("select-admin-account-for-update", by.name()).map(TeamStore::member)
                        .filter(Member::isActiveOwner).isPresent();
        if (!owner) {
            throw ApiException.error(Status.FORBIDDEN_403, "FORBIDDEN", by.name() + " is no longer an active owner:"
                    + " only an owner manages the team");
        }
    }

    /**
     * The team keeps one owner who can sign in: a configured one, or an active one of the console other than
     * {@code name}.
     */
    private void refuseLastOwner(DbExecute transaction, String name, String what) {
        boolean configuredOwner = configured.stream().anyMatch(account -> account.role() == Role.OWNER);
        long owners = Rows.longValue(transaction.namedGet("count-active-admin-owners").orElseThrow(), "owners");
        if (!configuredOwner && owners <= 1) {
            throw ApiException.error(Status.CONFLICT_409, "LAST_OWNER", name + " is the last owner who can sign in:"
                    + " it is not " + what + " until another owner is active");
        }
    }

    private static ApiException nameTaken(String name) {
        return ApiException.error(Status.CONFLICT_409, "CONFLICT", "An account named " + name + " exists already");
    }

    private void refuseConfigured(String name) {
        if (configured(name).isPresent()) {
            throw configuredAccount(name);
        }
    }

    private static ApiException configuredAccount(String name) {
        return ApiException.error(Status.CONFLICT_409, "CONFIGURED_ACCOUNT", name + " is an account of the"
                + " configuration (admin.accounts): it is changed there, not in the console");
    }

    private static void audit(DbExecute transaction, Actor actor, long now, String action, String name,
                              JsonObject details) {
        AuditLog.record(transaction, AuditEntry.of(actor, now, action, null, TARGET, name, details));
    }

    /** 256 random bits, base64url: 43 characters that fit a URL's fragment as they are. */
    private static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String digest(String secret) {
        return HexFormat.of().formatHex(Credentials.sha256(secret));
    }

    private static Active active(DbRow row) {
        return new Active(new Actor(Rows.string(row, "name"), role(row)),
                          HexFormat.of().parseHex(Rows.string(row, "token_sha256")));
    }

    private static Member member(DbRow row) {
        return new Member(Rows.string(row, "name"), role(row), Rows.string(row, "token_sha256") != null,
                          Rows.nullableLong(row, "disabled_at"), Rows.string(row, "created_by"),
                          Rows.longValue(row, "created_at"), Rows.nullableLong(row, "expires_at"));
    }

    /** A role a later version wrote and this one does not know reads as viewer: it may read, not change. */
    private static Role role(DbRow row) {
        return Role.of(Rows.string(row, "role")).orElse(Role.VIEWER);
    }

    /** As the API answers it; whether an invitation has expired is said by Herald's clock, not the reader's. */
    JsonObjectBuilder json(Member member) {
        JsonObjectBuilder json = Json.builders().createObjectBuilder()
                .add("name", member.name())
                .add("role", member.role().id())
                .add("source", "console")
                .add("state", member.state())
                .add("createdBy", member.createdBy())
                .add("createdAt", Timestamps.format(member.createdAt()));
        if (member.inviteExpiresAt() != null && member.state().equals("invited")) {
            json.add("inviteExpiresAt", Timestamps.format(member.inviteExpiresAt()))
                    .add("inviteExpired", member.inviteExpiresAt() <= clock.millis());
        }
        return json;
    }
}
