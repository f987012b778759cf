package dev.herald.tracking;

import java.util.ArrayList;
import java.util.List;

import dev.herald.admin.Ids;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;

/** The filter's "no" is certain; its "maybe" for ids never added stays near 1 % up to its capacity. */
class IdFilterTest {

    @Test
    void everyIdAddedIsAMaybeAndFewOthersAre() {
        int capacity = 50_000;
        IdFilter filter = new IdFilter(capacity);
        List<String> added = new ArrayList<>();
        for (int i = 0; i < capacity; i++) {
            String id = Ids.newId();
            filter.add(id);
            added.add(id);
        }
        for (String id : added) {
            assertThat(id, filter.mightContain(id), is(true));
        }
        int maybes = 0;
        for (int i = 0; i < 100_000; i++) {
            if (filter.mightContain(Ids.newId())) {
                maybes++;
            }
        }
        assertThat("false positives in 100,000, at capacity", maybes, lessThan(1_500));
        assertThat(filter.isFull(), is(false));
        filter.add("one more");
        assertThat(filter.isFull(), is(true));
        assertThat("the first caller loads its replacement", filter.claimReplacement(), is(true));
        assertThat("no other", filter.claimReplacement(), is(false));
    }

    /** Ids whose String hashes are equal ("Aa" and "BB") are unrelated to the keyed filter. */
    @Test
    void idsThatCollideInStringHashCodeDoNotCollideHere() {
        IdFilter filter = new IdFilter(10_000);
        filter.add("AaAaAaAa");
        assertThat("BBBBBBBB".hashCode(), is("AaAaAaAa".hashCode()));
        assertThat(filter.mightContain("BBBBBBBB"), is(false));
    }
}
