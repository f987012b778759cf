package dev.herald;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.herald.support.ChildHerald;
import dev.herald.support.JsonBodies;
import dev.herald.support.RawHttp;
import dev.herald.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.greaterThan;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The feed in many languages at once is bounded at the launcher's heap (docs/api.md#which-language-a-reader-gets).
 * The outside review's case (issue 32): an editor's ordinary content, a feed of a megabyte whose one short
 * announcement has fifty translations, and 64 readers at once each asking for another of the fifty. The fifty answers
 * do not all fit in the feed cache, each was built for its request alone, and together they ran the 80 MB heap out:
 * 263 of 960 answered 500, and the embedded database stayed down until a restart.
 */
class FeedLanguagesBoundTest {

    private static final String TOKEN = "feed-languages-bound-admin-token-0123456789ab";
    private static final String KEY = "FeedLanguagesBoundKey0123456789abcdefghij";
    private static final int BIG_NOTIFICATIONS = 32;
    private static final int MESSAGE_CHARACTERS = 31_000;
    private static final int READERS = 64;
    private static final int READS_EACH = 8;
    private static final List<String> LANGUAGES = List.of(
            "fr", "de", "es", "it", "pt", "nl", "pl", "sv", "da", "fi", "nb", "cs", "sk", "sl", "hr", "sr", "bg", "ro",
            "hu", "el", "tr", "ru", "uk", "be", "lt", "lv", "et", "ga", "cy", "is", "mt", "sq", "mk", "bs", "ca", "eu",
            "gl", "ar", "he", "fa", "hi", "bn", "ta", "te", "ja", "ko", "zh", "vi", "th", "id");

    @TempDir
    Path directory;

    @Test
    void readersOfFiftyLanguagesAtOnceAreAllAnsweredAndTheProcessLives() throws Exception {
        TestDatabase database = TestDatabase.h2File(directory.resolve("data"));
        try (ChildHerald herald = ChildHerald.start(directory.resolve("run"), ChildHerald.onDatabase(database.url()) + """
                admin:
                  tokens: ["%s"]
                """.formatted(TOKEN), List.of("-XX:+UseSerialGC", "-Xss512k", "-Xmx80m",
                                              "-XX:+ExitOnOutOfMemoryError"))) {
            URI api = URI.create("http://127.0.0.1:" + herald.port());
            String project = post(api, "/projects", "{\"name\":\"fifty languages\"}");
            post(api, "/projects/" + project + "/api-keys", "{\"key\":\"" + KEY + "\"}", "key");
            for (int i = 0; i < BIG_NOTIFICATIONS; i++) {
                post(api, "/projects/" + project + "/notifications", "{\"status\":\"PUBLISHED\",\"message\":\""
                        + Character.toString('a' + i % 26).repeat(MESSAGE_CHARACTERS) + "\"}");
            }
            StringBuilder translations = new StringBuilder("{");
            for (String tag : LANGUAGES) {
                translations.append(translations.length() > 1 ? "," : "").append('"').append(tag)
                        .append("\":{\"message\":\"News in ").append(tag).append("\"}");
            }
            post(api, "/projects/" + project + "/notifications", "{\"status\":\"PUBLISHED\",\"message\":\"News\","
                    + "\"translations\":" + translations + "}}");

            String feed = "/api/v1/public/" + KEY + "/notifications";
            RawHttp.Response whole = RawHttp.exchange(api, "GET " + feed + " HTTP/1.1\r\nHost: x");
            assertThat(whole.status(), is(200));
            int size = whole.body().getBytes(StandardCharsets.UTF_8).length;
            assertThat("a feed of about a megabyte", size, greaterThan(900_000));

            ExecutorService readers = Executors.newFixedThreadPool(READERS);
            Set<String> served = new HashSet<>();
            try {
                List<Future<List<RawHttp.Response>>> answers = new ArrayList<>();
                for (int i = 0; i < READERS; i++) {
                    String language = LANGUAGES.get(i % LANGUAGES.size());
                    // From four addresses: one holds 100 connections at most (limits.connections-per-client).
                    InetAddress from = InetAddress.getByName("127.41.0." + (i % 4 + 1));
                    answers.add(readers.submit(() -> {
                        List<RawHttp.Response> mine = new ArrayList<>();
                        for (int read = 0; read < READS_EACH; read++) {
                            mine.add(RawHttp.exchange(api, from, "GET " + feed + " HTTP/1.1\r\nHost: x\r\n"
                                    + "Accept-Language: " + language, new byte[0], Duration.ofSeconds(30)));
                        }
                        return mine;
                    }));
                }
                for (Future<List<RawHttp.Response>> future : answers) {
                    for (RawHttp.Response answer : future.get(180, TimeUnit.SECONDS)) {
                        assertThat(answer.body(), answer.status(), is(200));
                        assertThat(answer.body().getBytes(StandardCharsets.UTF_8).length,
                                   lessThanOrEqualTo(1 << 20));
                        served.add(answer.headers().get("content-language"));
                    }
                }
            } finally {
                readers.shutdownNow();
            }
            assertThat("alive after the reads:\n" + herald.log(), herald.isAlive(), is(true));
            // Those the cache holds are served in their language; the others in their language too while the answers
            // built for single requests have room, else in the default, which Content-Language says.
            System.out.println("languages served: " + served.size() + " " + served);
            assertThat(served.size(), greaterThan(5));
            assertThat(herald.log().toLowerCase(Locale.ROOT).contains("outofmemory"), is(false));
        }
    }

    private static String post(URI api, String path, String body) throws IOException {
        return post(api, path, body, "id");
    }

    private static String post(URI api, String path, String body, String member) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        RawHttp.Response answer = RawHttp.exchange(api, "POST /api/v1/admin" + path + " HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: "
                + bytes.length, bytes);
        assertThat(answer.body(), answer.status(), is(201));
        String value = JsonBodies.object(answer.body()).getString(member);
        assertThat(value, notNullValue());
        return value;
    }
}
