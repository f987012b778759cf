package dev.herald.export;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.herald.api.Json;
import dev.herald.support.AdminClient;
import dev.herald.support.TestDatabase;

import io.helidon.webclient.http1.Http1Client;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpServer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;

@ServerTest
class ExportH2Test extends ExportContract {

    ExportH2Test(Http1Client client, URI uri) {
        super(client, uri);
    }

    @SetUpServer
    static void server(WebServerConfig.Builder server) {
        startWithExportSettings(TestDatabase.h2(), server);
    }

    /**
     * The loader of docs/operations.md, run as it is written against this server: every row on disk once, however
     * many answers come within one second. It named each answer's file by the second it arrived, and with answers
     * under a second apart a later one replaced an earlier while the cursor moved on (36 % of two years' rows lost
     * in an outside trial).
     */
    @Test
    void theDocumentedLoaderKeepsEveryRowOfAnswersThatComeWithinOneSecond(@TempDir Path dir) throws Exception {
        List<Long> ids = insertMany(640);
        herald.clock().advance(SETTLE.plusMillis(1));
        String origin = uri.toString().replaceAll("/+$", "");
        Files.writeString(dir.resolve("pull.sh"), loaderScript().replace("https://herald.example", origin));
        ProcessBuilder pull = new ProcessBuilder("sh", "pull.sh").directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("pull.log").toFile());
        pull.environment().put("PROJECT", projectId);
        pull.environment().put("HERALD_ADMIN_TOKEN", AdminClient.TOKEN);
        Process run = pull.start();
        assertThat("ended within a minute", run.waitFor(60, TimeUnit.SECONDS), is(true));
        assertThat(Files.readString(dir.resolve("pull.log")), run.exitValue(), is(0));

        List<Long> stored = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> answers = Files.list(dir.resolve("rows"))) {
            files = answers.filter(file -> file.toString().endsWith(".ndjson")).sorted().toList();
        }
        for (Path file : files) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                stored.add(Json.parseObject(line.getBytes(StandardCharsets.UTF_8)).orElseThrow()
                                   .getJsonNumber("id").longValue());
            }
        }
        assertThat("answers", files.size(), greaterThan(5));
        assertThat(stored, is(ids));
    }

    /** The shell block that follows "A loop that pulls everything ready" in docs/operations.md. */
    private static String loaderScript() throws Exception {
        String operations = Files.readString(Path.of("docs/operations.md"), StandardCharsets.UTF_8);
        int from = operations.indexOf("```sh\n", operations.indexOf("A loop that pulls everything ready")) + 6;
        return operations.substring(from, operations.indexOf("```", from));
    }
}
