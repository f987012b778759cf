package bench.bare;

import java.nio.charset.StandardCharsets;

import io.helidon.http.HeaderNames;
import io.helidon.webserver.WebServer;

/**
 * Bench only, never part of Herald: the ceiling of a Helidon start on this machine. One route at the path of
 * Herald's public feed that sends fixed bytes from memory, nothing else: no configuration file, no logging set-up,
 * no database. bench/startup.sh links it into a runtime image the way jlink/build.sh links Herald and starts it
 * with Herald's launcher: {@code bin/herald PORT}.
 */
public final class BareStart {

    private static final byte[] FEED = "{\"notifications\":[]}".getBytes(StandardCharsets.UTF_8);

    private BareStart() {
    }

    public static void main(String[] args) {
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(Integer.parseInt(args[0]))
                .routing(routing -> routing.get("/api/v1/public/{key}/notifications", (request, response) -> {
                    response.header(HeaderNames.CONTENT_TYPE, "application/json");
                    response.send(FEED);
                }))
                .build()
                .start();
        System.out.println("BareStart listening on port " + server.port());
    }
}
