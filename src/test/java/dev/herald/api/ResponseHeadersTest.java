package dev.herald.api;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.helidon.http.HeaderNames;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Helidon's check of every answer's headers is off (HttpVersions): Herald checks each header where it makes it. These
 * hold that every header is made in {@link ResponseHeaders} and that it refuses what could split an answer.
 */
class ResponseHeadersTest {

    private static final Path SOURCES = Path.of("src/main/java");
    /** Where a header could be made or set other than from a {@link ResponseHeaders} header. */
    private static final Pattern OTHER_WAY = Pattern.compile(
            "HeaderValues\\.create|\\.header\\(\\s*(HeaderNames\\.)?[A-Z][A-Z0-9_]*\\s*,"
            + "|\\.(set|add|setIfAbsent)\\(\\s*HeaderNames\\.|headers\\(\\)\\.(set|add|setIfAbsent)\\([^)]*,");
    /**
     * The one place that makes headers; the webhook client, which writes requests, not answers; and the mark
     * HttpVersions sets on an HTTP/1.0 request's headers.
     */
    private static final List<String> EXEMPT = List.of("dev/herald/api/ResponseHeaders.java",
                                                       "dev/herald/webhook/HttpWebhookTransport.java",
                                                       "dev/herald/wire/HttpVersions.java");

    @Test
    void everyHeaderHeraldAnswersWithIsMadeByResponseHeaders() throws IOException {
        List<String> elsewhere;
        try (Stream<Path> files = Files.walk(SOURCES)) {
            elsewhere = files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> !EXEMPT.contains(SOURCES.relativize(file).toString().replace('\\', '/')))
                    .flatMap(ResponseHeadersTest::linesMakingHeadersAnotherWay)
                    .toList();
        }
        assertThat("headers made without ResponseHeaders, unchecked now that Helidon does not check answers",
                   elsewhere, is(empty()));
    }

    @Test
    void theSearchFindsEachOtherWayOfMakingAHeader() {
        for (String line : List.of("response.header(HeaderNames.LOCATION, location);",
                                   "response.header(CURSOR, value);",
                                   "Header h = HeaderValues.createCached(HeaderNames.VARY, \"x\");",
                                   "Header h = HeaderValues.create(HeaderNames.ETAG, tag);",
                                   "response.headers().set(HeaderNames.CONTENT_TYPE, \"a\");",
                                   "response.headers().add(LINK, \"a\");",
                                   "headers.setIfAbsent(HeaderNames.VARY, \"a\");")) {
            assertThat(line, OTHER_WAY.matcher(line).find(), is(true));
        }
        for (String line : List.of("response.header(ResponseHeaders.of(HeaderNames.LOCATION, location));",
                                   "response.header(JSON);", "response.headers().add(VARY);",
                                   "headers.set(HeaderValues.CONNECTION_CLOSE);", "json.add(name, value);",
                                   "format.header(out, kind.columns());")) {
            assertThat(line, OTHER_WAY.matcher(line).find(), is(false));
        }
    }

    @Test
    void aValueThatWouldSplitTheAnswerOrBreakItsHeaderIsRefusedWhereItIsMade() {
        for (String value : List.of("a\r\nX-Injected: 1", "a\nb", "a\rb", "a\u0000b", "a\u007fb", "\u0001")) {
            assertThrows(IllegalArgumentException.class, () -> ResponseHeaders.of(HeaderNames.LOCATION, value), value);
            assertThrows(IllegalArgumentException.class, () -> ResponseHeaders.fixed(HeaderNames.VARY, value), value);
        }
        assertThat(ResponseHeaders.of(HeaderNames.LOCATION, "/api/v1/admin/projects/a-b_C9").get(),
                   is("/api/v1/admin/projects/a-b_C9"));
        assertThat(ResponseHeaders.fixed(HeaderNames.WARNING, "299 - \"endDate is past\"").get(),
                   is("299 - \"endDate is past\""));
        assertThat(ResponseHeaders.of(HeaderNames.CONTENT_LENGTH, 1234L).get(), is("1234"));
    }

    private static Stream<String> linesMakingHeadersAnotherWay(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            return java.util.stream.IntStream.range(0, lines.size())
                    .filter(i -> OTHER_WAY.matcher(lines.get(i)).find())
                    .mapToObj(i -> SOURCES.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
