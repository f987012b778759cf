package dev.herald.account;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

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
     * account's sessions: every instance reads the account at each request, so the row alone opens nothing.
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
