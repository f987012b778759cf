package dev.herald.api;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

class MediaTypesTest {

    private static final List<String> JSON = List.of("application/json");

    @ParameterizedTest
    @ValueSource(strings = {"application/json", "Application/JSON", " application/json ", "application/json;",
                            "application/json; charset=utf-8", "application/json;charset=\"UTF-8\"",
                            "application/json; ; charset=utf-8", "application/json; v=1"})
    void theRoutesTypeWithUtf8OrNoCharsetIsRead(String contentType) {
        assertThat(contentType, MediaTypes.isOneOf(contentType, JSON), is(true));
    }

    // ";" alone split into no parts at all, and the check failed on the first (a 500 with a stack trace per request).
    @ParameterizedTest
    @ValueSource(strings = {";", ";;", " ; ", "", " ", ";charset=utf-8", "application/json; charset",
                            "application/json; =utf-8", "application/json; charset=latin1", "text/plain", "*/*",
                            "application/json, text/plain", "/"})
    void anythingElseIsRefused(String contentType) {
        assertThat(contentType, MediaTypes.isOneOf(contentType, JSON), is(false));
    }
}
