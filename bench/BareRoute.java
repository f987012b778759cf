import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;

import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;

/**
 * Bench only, never part of Herald: the ceiling of the Helidon that Herald builds with (target/libs) on this machine
 * for Herald's two hot paths, with none of Herald's work. GET /feed sends fixed bytes from memory with the headers
 * Herald's feed sends; POST /track parses the JSON body as Herald does (factories made once) and answers 204.
 * Run in source-launch mode by bench/hotpaths.sh:
 *   java -cp "target/libs/*" bench/BareRoute.java PORT FEED_FILE
 */
public final class BareRoute {

    private static final JsonReaderFactory READERS = Json.createReaderFactory(Map.of());

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        byte[] feed = Files.readAllBytes(Path.of(args[1]));
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                // The blocking socket, as Herald's listener (wire.ServerLimits): Helidon 4.5.0's default NIO channel
                // writes an answer 8 KiB at a time, and without TCP_NODELAY each answer then waits 40 ms for an ACK.
                .useNio(false)
                .routing(routing -> routing
                        .get("/feed", (request, response) -> {
                            response.header(HeaderNames.CONTENT_TYPE, "application/json");
                            response.header(HeaderNames.CACHE_CONTROL, "no-cache");
                            response.header(HeaderNames.ETAG, "\"bare-route-fixed-tag\"");
                            response.send(feed);
                        })
                        .post("/track", (request, response) -> {
                            try (InputStream in = request.content().inputStream();
                                 JsonReader reader = READERS.createReader(in)) {
                                reader.readObject();
                            }
                            response.status(Status.NO_CONTENT_204).send();
                        }))
                .build()
                .start();
        System.out.println("BareRoute listening on port " + server.port());
    }
}
