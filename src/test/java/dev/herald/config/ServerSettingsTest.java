package dev.herald.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.helidon.webserver.WebServer;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The first level of {@code server.*} Herald knows is Helidon's own, as its webserver module describes its settings
 * (config-metadata.json): an upgrade that adds or renames one fails here, before an operator's setting is called
 * unknown or a typo goes unreported.
 */
class ServerSettingsTest {

    private static final Set<String> SERVER_TYPES = Set.of("io.helidon.webserver.ListenerConfig",
                                                           "io.helidon.webserver.WebServer");

    @Test
    void theKnownServerSettingsAreHelidonsListenerAndServerOptions() throws IOException {
        Set<String> helidons = new TreeSet<>();
        for (URL metadata : Collections.list(WebServer.class.getClassLoader()
                                                     .getResources("META-INF/helidon/config-metadata.json"))) {
            try (InputStream in = metadata.openStream(); JsonReader reader = Json.createReader(in)) {
                for (JsonValue module : reader.readArray()) {
                    for (JsonValue type : module.asJsonObject().getJsonArray("types")) {
                        JsonObject described = type.asJsonObject();
                        if (SERVER_TYPES.contains(described.getString("type"))) {
                            described.getJsonArray("options").forEach(option -> helidons.add(
                                    option.asJsonObject().getString("key")));
                        }
                    }
                }
            }
        }
        assertThat("Helidon's metadata was found", helidons.isEmpty(), is(false));
        assertThat(List.copyOf(new TreeSet<>(KnownSettings.SERVER_OPTIONS)), is(List.copyOf(helidons)));
    }
}
