package dev.herald.browser;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import dev.herald.project.Project;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.not;

/**
 * Issue 32, point 5 and 6: the performance section per language served. A table of each language's figures beside
 * the announcements' (only once more than one language has data), its CSV, and a filter, by keyboard, that restricts
 * every figure of the section to one language. No Content-Security-Policy report.
 */
class ConsoleStatsLanguagesBrowserTest extends DrivenConsoleTest {

    @Test
    void theLanguagesTableItsCsvAndTheLanguageFilter() throws IOException, SQLException {
        Project project = console.server.herald().project();
        String sale = console.server.herald().notification(project).message("Spring sale").save().id();
        String quiet = console.server.herald().notification(project).message("Quiet one").save().id();
        // As the management API stores them (lang-api); before the first interaction, which reads them.
        try (Connection connection = console.server.herald().database().connect();
             PreparedStatement update = connection.prepareStatement(
                     "UPDATE notifications SET locale = 'en', translations = ? WHERE id = ?")) {
            update.setString(1, "{\"de\":{\"title\":null,\"message\":\"Frühlingsangebot\",\"image\":null,"
                    + "\"action\":null},\"fr\":{\"title\":null,\"message\":\"Soldes\",\"image\":null,\"action\":null}}");
            update.setString(2, sale);
            update.executeUpdate();
        }
        track(sale, "de-AT", "impression", "impression", "click");
        track(sale, "fr", "impression");
        track(sale, "en-GB", "impression");
        track(quiet, "de", "impression");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.signIn("alice", ConsoleDriver.ALICE);
        console.waitFor(() -> console.visible("project") && console.rows("#stats-totals div").size() == 4);
        LocalDate today = LocalDate.ofInstant(console.server.herald().clock().instant(), ZoneOffset.UTC);
        console.showStats(today.minusDays(29), today);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("5"));

        assertThat(console.visible("stats-languages"), is(true));
        assertThat("most impressions first, then by tag; the one without translations in its own",
                   console.rows("#stats-by-language tbody tr"), is(List.of(
                "German (de) 2 1 0 50.0 %", "English (en) 2 0 0 0.0 %", "French (fr) 1 0 0 0.0 %")));

        assertThat(console.downloaded("#stats-languages-csv"), is(List.of(
                "locale,impression,click,conversion,ctr", "de,2,1,0,0.5", "en,2,0,0,0", "fr,1,0,0,0")));

        console.saveLightAndPhone("console-performance-languages-table", () -> console.browser.script(
                "document.getElementById('stats-by-language-title').scrollIntoView()"));

        // German alone, chosen by keyboard: every figure of the section is German's.
        assertThat(console.visible("stats-locale-choice"), is(true));
        console.focus("#stats-locale");
        console.press("ArrowDown", 40);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("2"));
        assertThat(console.value("stats-locale"), is("de"));
        assertThat(console.rows("#stats-totals div"), is(List.of("Impressions2", "Clicks1", "Conversions0",
                                                                  "CTR50.0 %")));
        assertThat(console.rows("#stats-by-announcement tbody tr"), is(List.of("“Spring sale” 2 0 1 0 50.0 %")));
        assertThat("one language: no table to compare", console.visible("stats-languages"), is(false));
        assertThat("the list's figures say they are German's (an outside trial read them as everyone's)",
                   console.text("stats-figures-range"), endsWith(", in German (de) only"));
        console.saveLightAndPhone("console-performance-languages", () -> console.browser.script(
                "document.getElementById('performance-title').scrollIntoView()"));

        // Every language again; the announcement alone has its languages too.
        console.focus("#stats-locale");
        console.press("ArrowUp", 38);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("5"));
        assertThat(console.text("stats-figures-range"), not(containsString(" only")));
        console.browser.script("const of = document.getElementById('stats-of'); of.value = arguments[0];"
                + " of.dispatchEvent(new Event('change'));", sale);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("4"));
        assertThat(console.rows("#stats-by-language tbody tr"), is(List.of(
                "German (de) 2 1 0 50.0 %", "English (en) 1 0 0 0.0 %", "French (fr) 1 0 0 0.0 %")));
        assertThat(console.violations(), is("[]"));
    }

    /** From the console's page, as the widget does: the body names the language it showed. */
    private static void track(String notification, String locale, String... types) {
        console.browser.open(console.console());
        console.browser.await("for (const type of arguments[2].split(',')) {"
                + " await fetch('/api/v1/public/track/' + arguments[0], {method: 'POST',"
                + " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({type, locale: arguments[1]})}); }",
                notification, locale, String.join(",", types));
    }
}
