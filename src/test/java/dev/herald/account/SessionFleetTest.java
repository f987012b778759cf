package dev.herald.account;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.herald.admin.Actor;
import dev.herald.admin.Role;
import dev.herald.config.HeraldConfig;
import dev.herald.storage.Database;
import dev.herald.support.AdminClient;
import dev.herald.support.MutableClock;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Sessions live in the database: one signed in through an instance is taken by every other on that database (behind
 * a balancer, after a restart), and ends everywhere at sign-out, when its account leaves the configuration, and
 * when the credential that opened it changes. Each store here is an instance with its own configuration.
 */
class SessionFleetTest {

    private static final String NEW_ALICE_TOKEN = "alice-new-token-0123456789abcdef0123456789abcdef";
    private static final Actor ALICE = new Actor("alice", Role.EDITOR);

    private TestDatabase database;
    private final List<DbClient> clients = new ArrayList<>();

    @BeforeEach
    void database() {
        database = TestDatabase.h2();
    }

    @AfterEach
    void close() throws Exception {
        clients.forEach(DbClient::close);
        database.close();
    }

    @Test
    void aSessionOpenedThroughOneInstanceIsTakenByAnotherAndEndsEverywhere() {
        SessionStore one = instance(Accounts.ALICE_TOKEN);
        SessionStore other = instance(Accounts.ALICE_TOKEN);

        String cookie = one.open(ALICE, Accounts.ALICE_TOKEN).orElseThrow().cookie();

        assertThat(other.find(cookie).orElseThrow().account().role(), is(Role.EDITOR));
        other.close(other.find(cookie).orElseThrow());
        assertThat(one.find(cookie).isPresent(), is(false));
    }

    @Test
    void aSessionEndsWhenTheTokenThatOpenedItIsReplaced() {
        String cookie = instance(Accounts.ALICE_TOKEN).open(ALICE, Accounts.ALICE_TOKEN).orElseThrow().cookie();

        SessionStore restartedWithANewToken = instance(NEW_ALICE_TOKEN);

        assertThat(restartedWithANewToken.find(cookie).isPresent(), is(false));
        assertThat("nor does an instance still on the old token take it",
                   instance(Accounts.ALICE_TOKEN).find(cookie).isPresent(), is(false));
        String fresh = restartedWithANewToken.open(ALICE, NEW_ALICE_TOKEN).orElseThrow().cookie();
        assertThat(instance(NEW_ALICE_TOKEN).find(fresh).isPresent(), is(true));
    }

    @Test
    void anAccountRemovedAndAddedBackDoesNotReviveItsSessions() {
        String cookie = instance(Accounts.ALICE_TOKEN).open(ALICE, Accounts.ALICE_TOKEN).orElseThrow().cookie();

        assertThat("an instance started without alice", instance(null).find(cookie).isPresent(), is(false));
        SessionStore addedBack = instance(Accounts.ALICE_TOKEN);

        assertThat(addedBack.find(cookie).isPresent(), is(false));
    }

    @Test
    void aForgedCookieIsRefusedWithoutAskingTheDatabase() {
        SessionStore store = instance(Accounts.ALICE_TOKEN);
        String genuine = store.open(ALICE, Accounts.ALICE_TOKEN).orElseThrow().cookie();
        String forged = (genuine.charAt(0) == 'A' ? "B" : "A") + genuine.substring(1);
        clients.getLast().close();

        assertThat(store.find(forged).isPresent(), is(false));
        assertThat(store.find("made-up").isPresent(), is(false));
        assertThat(store.find("").isPresent(), is(false));
    }

    /**
     * The shortest idle time-out allowed, one minute, ends no session in use: its last use was written once a
     * minute, so a session used every 2 s ended after 60 s (an outside review, `admin.sessions.idle-timeout: PT1M`).
     */
    @Test
    void aSessionInUseOutlivesTheShortestIdleTimeOut() {
        MutableClock clock = new MutableClock(Instant.parse("2026-12-01T06:00:00Z"));
        SessionStore store = instance(Accounts.ALICE_TOKEN, Map.of("admin.sessions.idle-timeout", "PT1M"), clock);
        String cookie = store.open(ALICE, Accounts.ALICE_TOKEN).orElseThrow().cookie();

        for (int second = 2; second <= 180; second += 2) {
            clock.advance(Duration.ofSeconds(2));
            assertThat("used every 2 s, at " + second + " s", store.find(cookie).isPresent(), is(true));
        }
        clock.advance(Duration.ofSeconds(61));
        assertThat("61 s after its last use", store.find(cookie).isPresent(), is(false));
    }

    /** An instance started now with alice's {@code token}, or without alice when null; it starts as Herald does. */
    private SessionStore instance(String token) {
        return instance(token, Map.of(), Clock.systemUTC());
    }

    private SessionStore instance(String token, Map<String, String> more, Clock clock) {
        Map<String, String> settings = new HashMap<>(Map.of("db.connection.url", database.url(),
                                                            "admin.tokens.0", AdminClient.TOKEN));
        settings.putAll(more);
        if (token != null) {
            settings.putAll(Map.of("admin.accounts.0.name", "alice",
                                   "admin.accounts.0.role", "editor",
                                   "admin.accounts.0.token-sha256", Accounts.sha256(token)));
        }
        Config config = HeraldConfig.withDefaults(List.of(ConfigSources.create(settings)));
        DbClient db = Database.open(config.get("db"), Clock.systemUTC()).client();
        clients.add(db);
        AdminSettings admin = AdminSettings.from(config.get("admin"));
        SessionStore store = new SessionStore(db, admin.sessions(), Credentials.of(admin), clock);
        store.start();
        return store;
    }
}
