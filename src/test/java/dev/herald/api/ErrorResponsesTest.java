package dev.herald.api;

import dev.herald.support.JsonBodies;

import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientResponse;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.testing.junit5.ServerTest;
import io.helidon.webserver.testing.junit5.SetUpRoute;

import jakarta.json.JsonObject;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The one error mapper on Helidon's error handling: an error answer keeps what the filters set (CORS, the rate
 * limit's headers, {@code Allow}, {@code Retry-After}) and drops what the failed handler had set for its own body.
 * Helidon 4.1.7 cleared every header before the error handler ran, 4.3.0 and later keep them all: this fails if
 * either comes back, on a route that sets the headers a handler of Herald's sets and then fails.
 */
@ServerTest
class ErrorResponsesTest {

    private final Http1Client client;

    ErrorResponsesTest(Http1Client client) {
        this.client = client;
    }

    @SetUpRoute
    static void routing(HttpRouting.Builder routing) {
        ErrorResponses.register(routing);
        routing.addFilter((chain, request, response) -> {
                    response.header(HeaderValues.create(HeaderNames.VARY, "Origin"));
                    response.header(HeaderValues.create(HeaderNames.create("RateLimit-Remaining"), "99"));
                    chain.proceed();
                })
                .get("/client-error", ErrorResponsesTest::refusedAfterHeaders)
                .get("/failure", ErrorResponsesTest::failedAfterHeaders)
                .get("/quoting", (request, response) -> {
                    String sent = "\"".repeat(500_000);
                    throw ApiException.validation(sent, sent + " is not a member this body takes");
                });
    }

    @ParameterizedTest
    @ValueSource(strings = {"/client-error", "/failure"})
    void anErrorAnswerKeepsTheFiltersHeadersAndDropsTheFailedAnswers(String path) {
        try (Http1ClientResponse response = client.get(path).request()) {
            assertThat(response.status().code(), is(path.equals("/failure") ? 500 : 409));
            assertThat(response.headers().first(HeaderNames.VARY).orElse(null), is("Origin"));
            assertThat(response.headers().first(HeaderNames.create("RateLimit-Remaining")).orElse(null), is("99"));
            assertThat(response.headers().first(HeaderNames.ALLOW).orElse(null), is("GET"));
            assertThat(response.headers().contains(HeaderNames.ETAG), is(false));
            assertThat(response.headers().contains(HeaderNames.LOCATION), is(false));
            assertThat(response.headers().contains(HeaderNames.CACHE_CONTROL), is(false));
            assertThat(response.headers().first(HeaderNames.CONTENT_TYPE).orElse(null), is("application/json"));
            assertThat(response.headers().first(HeaderNames.create("X-Content-Type-Options")).orElse(null), is("nosniff"));
            JsonObject body = JsonBodies.object(response.as(String.class));
            assertThat(body.getString("code"), is(path.equals("/failure") ? "INTERNAL_ERROR" : "CONFLICT"));
        }
    }

    /**
     * Found by the outside review: an error that quotes what the client sent (an unknown member's name) answered a
     * name of 500,000 quotes in 2 MB, twice its size escaped; eight such sign-ins whose answers were never read held
     * the whole budget of request bodies. The message and the field are cut.
     */
    @org.junit.jupiter.api.Test
    void anErrorThatQuotesTheClientIsAFewKilobytesAtMost() {
        try (Http1ClientResponse response = client.get("/quoting").request()) {
            String body = response.as(String.class);
            assertThat(response.status().code(), is(400));
            assertThat(body.length() < 4_000, is(true));
            JsonObject error = JsonBodies.object(body);
            assertThat(error.getString("error").codePointCount(0, error.getString("error").length()),
                       is(ErrorResponses.MAX_MESSAGE));
            assertThat(error.getString("error").endsWith("…"), is(true));
            assertThat(error.getJsonObject("details").getString("field").length(), is(ErrorResponses.MAX_FIELD));
        }
    }

    private static void refusedAfterHeaders(ServerRequest request, ServerResponse response) {
        setAnswerHeaders(response);
        throw ApiException.error(Status.CONFLICT_409, "CONFLICT", "Conflict");
    }

    private static void failedAfterHeaders(ServerRequest request, ServerResponse response) {
        setAnswerHeaders(response);
        throw new IllegalStateException("a failure of the handler's own");
    }

    /** What a filter sets for any answer and what a handler sets for its body, before it fails. */
    private static void setAnswerHeaders(ServerResponse response) {
        response.header(HeaderNames.ALLOW, "GET");
        response.header(HeaderNames.ETAG, "\"tag\"");
        response.header(HeaderNames.LOCATION, "/somewhere");
        response.header(HeaderNames.CACHE_CONTROL, "no-cache");
        response.header(HeaderNames.CONTENT_TYPE, "text/plain");
    }
}
