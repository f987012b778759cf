package dev.herald.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.audience.Operator;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * The audience builder (console/audience.js) offers exactly the server's operators, in the server's order: an
 * operator added to {@link Operator} and not to the builder, or the other way round, fails here rather than in a
 * team's browser.
 */
class ConsoleAudienceOperatorsTest {

    /** An entry of the builder's OPERATORS: {@code ['name', 'words', 'kind']}. */
    private static final Pattern ENTRY = Pattern.compile("\\['(\\w+)', '[^']+', '(\\w+)'\\]");

    @Test
    void theBuilderOffersTheServersOperatorsInItsOrder() throws IOException {
        String script;
        try (InputStream in = ConsoleService.class.getResourceAsStream("/console/audience.js")) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String table = script.substring(script.indexOf("const OPERATORS = ["), script.indexOf("];"));
        List<String> names = new ArrayList<>();
        Matcher entry = ENTRY.matcher(table);
        while (entry.find()) {
            names.add(entry.group(1));
        }
        assertThat(names, is(Operator.NAMES));
    }
}
