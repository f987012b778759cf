package dev.herald.content;

import java.util.Random;

import dev.herald.api.ApiException;
import dev.herald.api.Json;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.sameInstance;

/**
 * What the feed serves of a stored document is one the management API accepts, and serving it again changes nothing:
 * so the feed never serves an attribute the API would refuse, whatever is in the database (issue 29, finding 4).
 */
class RichTextDocumentsTest {

    @Test
    void aStoredDocumentIsServedWithOnlyTheAttributesOfItsTypes() {
        JsonObject stored = document("""
                {"type":"doc","attrs":{"onload":"x"},"content":[
                 {"type":"image","attrs":{"src":"https://a.example/i.png","onerror":["alert(1)"],"alt":["a"],"title":"t"}},
                 {"type":"heading","attrs":{"level":"2"},"content":{"type":"image","attrs":{"onerror":"x"}}},
                 {"type":"embed","attrs":{"frame":{"src":"https://a.example/"}},"marks":[{"type":"link",
                  "attrs":{"href":"javascript:x","target":"_blank","rel":"opener"}}]},
                 {"type":"paragraph","attrs":["style","x"]}]}""");

        JsonValue served = RichTextDocuments.served(stored);

        assertThat(served, is(document("""
                {"type":"doc","attrs":{},"content":[
                 {"type":"image","attrs":{"src":"https://a.example/i.png","alt":null,"title":"t"}},
                 {"type":"heading","attrs":{"level":null},"content":null},
                 {"type":"embed","attrs":{},"marks":[{"type":"link","attrs":{"href":null,"target":"_blank"}}]},
                 {"type":"paragraph","attrs":null}]}""")));
        RichTextDocuments.require(served.asJsonObject(), "message");
    }

    /**
     * 5,000 documents of known and unknown types, attributes of every kind and value, content and marks of every
     * shape: what is served passes the API's check, and is served as itself.
     */
    @Test
    void whatIsServedIsAcceptedAndServedUnchanged() {
        String[] types = {"\"doc\"", "\"paragraph\"", "\"heading\"", "\"image\"", "\"link\"", "\"orderedList\"",
                          "\"codeBlock\"", "\"bold\"", "\"embed\"", "\"constructor\"", "7", "null"};
        String[] names = {"href", "src", "alt", "title", "level", "start", "order", "language", "target", "onerror",
                          "style", "action", "data", "srcdoc", "url", "srcset", "class", "ONCLICK", "__proto__"};
        String[] values = {"null", "\"https://a.example/\"", "\"javascript:alert(1)\"", "\"x\"", "[\"alert(1)\"]",
                           "{\"src\":\"javascript:x\"}", "2", "7", "2.5", "-3", "1e3", "true", "[]", "{}"};
        Random random = new Random(29);
        int accepted = 0;
        for (int i = 0; i < 5000; i++) {
            JsonObject stored = document(node(random, types, names, values, 3));
            JsonValue served = RichTextDocuments.served(stored);
            try {
                RichTextDocuments.require(served.asJsonObject(), "message");
            } catch (ApiException refused) {
                throw new AssertionError(stored + " served as " + served + ", which the API refuses: "
                                                 + refused.getMessage(), refused);
            }
            assertThat(stored.toString(), RichTextDocuments.served(served.asJsonObject()), sameInstance(served));
            if (served == stored) {
                accepted++;
            }
        }
        assertThat("some are in form already", accepted > 100, is(true));
    }

    private static String node(Random random, String[] types, String[] names, String[] values, int depth) {
        StringBuilder node = new StringBuilder("{\"type\":").append(types[random.nextInt(types.length)]);
        if (random.nextInt(3) > 0) {
            node.append(",\"attrs\":");
            if (random.nextInt(10) == 0) {
                node.append(values[random.nextInt(values.length)]);
            } else {
                node.append('{');
                // Each name once: a document with a name twice is no JSON this server reads.
                int first = random.nextInt(names.length);
                for (int a = random.nextInt(3); a > 0; a--) {
                    node.append('"').append(names[(first + a) % names.length]).append("\":")
                            .append(values[random.nextInt(values.length)]).append(a > 1 ? "," : "");
                }
                node.append('}');
            }
        }
        for (String children : new String[] {"content", "marks"}) {
            if (depth > 0 && random.nextBoolean()) {
                node.append(",\"").append(children).append("\":");
                if (random.nextInt(8) == 0) {
                    node.append(node(random, types, names, values, depth - 1));
                } else {
                    node.append('[');
                    for (int c = random.nextInt(3); c > 0; c--) {
                        node.append(node(random, types, names, values, depth - 1)).append(c > 1 ? "," : "");
                    }
                    node.append(']');
                }
            }
        }
        return node.append('}').toString();
    }

    private static JsonObject document(String json) {
        return Json.parseObject(json.getBytes(java.nio.charset.StandardCharsets.UTF_8)).orElseThrow();
    }
}
