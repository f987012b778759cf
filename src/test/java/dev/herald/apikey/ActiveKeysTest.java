package dev.herald.apikey;

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
 * A key is known the moment its creation returns, and unknown the moment its revocation returns, even while the
 * change log's poller applies older changes of the same project at the same time. Found by CI: a poller's reload
 * read before a creation committed, then applied after the creation's own, took the new key out again (the feed
 * answered 401 to a key just made, until the next read of the log); a revoked key could come back likewise. Without
 * the fix, about one run in two of 300 rounds failed on this machine.
 */
class ActiveKeysTest {

    private static final int ROUNDS = 1000;

    private TestHerald herald;
    private ActiveKeys keys;

    @BeforeEach
    void start() {
        herald = TestHerald.start(TestDatabase.h2());
        keys = new ActiveKeys(herald.services().keys(), herald.services().changes(), true);
        keys.reset();
    }

    @AfterEach
    void stop() throws Exception {
        herald.close();
    }

    @Test
    void aKeyIsKnownWhenItsCreationReturnsAndGoneWhenItsRevocationDoes() throws Exception {
        Project project = herald.project();
        // What the poller does with the earlier changes of the project, as fast as it can.
        Repeatedly.during(() -> keys.changed(Change.ofProject(project.id())), ROUNDS, round -> {
            ApiKey key = herald.key(project);
            assertThat("created in round " + round, keys.find(key.key()).isPresent(), is(true));
            herald.services().keys().revoke(key, key.createdAt() + 1,
                                            herald.fixture("api-key.revoked", project.id(), key.key()));
            assertThat("revoked in round " + round, keys.find(key.key()).isPresent(), is(false));
        });
    }
}
