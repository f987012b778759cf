package dev.herald.feed;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import dev.herald.apikey.ApiKey;
import dev.herald.apikey.OrderBy;
import dev.herald.api.Json;
import dev.herald.audience.Audience;
import dev.herald.identity.UserIdentity;
import dev.herald.notification.Action;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Answers for users are joined from the entries' JSON, not written again: the same bytes {@link FeedJson} writes for
 * the same entries, in the key's order, and rule 3's 1000 newest of what the user sees.
 */
class KeyFeedTest {

    private static final long NOW = 1_800_000_000_000L;
    private static final Audience PRO = Audience.parse(Json.parseObject(
            "{\"attribute\":\"plan\",\"operator\":\"equals\",\"value\":\"pro\"}".getBytes(StandardCharsets.UTF_8))
                                                               .orElseThrow(), "audience");

    @Test
    void aUsersAnswerIsByteForByteWhatTheFeedsWriterGivesForItsEntries() {
        ApiKey key = new ApiKey("k".repeat(40), "p", false, false, OrderBy.START_DATE_ASC, 0, null);
        List<FeedEntry> everyone = List.of(entry("a", 1, 500L), entry("b", 2, null));
        List<KeyFeed.Targeted> targeted = List.of(new KeyFeed.Targeted(entry("t\"quoted\u2028", 3, 100L), PRO));
        KeyFeed feed = KeyFeed.of(key, everyone.stream().sorted(FeedOrder.of(key.orderBy())).toList(), targeted, NOW,
                                  Long.MAX_VALUE);

        FeedAnswer answer = feed.answerFor(user("pro"), NOW);
        List<FeedEntry> expected = Stream.concat(everyone.stream(), Stream.of(targeted.get(0).entry()))
                .sorted(FeedOrder.of(key.orderBy())).toList();
        assertThat(new String(answer.body(), StandardCharsets.UTF_8),
                   is(new String(FeedJson.bytes(expected), StandardCharsets.UTF_8)));
        assertThat(answer.ids(), is(expected.stream().map(FeedEntry::id).toList()));
        assertThat(feed.answerFor(user("free"), NOW), is(feed.everyone()));
    }

    @Test
    void aUserSeesTheThousandNewestOfWhatIsForEveryoneAndWhatTheyMatch() {
        ApiKey key = new ApiKey("k".repeat(40), "p", false, false, OrderBy.CREATED_AT_ASC, 0, null);
        List<FeedEntry> everyone = new ArrayList<>();
        for (int i = 0; i < PublicFeedService.MAX_NOTIFICATIONS; i++) {
            everyone.add(entry("e" + i, i, null));
        }
        List<KeyFeed.Targeted> targeted = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            targeted.add(new KeyFeed.Targeted(entry("t" + i, 2000 + i, null), PRO));
        }
        KeyFeed feed = KeyFeed.of(key, everyone, targeted, NOW, Long.MAX_VALUE);
        List<String> ids = feed.answerFor(user("pro"), NOW).ids();
        assertThat(ids.size(), is(PublicFeedService.MAX_NOTIFICATIONS));
        assertThat("the five oldest for everyone make room", ids.get(0), is("e5"));
        assertThat(ids.get(ids.size() - 1), is("t4"));
    }

    private static FeedEntry entry(String id, long sequence, Long startAt) {
        return new FeedEntry(id, null, "message " + id, null, null, Action.NONE, "default", startAt, null,
                             sequence * 1000, sequence);
    }

    private static UserIdentity user(String plan) {
        return new UserIdentity("p", "user-" + plan, null, Map.of("plan", plan), NOW + 60_000);
    }
}
