package dev.herald.account;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import dev.herald.support.MainBuiltServer;
import dev.herald.support.TestDatabase;

import io.helidon.http.Method;
import io.helidon.webclient.http1.Http1Client;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static dev.herald.account.Accounts.send;
import static dev.herald.account.Accounts.signInBody;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.is;

/**
 * The team across instances on one database: what an owner changes through one instance holds on every other at its
 * next request, with no cache to wait for; an invitation is taken once whichever instances race for it; an instance
 * started later keeps the console's accounts' sessions; and an instance whose configuration has no owner keeps the
 * console's last one.
 */
abstract class TeamFleetContract {

    private TestDatabase database;
    private final List<MainBuiltServer> servers = new ArrayList<>();

    /** A fresh database for each test, which its instances share. */
    abstract TestDatabase newDatabase();

    @BeforeEach
    void database() {
        database = newDatabase();
    }

    @AfterEach
    void close() throws Exception {
        servers.forEach(MainBuiltServer::stop);
        database.close();
    }

    @Test
    void anAccountDisabledOrResetThroughOneInstanceIsRefusedByAnotherAtItsNextRequest() {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        String bobToken = accept(other, invite(one, "bob", "editor"));
        Accounts.Answer session = signIn(other, "bob", bobToken);
        assertThat(withSession(other, session, "/projects").status(), is(200));

        assertThat(owner(one, Method.PATCH, "/accounts/bob", "{\"disabled\":true}").status(), is(200));

        assertThat(withSession(other, session, "/projects").code(), is("SESSION_ENDED"));
        assertThat(bearer(other, bobToken, "/projects").status(), is(401));

        owner(other, Method.PATCH, "/accounts/bob", "{\"disabled\":false}");
        Accounts.Answer again = signIn(one, "bob", bobToken);
        assertThat(withSession(other, again, "/projects").status(), is(200));
        String link = owner(other, Method.POST, "/accounts/bob/reset", null).object().getJsonObject("invite")
                .getString("secret");
        assertThat(withSession(one, again, "/projects").code(), is("SESSION_ENDED"));
        assertThat(bearer(one, bobToken, "/projects").status(), is(401));
        assertThat(signIn(one, "bob", accept(one, link)).status(), is(201));
    }

    /**
     * A session opened through one instance while another disables its account can outlive the deletion of the
     * account's sessions: every instance reads the account at each request, so the row alone opens nothing, and
     * enabling the account deletes it.
     */
    @Test
    void aSessionWhoseRowOutlivedItsAccountsDisablingIsRefused() throws Exception {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        String token = accept(one, invite(one, "erin", "editor"));
        Accounts.Answer session = signIn(other, "erin", token);

        try (Connection connection = database.connect();
             Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE admin_accounts SET disabled_at = 1 WHERE name = 'erin'");
        }

        assertThat(withSession(one, session, "/projects").code(), is("SESSION_ENDED"));
        assertThat(withSession(other, session, "/projects").code(), is("SESSION_ENDED"));
        assertThat(bearer(other, token, "/projects").status(), is(401));
        // On Galera such a row is left by a sign-in through one node at the moment of a disable through another
        // (the account's row lock does not cross nodes): enabling ends it rather than revive it.
        assertThat(owner(one, Method.PATCH, "/accounts/erin", "{\"disabled\":false}").status(), is(200));
        assertThat("its session is not revived", withSession(other, session, "/projects").status(), is(401));
        assertThat(bearer(other, token, "/projects").status(), is(200));
    }

    @Test
    void anInstanceStartedLaterKeepsTheSessionsOfTheConsolesAccounts() {
        Http1Client one = instance(TeamContract.settings());
        Accounts.Answer session = signIn(one, "bob", accept(one, invite(one, "bob", "viewer")));

        Http1Client later = instance(TeamContract.settings());

        assertThat(withSession(later, session, "/projects").status(), is(200));
        assertThat(withSession(one, session, "/projects").status(), is(200));
    }

