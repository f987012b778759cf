package dev.herald.account;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import dev.herald.admin.Actor;
import dev.herald.admin.Role;
import dev.herald.config.HeraldConfig;
import dev.herald.storage.Database;
import dev.herald.support.TestDatabase;

import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.dbclient.DbClient;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Sessions live in the database: one signed in through an instance is taken by every other on that database (behind
 * a balancer, after a restart), and ends everywhere at sign-out or when its account leaves the configuration.
 */
class SessionFleetTest {

    @Test
    void aSessionOpenedThroughOneInstanceIsTakenByAnotherAndEndsEverywhere() throws Exception {
        try (TestDatabase database = TestDatabase.h2()) {
            Config withAlice = HeraldConfig.withDefaults(List.of(ConfigSources.create(Map.of(
                    "db.connection.url", database.url(),
                    "admin.accounts.0.name", "alice",
                    "admin.accounts.0.role", "editor",
                    "admin.accounts.0.token-sha256", Accounts.sha256(Accounts.ALICE_TOKEN)))));
            DbClient first = Database.open(withAlice.get("db"), Clock.systemUTC()).client();
            DbClient second = Database.open(withAlice.get("db"), Clock.systemUTC()).client();
            AdminSettings settings = AdminSettings.from(withAlice.get("admin"));
            SessionStore one = new SessionStore(first, settings.sessions(), Clock.systemUTC());
            SessionStore other = new SessionStore(second, settings.sessions(), Clock.systemUTC());
            Credentials configured = Credentials.of(settings);
            Credentials aliceRemoved = Credentials.of(new AdminSettings(List.of("x".repeat(40)), List.of(),
                                                                        settings.authFailures(), settings.sessions()));

            String cookie = one.open("alice");

            assertThat(other.accountOf(cookie).flatMap(configured::account).map(Actor::role).orElseThrow(),
                       is(Role.EDITOR));
            assertThat("an instance whose configuration no longer has alice",
                       other.accountOf(cookie).flatMap(aliceRemoved::account).isPresent(), is(false));
            other.close(cookie);
            assertThat(one.accountOf(cookie).isPresent(), is(false));
            first.close();
            second.close();
        }
    }
}
