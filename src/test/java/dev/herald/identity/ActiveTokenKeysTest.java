package dev.herald.identity;

import java.security.SecureRandom;
import java.util.Base64;

import dev.herald.changes.Change;
import dev.herald.project.Project;
import dev.herald.support.Repeatedly;
import dev.herald.support.TestDatabase;
import dev.herald.support.TestHerald;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A token key verifies the moment its creation returns and no longer the moment its revocation returns, even while
 * the change log's poller applies older changes of the same project at the same time (apikey.ActiveKeysTest: the
 * same race). Without the fix, about one run in two of 300 rounds found a revoked key verifying again.
 */
class ActiveTokenKeysTest {

    private static final int ROUNDS = 1000;
    private static final SecureRandom RANDOM = new SecureRandom();

    private TestHerald herald;
    private TokenKeyStore store;
    private ActiveTokenKeys keys;

    @BeforeEach
    void start() {
        herald = TestHerald.start(TestDatabase.h2());
        store = herald.services().userTokens().store();
        keys = new ActiveTokenKeys(store, herald.services().changes(), true);
        keys.reset();
    }

    @AfterEach
    void stop() throws Exception {
        herald.close();
    }

    @Test
    void aKeyVerifiesWhenItsCreationReturnsAndNotWhenItsRevocationDoes() throws Exception {
        Project project = herald.project();
        // What the poller does with the earlier changes of the project, as fast as it can.
        Repeatedly.during(() -> keys.changed(Change.ofProject(project.id())), ROUNDS, round -> {
            TokenKey key = new TokenKey(kid(), project.id(), TokenAlgorithm.HS256, secret(), null, round, null);
            store.create(key, herald.fixture("token-key.created", project.id(), key.kid()));
            assertThat("created in round " + round, keys.find(key.kid()).isPresent(), is(true));
            store.revoke(key, round + 1, herald.fixture("token-key.revoked", project.id(), key.kid()));
            assertThat("revoked in round " + round, keys.find(key.kid()).isPresent(), is(false));
        });
    }

    private static String kid() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String secret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
