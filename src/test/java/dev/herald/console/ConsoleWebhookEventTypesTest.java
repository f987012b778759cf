package dev.herald.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.outbox.EventType;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The webhooks page (console/webhooks.js) offers exactly the event types the API accepts, in its order, each with
 * words: a type added to {@link EventType} and not to the page fails here rather than in a team's browser (it did,
 * when {@code user.state} came).
 */
class ConsoleWebhookEventTypesTest {

    /** The start of an entry of the page's EVENT_TYPES: {@code ['type', 'what it means'}. */
    private static final Pattern ENTRY = Pattern.compile("\\['([a-z.]+)', '[^']+'");

    @Test
    void thePageOffersTheEventTypesTheApiAcceptsInItsOrder() throws IOException {
        String script;
        try (InputStream in = ConsoleService.class.getResourceAsStream("/console/webhooks.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int start = script.indexOf("const EVENT_TYPES = [");
        String table = script.substring(start, script.indexOf("];", start));
        List<String> types = new ArrayList<>();
        Matcher entry = ENTRY.matcher(table);
        while (entry.find()) {
            types.add(entry.group(1));
        }
        assertThat(types, is(EventType.wireNames()));
    }
}