    @Test
    void ofTwoInstancesTakingOneLinkAtOnceOneGivesTheToken() throws Exception {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        for (int round = 0; round < 5; round++) {
            String secret = invite(one, "racer" + round, "viewer");
            CountDownLatch start = new CountDownLatch(1);
            List<CompletableFuture<Integer>> answers = new ArrayList<>();
            for (Http1Client instance : List.of(one, other, one, other)) {
                answers.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return acceptance(instance, secret).status();
                }));
            }
            start.countDown();
            List<Integer> statuses = answers.stream().map(CompletableFuture::join).toList();
            assertThat(statuses.toString(), statuses, containsInAnyOrder(200, 404, 404, 404));
        }
    }

    @Test
    void withoutAConfiguredOwnerTheLastOwnerOfTheConsoleIsNeitherDemotedNorDisabled() {
        Http1Client configuredOwner = instance(TeamContract.settings());
        String carolToken = accept(configuredOwner, invite(configuredOwner, "carol", "owner"));
        Map<String, String> noOwner = new HashMap<>(Accounts.settings());
        Http1Client withoutOwner = instance(noOwner);

        Accounts.Answer demoted = bearer(withoutOwner, carolToken, Method.PATCH, "/accounts/carol",
                                         "{\"role\":\"editor\"}");
        assertThat(demoted.status(), is(409));
        assertThat(demoted.code(), is("LAST_OWNER"));
        assertThat(bearer(withoutOwner, carolToken, Method.PATCH, "/accounts/carol", "{\"disabled\":true}").code(),
                   is("LAST_OWNER"));
        assertThat("a refused change changes nothing, its other member included",
                   bearer(withoutOwner, carolToken, Method.PATCH, "/accounts/carol",
                          "{\"disabled\":true,\"role\":\"viewer\"}").code(), is("LAST_OWNER"));
        assertThat(bearer(withoutOwner, carolToken, "/accounts/carol").object().getString("role"), is("owner"));

        String danSecret = bearer(withoutOwner, carolToken, Method.POST, "/accounts",
                                  "{\"name\":\"dan\",\"role\":\"owner\"}").object().getJsonObject("invite")
                .getString("secret");
        assertThat("an owner not yet active does not count",
                   bearer(withoutOwner, carolToken, Method.PATCH, "/accounts/carol", "{\"role\":\"editor\"}").code(),
                   is("LAST_OWNER"));
        accept(withoutOwner, danSecret);
        assertThat(bearer(withoutOwner, carolToken, Method.PATCH, "/accounts/carol", "{\"role\":\"editor\"}")
                           .status(), is(200));
        assertThat(bearer(withoutOwner, carolToken, "/accounts").status(), is(403));
    }

    /**
     * Owners of the console, with none in the configuration, disabling or demoting each other at once through two
     * instances: the team's writes are one at a time, so one of the two holds and the team keeps an owner.
     */
    @Test
    void ownersDisablingOrDemotingEachOtherAtOnceLeaveAnActiveOwner() throws Exception {
        Owners owners = twoOwnersOfTheConsole();
        String disable = "{\"disabled\":true}";
        String demote = "{\"role\":\"viewer\"}";
        List<List<Callable<Accounts.Answer>>> races = List.of(
                List.of(() -> owners.carolChanges("dave", disable), () -> owners.daveChanges("carol", disable)),
                List.of(() -> owners.carolChanges("dave", demote), () -> owners.daveChanges("carol", demote)),
                List.of(() -> owners.carolChanges("dave", disable), () -> owners.carolChanges("carol", disable)));
        for (List<Callable<Accounts.Answer>> race : races) {
            for (int round = 0; round < 5; round++) {
                List<Integer> statuses = statuses(atOnce(race));
                assertThat(statuses.toString(), statuses.stream().filter(status -> status == 200).count(), is(1L));
                assertThat(activeOwners(), is(1L));
                for (String name : List.of("carol", "dave")) {
                    assertThat(owner(owners.olive(), Method.PATCH, "/accounts/" + name,
                                     "{\"disabled\":false,\"role\":\"owner\"}").status(), is(200));
                }
            }
        }
    }

    /**
     * An owner's write racing its own disable: the caller is checked again in the write's transaction, so no write of
     * an owner is made after the one that disabled it (the audit log's order is the commits' order, the team's writes
     * being one at a time).
     */
    @Test
    void noWriteOfAnOwnerIsMadeAfterItsDisable() throws Exception {
        Owners owners = twoOwnersOfTheConsole();
        for (int round = 0; round < 10; round++) {
            String invited = "erin" + round;
            atOnce(List.of(() -> owners.carolChanges("dave", "{\"disabled\":true}"),
                           () -> fromAnywhere(owners.other(), owners.dave(), Method.POST, "/accounts",
                                              "{\"name\":\"" + invited + "\",\"role\":\"owner\"}")));
            long disabled = count("SELECT MAX(seq) FROM audit_log WHERE action = 'account.disabled'"
                                          + " AND target_id = 'dave'");
            long byDave = count("SELECT COALESCE(MAX(seq), 0) FROM audit_log WHERE actor = 'dave'"
                                        + " AND target_id = '" + invited + "'");
            assertThat("dave's invitation of " + invited + " after dave was disabled", byDave < disabled, is(true));
            owner(owners.olive(), Method.PATCH, "/accounts/dave", "{\"disabled\":false}");
        }
    }

    /** carol and dave, owners of the console, each calling through an instance without a configured owner. */
    private record Owners(Http1Client olive, String carol, String dave, Http1Client one, Http1Client other) {

        Accounts.Answer carolChanges(String name, String change) {
            return fromAnywhere(one, carol, Method.PATCH, "/accounts/" + name, change);
        }

        Accounts.Answer daveChanges(String name, String change) {
            return fromAnywhere(other, dave, Method.PATCH, "/accounts/" + name, change);
        }
    }

    /** Through an instance of olive, a configured owner, whose configuration the others do not have. */
    private Owners twoOwnersOfTheConsole() {
        Http1Client olive = instance(TeamContract.settings());
        String carol = accept(olive, invite(olive, "carol", "owner"));
        String dave = accept(olive, invite(olive, "dave", "owner"));
        return new Owners(olive, carol, dave, instance(withoutOwner()), instance(withoutOwner()));
    }

    /**
     * Sign-ins racing a disable: a session is opened before the disable, which ends it, or not at all; none is left
     * for enabling to revive (docs/security.md).
     */
    @Test
    void signInsRacingADisableLeaveNoSessionForEnablingToRevive() throws Exception {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        String bobToken = accept(one, invite(one, "bob", "editor"));
        List<Callable<Accounts.Answer>> racers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Http1Client instance = i % 2 == 0 ? one : other;
            racers.add(() -> signInFromAnywhere(instance, "bob", bobToken));
        }
        racers.add(() -> {
            Thread.sleep(10);
            return owner(one, Method.PATCH, "/accounts/bob", "{\"disabled\":true}");
        });

        List<Accounts.Answer> answers = atOnce(racers);

        assertThat(answers.getLast().status(), is(200));
        List<Accounts.Answer> signIns = answers.subList(0, 40);
        assertThat(statuses(signIns).toString(), statuses(signIns).stream()
                .allMatch(status -> status == 201 || status == 401), is(true));
        assertThat(sessionsOf("bob"), is(0L));
        assertThat(owner(other, Method.PATCH, "/accounts/bob", "{\"disabled\":false}").status(), is(200));
        for (Accounts.Answer signedIn : signIns) {
            if (signedIn.status() == 201) {
                assertThat(withSession(one, signedIn, "/projects").code(), is("SESSION_ENDED"));
            }
        }
    }

    /** A sign-in racing a reset of its account: signed in before the reset, which ends it, or refused; never a 500. */
    @Test
    void signInsRacingAResetAreRefusedOrEndedByIt() throws Exception {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        for (int round = 0; round < 3; round++) {
            String name = "carol" + round;
            String token = accept(one, invite(one, name, "editor"));
            List<Callable<Accounts.Answer>> racers = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                Http1Client instance = i % 2 == 0 ? one : other;
                racers.add(() -> signInFromAnywhere(instance, name, token));
            }
            racers.add(() -> {
                Thread.sleep(10);
                return owner(one, Method.POST, "/accounts/" + name + "/reset", null);
            });

            List<Accounts.Answer> answers = atOnce(racers);

            assertThat(answers.getLast().status(), is(200));
            List<Accounts.Answer> signIns = answers.subList(0, 40);
            assertThat(statuses(signIns).toString(), statuses(signIns).stream()
                    .allMatch(status -> status == 201 || status == 401), is(true));
            assertThat(sessionsOf(name), is(0L));
        }
    }

    @Test
    void invitationsAtOnceStopAtTheMostAccounts() throws Exception {
        Http1Client one = instance(TeamContract.settings());
        Http1Client other = instance(TeamContract.settings());
        int present = TeamStore.MOST_ACCOUNTS - 5;
        try (Connection connection = database.connect();
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO admin_accounts (name, role, created_by, created_at, updated_at)"
                             + " VALUES (?, 'viewer', 'olive', 0, 0)")) {
            for (int i = 0; i < present; i++) {
                insert.setString(1, "present" + i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        List<Callable<Accounts.Answer>> racers = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            Http1Client instance = i % 2 == 0 ? one : other;
            String name = "racer" + i;
            racers.add(() -> owner(instance, Method.POST, "/accounts", "{\"name\":\"" + name
                    + "\",\"role\":\"viewer\"}"));
        }

        List<Accounts.Answer> answers = atOnce(racers);

        assertThat(statuses(answers).stream().filter(status -> status == 201).count(), is(5L));
        assertThat(answers.stream().filter(answer -> answer.status() != 201).map(Accounts.Answer::code).distinct()
                           .toList(), is(List.of("TOO_MANY_ACCOUNTS")));
        assertThat(count("SELECT COUNT(*) FROM admin_accounts"), is((long) TeamStore.MOST_ACCOUNTS));
    }

    /** Runs each at once, on a thread of its own; their answers in their order. */
    private static List<Accounts.Answer> atOnce(List<Callable<Accounts.Answer>> requests) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(requests.size());
        try {
            List<Future<Accounts.Answer>> answers = new ArrayList<>();
            for (Callable<Accounts.Answer> request : requests) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return request.call();
                }));
            }
            start.countDown();
            List<Accounts.Answer> answered = new ArrayList<>();
            for (Future<Accounts.Answer> answer : answers) {
                answered.add(answer.get());
            }
            return answered;
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<Integer> statuses(List<Accounts.Answer> answers) {
        return answers.stream().map(Accounts.Answer::status).toList();
    }

    /** Accounts.settings(), without an owner; the test client a trusted proxy, as in TeamContract. */
    private static Map<String, String> withoutOwner() {
        Map<String, String> settings = new HashMap<>(Accounts.settings());
        settings.put("rate-limit.trusted-proxies.0", "127.0.0.1");
        return settings;
    }

    /** From an address of its own, so that the racers' refusals lock no other request out. */
    private static Accounts.Answer fromAnywhere(Http1Client http, String token, Method method, String path,
                                                String json) {
        return send(http, method, path, json, Map.of("Authorization", "Bearer " + token,
                                                     "X-Forwarded-For", anyAddress()));
    }

    private static Accounts.Answer signInFromAnywhere(Http1Client http, String name, String token) {
        return send(http, Method.POST, "/session", signInBody(name, token), Map.of("X-Forwarded-For", anyAddress()));
    }

    private static String anyAddress() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "10." + random.nextInt(256) + "." + random.nextInt(256) + "." + random.nextInt(1, 255);
    }

    private long activeOwners() throws Exception {
        return count("SELECT COUNT(*) FROM admin_accounts WHERE role = 'owner' AND token_sha256 IS NOT NULL"
                             + " AND disabled_at IS NULL");
    }

    private long sessionsOf(String account) throws Exception {
        return count("SELECT COUNT(*) FROM admin_sessions WHERE account = '" + account + "'");
    }

    private long count(String query) throws Exception {
        try (Connection connection = database.connect();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(query)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private Http1Client instance(Map<String, String> settings) {
        MainBuiltServer server = MainBuiltServer.start(database, settings);
        servers.add(server);
        return Http1Client.builder().baseUri(server.uri()).build();
    }

    /** The invitation's secret. */
    private static String invite(Http1Client http, String name, String role) {
        Accounts.Answer invited = owner(http, Method.POST, "/accounts", "{\"name\":\"" + name + "\",\"role\":\""
                + role + "\"}");
        assertThat(invited.body(), invited.status(), is(201));
        return invited.object().getJsonObject("invite").getString("secret");
    }

    /** The token the invitation gives. */
    private static String accept(Http1Client http, String secret) {
        Accounts.Answer accepted = acceptance(http, secret);
        assertThat(accepted.body(), accepted.status(), is(200));
        return accepted.object().getString("token");
    }

    private static Accounts.Answer acceptance(Http1Client http, String secret) {
        return send(http, Method.POST, "/invites/accept", "{\"secret\":\"" + secret + "\"}", Map.of());
    }

    private static Accounts.Answer signIn(Http1Client http, String name, String token) {
        Accounts.Answer signedIn = send(http, Method.POST, "/session", signInBody(name, token), Map.of());
        assertThat(signedIn.body(), signedIn.status(), is(201));
        return signedIn;
    }

    private static Accounts.Answer owner(Http1Client http, Method method, String path, String json) {
        return bearer(http, TeamContract.OLIVE_TOKEN, method, path, json);
    }

    private static Accounts.Answer bearer(Http1Client http, String token, String path) {
        return bearer(http, token, Method.GET, path, null);
    }

    private static Accounts.Answer bearer(Http1Client http, String token, Method method, String path, String json) {
        return send(http, method, path, json, Map.of("Authorization", "Bearer " + token));
    }

    private static Accounts.Answer withSession(Http1Client http, Accounts.Answer signedIn, String path) {
        return send(http, Method.GET, path, null,
                    Map.of("Cookie", SessionStore.COOKIE + "=" + signedIn.session().orElseThrow()));
    }
}
