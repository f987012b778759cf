package dev.herald.audience;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import dev.herald.api.ApiException;
import dev.herald.api.Json;
import dev.herald.identity.UserIdentity;

import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The audience rules on their own (docs/api.md#audience): every mistake named by its path, every operator's meaning,
 * the laws of all / any / not, and the rollout's spread and stability.
 */
class AudienceTest {

    private static final long NOW = Instant.parse("2026-11-22T10:00:00Z").toEpochMilli();
    private static final String ID = "n_0123456789abcdef";

    // --- validation: each mistake a 400 naming its path -------------------------------------------------------

    @Test
    void anUnknownOperatorIsNamedByItsPathAndListsTheOperators() {
        ApiException refused = refused("""
                {"all":[{"attribute":"plan","operator":"equals","value":"pro"},
                        {"attribute":"seats","operator":"atLeast","value":3},
                        {"attribute":"plan","operator":"is","value":"pro"}]}""");
        assertThat(refused.invalidField(), is("audience.all[2].operator"));
        assertThat(refused.allowed(), is(Operator.NAMES));
        assertThat(refused.getMessage(), containsString("versionAtLeast"));
    }

    @Test
    void mistakesDeepInTheTreeAreNamedByTheirPaths() {
        assertThat(refused("{\"any\":[{\"not\":{\"attribute\":\"\",\"operator\":\"exists\"}}]}").invalidField(),
                   is("audience.any[0].not.attribute"));
        assertThat(refused("{\"all\":[{\"attribute\":\"a\",\"operator\":\"in\",\"value\":[\"x\",{}]}]}").invalidField(),
                   is("audience.all[0].value[1]"));
        assertThat(refused("{\"all\":[{\"attribute\":\"a\",\"operator\":\"exists\",\"value\":1}]}").invalidField(),
                   is("audience.all[0].value"));
        assertThat(refused("{\"all\":[{\"attribute\":\"a\",\"operator\":\"equals\"}]}").invalidField(),
                   is("audience.all[0].value"));
        assertThat(refused("{\"all\":[{\"rollout\":101}]}").invalidField(), is("audience.all[0].rollout"));
        assertThat(refused("{\"all\":[]}").invalidField(), is("audience.all"));
        assertThat(refused("{\"all\":[{\"rollout\":5}],\"any\":[]}").invalidField(), is("audience.any"));
        assertThat(refused("{\"attribute\":\"a\",\"operator\":\"exists\",\"valeu\":1}").invalidField(),
                   is("audience.valeu"));
        assertThat(refused("[]").invalidField(), is("audience"));
        assertThat(refused("{}").invalidField(), is("audience"));
    }

    @Test
    void eachOperatorRefusesAValueOfTheWrongKind() {
        Map<String, String> wrong = Map.of("equals", "[1]", "in", "\"x\"", "contains", "\"\"", "greaterThan", "\"3\"",
                                           "before", "\"yesterday\"", "withinLastDays", "0",
                                           "versionAtLeast", "\"two\"", "startsWith", "3");
        wrong.forEach((operator, value) -> assertThat(operator, refused(
                "{\"attribute\":\"a\",\"operator\":\"" + operator + "\",\"value\":" + value + "}").invalidField(),
                is("audience.value")));
    }

    @Test
    void depthConditionsAndSizeAreBounded() {
        String eight = "{\"rollout\":5}";
        for (int i = 1; i < 8; i++) {
            eight = "{\"not\":" + eight + "}";
        }
        parse(eight);
        ApiException deep = refused("{\"not\":" + eight + "}");
        assertThat(deep.invalidField(), is("audience" + ".not".repeat(8)));

        StringBuilder many = new StringBuilder("{\"any\":[");
        for (int i = 0; i <= 100; i++) {
            many.append(i == 0 ? "" : ",").append("{\"attribute\":\"a\",\"operator\":\"equals\",\"value\":").append(i)
                    .append('}');
        }
        ApiException tooMany = refused(many.append("]}").toString());
        assertThat(tooMany.invalidField(), is("audience.any[100]"));

        String large = "{\"attribute\":\"a\",\"operator\":\"in\",\"value\":[" + ("\"" + "x".repeat(200) + "\",")
                .repeat(90) + "\"y\"]}";
        assertThat(large.getBytes(StandardCharsets.UTF_8).length > 16 * 1024, is(true));
        assertThat(refused(large).invalidField(), is("audience"));
    }

    // --- evaluation -------------------------------------------------------------------------------------------

    @Test
    void equalsNotEqualsInAndNotInCompareScalarsWithoutCoercion() {
        UserIdentity user = user("u1", "fr-FR", Map.of("plan", "pro", "seats", 3L, "beta", true, "ratio", 0.5,
                                                        "roles", List.of("admin", "billing")));
        assertThat(matches("plan", "equals", "\"pro\"", user), is(true));
        assertThat(matches("plan", "equals", "\"Pro\"", user), is(false));
        assertThat(matches("seats", "equals", "3.0", user), is(true));
        assertThat("no coercion", matches("seats", "equals", "\"3\"", user), is(false));
        assertThat(matches("beta", "equals", "true", user), is(true));
        assertThat(matches("plan", "notEquals", "\"free\"", user), is(true));
        assertThat("absent matches notEquals", matches("missing", "notEquals", "\"x\"", user), is(true));
        assertThat(matches("plan", "in", "[\"team\",\"pro\"]", user), is(true));
        assertThat("an array claim is in when a member is", matches("roles", "in", "[\"billing\"]", user), is(true));
        assertThat(matches("plan", "notIn", "[\"team\",\"pro\"]", user), is(false));
        assertThat(matches("missing", "notIn", "[\"x\"]", user), is(true));
        assertThat(matches("sub", "equals", "\"u1\"", user), is(true));
        assertThat(matches("locale", "startsWith", "\"fr\"", user), is(true));
    }

    @Test
    void containsStartsWithAndExists() {
        UserIdentity user = user("u1", null, Map.of("email", "ada@example.com", "roles", List.of("admin", "billing")));
        assertThat(matches("email", "contains", "\"@example.\"", user), is(true));
        assertThat(matches("roles", "contains", "\"admin\"", user), is(true));
        assertThat("a member, not a part of one", matches("roles", "contains", "\"adm\"", user), is(false));
        assertThat(matches("email", "startsWith", "\"ada@\"", user), is(true));
        assertThat(matches("roles", "startsWith", "\"bill\"", user), is(true));
        assertThat(exists("email", user), is(true));
        assertThat(exists("phone", user), is(false));
        assertThat(exists("sub", user), is(true));
        assertThat("no locale claim", exists("locale", user), is(false));
    }

    @Test
    void numbersCompareByValueAndOtherTypesNeverMatch() {
        UserIdentity user = user("u1", null, Map.of("seats", 10L, "score", 2.5, "name", "10"));
        assertThat(matches("seats", "greaterThan", "9", user), is(true));
        assertThat(matches("seats", "greaterThan", "10", user), is(false));
        assertThat(matches("seats", "atLeast", "10", user), is(true));
        assertThat(matches("seats", "lessThan", "10.5", user), is(true));
        assertThat(matches("score", "atMost", "2.5", user), is(true));
        assertThat(matches("score", "lessThan", "2.5", user), is(false));
        for (String operator : List.of("greaterThan", "lessThan", "atLeast", "atMost")) {
            assertThat(operator, matches("name", operator, "10", user), is(false));
            assertThat(operator, matches("missing", operator, "10", user), is(false));
        }
    }

    @Test
    void datesCompareAsInstantsFromIsoTextOrEpochSeconds() {
        long signedUp = Instant.parse("2026-11-20T10:00:00Z").getEpochSecond();
        UserIdentity user = user("u1", null, Map.of("signedUpAt", signedUp, "trialEnds", "2026-12-01T00:00:00+01:00",
                                                    "bad", "soon"));
        assertThat(matches("signedUpAt", "after", "\"2026-11-01T00:00:00Z\"", user), is(true));
        assertThat(matches("signedUpAt", "before", String.valueOf(signedUp + 1), user), is(true));
        assertThat(matches("signedUpAt", "before", String.valueOf(signedUp), user), is(false));
        assertThat(matches("trialEnds", "after", "\"2026-11-30T22:59:59Z\"", user), is(true));
        assertThat(matches("trialEnds", "after", "\"2026-11-30T23:00:00Z\"", user), is(false));
        assertThat(matches("signedUpAt", "withinLastDays", "2", user), is(true));
        assertThat(matches("signedUpAt", "withinLastDays", "1", user), is(false));
        assertThat("a future instant is not in the last days", matches("trialEnds", "withinLastDays", "30", user),
                   is(false));
        assertThat(matches("bad", "before", "\"2030-01-01T00:00:00Z\"", user), is(false));
        assertThat(matches("bad", "after", "\"2000-01-01T00:00:00Z\"", user), is(false));
    }

    @Test
    void versionsCompareNumericallyPartByPart() {
        assertThat(version("2.10", "versionAtLeast", "2.9"), is(true));
        assertThat(version("2.9", "versionBelow", "2.10"), is(true));
        assertThat(version("2.3", "versionAtLeast", "2.3.0"), is(true));
        assertThat(version("2.3.0", "versionBelow", "2.3"), is(false));
        assertThat(version("v2.3.1", "versionAtLeast", "2.3.1"), is(true));
        assertThat("a pre-release is below its release", version("3.0.0-beta.2", "versionBelow", "3.0.0"), is(true));
        assertThat(version("3.0.0-beta.10", "versionAtLeast", "3.0.0-beta.2"), is(true));
        assertThat(version("3.0.0-alpha", "versionBelow", "3.0.0-beta"), is(true));
        assertThat(version("3.0.0+build.7", "versionAtLeast", "3.0.0"), is(true));
        assertThat("no version passes neither", version("latest", "versionBelow", "9"), is(false));
        assertThat(version("latest", "versionAtLeast", "0"), is(false));
    }

    @Test
    void notAllAndAnyFollowTheirLaws() {
        Random random = new Random(31);
        String[] plans = {"free", "pro", "team"};
        for (int i = 0; i < 500; i++) {
            UserIdentity user = user("u" + i, null, Map.of("plan", plans[random.nextInt(3)],
                                                           "seats", (long) random.nextInt(20)));
            String a = "{\"attribute\":\"plan\",\"operator\":\"equals\",\"value\":\"pro\"}";
            String b = "{\"attribute\":\"seats\",\"operator\":\"atLeast\",\"value\":10}";
            boolean ma = parse(a).matches(user, ID, NOW);
            boolean mb = parse(b).matches(user, ID, NOW);
            assertThat(parse("{\"all\":[" + a + "," + b + "]}").matches(user, ID, NOW), is(ma && mb));
            assertThat(parse("{\"any\":[" + a + "," + b + "]}").matches(user, ID, NOW), is(ma || mb));
            assertThat(parse("{\"not\":" + a + "}").matches(user, ID, NOW), is(!ma));
            assertThat("not of all is any of nots", parse("{\"not\":{\"all\":[" + a + "," + b + "]}}").matches(user, ID, NOW),
                       is(parse("{\"any\":[{\"not\":" + a + "},{\"not\":" + b + "}]}").matches(user, ID, NOW)));
            assertThat("notEquals is not of equals",
                       parse("{\"attribute\":\"plan\",\"operator\":\"notEquals\",\"value\":\"pro\"}").matches(user, ID, NOW),
                       is(!ma));
        }
    }

    @Test
    void aRolloutTakesItsShareOfUsersAndAlwaysTheSameOnes() {
        Audience quarter = parse("{\"rollout\":25}");
        int in = 0;
        for (int i = 0; i < 10_000; i++) {
            UserIdentity user = user("user-" + i, null, Map.of());
            boolean first = quarter.matches(user, ID, NOW);
            assertThat("stable", quarter.matches(user, ID, NOW + 86_400_000L), is(first));
            in += first ? 1 : 0;
        }
        assertThat("near 25 %: " + in, in > 2_300 && in < 2_700, is(true));
        UserIdentity someone = user("user-1", null, Map.of());
        assertThat(parse("{\"rollout\":0}").matches(someone, ID, NOW), is(false));
        assertThat(parse("{\"rollout\":100}").matches(someone, ID, NOW), is(true));
        assertThat("a fixed function of id and sub", RolloutBucket.of(ID, "user-1"), is(RolloutBucket.of(ID, "user-1")));
    }

    @Test
    void aNestedRuleExplainsEachNodeRootLast() {
        Audience audience = parse("""
                {"all":[{"attribute":"plan","operator":"equals","value":"pro"},
                        {"not":{"attribute":"seats","operator":"lessThan","value":5}}]}""");
        List<Audience.Outcome> outcomes = audience.explain(user("u", null, Map.of("plan", "pro", "seats", 2L)), ID, NOW);
        assertThat(outcomes, is(List.of(new Audience.Outcome("audience.all[0]", true),
                                         new Audience.Outcome("audience.all[1].not", true),
                                         new Audience.Outcome("audience.all[1]", false),
                                         new Audience.Outcome("audience", false))));
    }

    @Test
    void aStoredRuleThatNoLongerParsesReachesNoOne() {
        UserIdentity anyone = user("u", null, Map.of("a", 1L));
        assertThat(Audience.stored("{\"attribute\":\"a\",\"operator\":\"resembles\",\"value\":1}")
                           .matches(anyone, ID, NOW), is(false));
        assertThat(Audience.stored("not json").matches(anyone, ID, NOW), is(false));
        assertThat(Audience.stored(parse("{\"rollout\":100}").text()).matches(anyone, ID, NOW), is(true));
        assertThat(Audience.stored(null), is((Audience) null));
    }

    // --- helpers ---------------------------------------------------------------------------------------------

    private static Audience parse(String json) {
        JsonObject value = Json.parseObject(json.getBytes(StandardCharsets.UTF_8)).orElseThrow();
        return Audience.parse(value, "audience");
    }

    private static ApiException refused(String json) {
        try (JsonReader reader = jakarta.json.Json.createReader(new StringReader(json))) {
            JsonValue value = reader.readValue();
            return assertThrows(ApiException.class, () -> Audience.parse(value, "audience"));
        }
    }

    private static boolean matches(String attribute, String operator, String value, UserIdentity user) {
        return parse("{\"attribute\":\"" + attribute + "\",\"operator\":\"" + operator + "\",\"value\":" + value + "}")
                .matches(user, ID, NOW);
    }

    private static boolean exists(String attribute, UserIdentity user) {
        return parse("{\"attribute\":\"" + attribute + "\",\"operator\":\"exists\"}").matches(user, ID, NOW);
    }

    private static boolean version(String claim, String operator, String value) {
        return matches("app", operator, "\"" + value + "\"", user("u", null, Map.of("app", claim)));
    }

    static UserIdentity user(String sub, String locale, Map<String, Object> attrs) {
        return new UserIdentity("p_test", sub, locale, new HashMap<>(attrs), NOW + 3_600_000L);
    }
}
