package dev.herald.notification;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * A notification's entity tag ({@code If-Match} on the management API) across a rolling upgrade: instances of two
 * versions answer and check the same tags, so an editor whose read and write reach different ones is not refused
 * 412 for a change no one made. The literal is the tag the version before this member (schema 32) computed for the
 * same notification.
 */
class NotificationTagTest {

    private static final Notification WITHOUT = new Notification("n1", "p1", NotificationStatus.PUBLISHED, "Title",
                                                                  "Hello", "https://cdn.example.com/i.png", Action.NONE,
                                                                  "default", null, null, 1_000L, 2_000L);

    /** {@code NotificationPreconditions.tag} of {@link #WITHOUT} at commit 0cab890, schema 32. */
    private static final String TAG_BEFORE = "\"2EEqatXEmDA0yGnmw2iOAj\"";

    @Test
    void aNotificationWithoutADescriptionHasTheTagTheVersionBeforeGaveIt() {
        assertThat(NotificationPreconditions.tag(WITHOUT, Optional.empty()), is(TAG_BEFORE));
    }

    @Test
    void aTranslatedNotificationWithoutDescriptionsHasTheTagTheVersionBeforeGaveIt() {
        Notification translated = new Notification("n1", "p1", NotificationStatus.PUBLISHED, "Title", "Hello",
                                                   "https://cdn.example.com/i.png", null, Action.NONE, "default", null,
                                                   null, 1_000L, 2_000L, null, "en",
                                                   new TreeMap<>(Map.of("fr", new Translation(null, "Bonjour", null,
                                                                                              null, null))), "en");
        // NotificationPreconditions.tag of the same notification at commit 0cab890.
        assertThat(NotificationPreconditions.tag(translated, Optional.empty()), is("\"YDShakd2HdQjegol4FwWN4\""));
    }

    @Test
    void aDescriptionIsPartOfTheTag() {
        Notification described = new Notification("n1", "p1", NotificationStatus.PUBLISHED, "Title", "Hello",
                                                  "https://cdn.example.com/i.png", "A blue shoe", Action.NONE,
                                                  "default", null, null, 1_000L, 2_000L, null, null, null, null);
        assertThat(NotificationPreconditions.tag(described, Optional.empty()), is(not(TAG_BEFORE)));
    }
}
