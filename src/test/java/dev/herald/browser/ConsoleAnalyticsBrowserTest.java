package dev.herald.browser;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

import dev.herald.project.Project;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * Issue 30, point 10: the figures a product manager reads. Impressions and CTR in the announcements list, for the
 * range of the performance section; a table of every announcement, sorted by any column by keyboard; a second range
 * to compare with, its totals beside the first with the change, dashed in the chart, in the CSV. No Content-Security-
 * Policy report.
 */
class ConsoleAnalyticsBrowserTest extends DrivenConsoleTest {

    @Test
    void theListTheTableAndAComparisonWithThePreviousPeriodShowEachAnnouncementsFigures() throws IOException {
        Project project = console.server.herald().project();
        String sale = console.server.herald().notification(project).message("Spring sale").save().id();
        String quiet = console.server.herald().notification(project).message("Quiet one").save().id();
        // 30 days ago: two impressions of the sale, in the period before the last 30 days.
        track(sale, "impression", "impression");
        String then = LocalDate.ofInstant(console.server.herald().clock().instant(), java.time.ZoneOffset.UTC).toString();
        console.server.herald().clock().advance(Duration.ofDays(30));
        track(sale, "impression", "impression", "impression", "click");
        track(quiet, "impression");
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.signIn("alice", ConsoleDriver.ALICE);
        console.waitFor(() -> console.visible("project") && console.rows("#stats-totals div").size() == 4);
        // The last 30 days by Herald's test clock (the page's are the browser's).
        LocalDate today = LocalDate.parse(then).plusDays(30);
        console.showStats(today.minusDays(29), today);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("4"));

        assertThat("the list: impressions, unique users (none with a token) and CTR of each",
                   console.rows("#notification-list tbody tr td.figure"),
                   is(List.of("1", "0", "0.0 %", "3", "0", "33.3 %")));
        assertThat(console.rows("#stats-by-announcement tbody tr"), is(List.of(
                "“Spring sale” 3 0 1 0 33.3 %", "“Quiet one” 1 0 0 0 0.0 %")));

        // Sorted by CTR by keyboard: the highest first, again: the lowest first.
        console.focus("#stats-by-announcement thead button[data-sort='ctr']");
        console.press("Enter", 13);
        console.waitFor(() -> console.script("return document.activeElement.dataset.sort || ''").equals("ctr")
                && console.rows("#stats-by-announcement tbody tr th").getFirst().equals("“Spring sale”"));
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#stats-by-announcement tbody tr th").getFirst().equals("“Quiet one”"));
        assertThat(console.script("return document.querySelector('#stats-by-announcement th[aria-sort]')"
                + ".getAttribute('aria-sort')"), is("ascending"));

        // Compared with the 30 days before: the two impressions of then.
        console.focus("#stats-compare");
        console.press("ArrowDown", 40);
        console.waitFor(() -> console.rows("#stats-totals dd.compared").size() == 4);
        assertThat(console.rows("#stats-totals div"), is(List.of("Impressions4was 2, +2 (+100.0 %)",
                "Clicks1was 0, +1 (new)", "Conversions0was 0, 0 (0 %)", "CTR25.0 %was 0.0 %, +25.0 points")));
        assertThat("dashed: the compared range", console.script("return document.querySelectorAll("
                + "'#stats-chart polyline.compared').length + ''"), is("3"));
        String from = console.script("return document.getElementById('stats-from').value");
        assertThat(console.text("stats-compared-legend"),
                   is("dashed: " + LocalDate.parse(from).minusDays(30) + " to " + LocalDate.parse(from).minusDays(1)));
        assertThat(console.rows("#stats-by-announcement thead th"), is(List.of("Announcement", "Impressions",
                "Unique users", "Clicks", "Conversions", "CTR", "Impressions, compared", "CTR, compared")));
        assertThat(console.rows("#stats-by-announcement tbody tr").getLast(),
                   is("“Spring sale” 3 0 1 0 33.3 % 2 0.0 %"));

        List<String> csv = console.downloaded("#stats-csv");
        assertThat(csv.getFirst(), is("date,impression,click,conversion,compared_date,compared_impression,"
                + "compared_click,compared_conversion"));
        assertThat("the day of then beside its day of now", csv.getLast(),
                   is(today + ",4,1,0," + then + ",2,0,0"));
        assertThat(console.downloaded("#stats-table-csv"), is(List.of(
                "notification_id,announcement,impression,click,conversion,ctr,unique_users,compared_impression,"
                        + "compared_click,compared_conversion,compared_ctr",
                sale + ",\"“Spring sale”\",3,1,0,0.3333333333333333,0,2,0,0,0",
                quiet + ",\"“Quiet one”\",1,0,0,0,0,0,0,0,0")));

        console.saveLightAndPhone("console-performance-compared", () -> console.browser.script(
                "document.getElementById('performance-title').scrollIntoView()"));
        console.saveLightAndPhone("console-performance-table", () -> console.browser.script(
                "document.getElementById('stats-by-announcement-title').scrollIntoView()"));
        console.saveLightAndPhone("console-announcement-figures", () -> console.browser.script(
                "document.getElementById('notification-list').scrollIntoView()"));

        // Other days: the last day alone, chosen by keyboard.
        console.focus("#stats-compare");
        console.press("ArrowDown", 40);
        console.waitFor(() -> console.visible("stats-compare-range"));
        console.browser.script("document.getElementById('stats-compare-from').value = arguments[0];"
                + "document.getElementById('stats-compare-to').value = arguments[0];", today.toString());
        console.focus("#stats-form button[type=submit]");
        console.press("Enter", 13);
        console.waitFor(() -> console.rows("#stats-totals dd.compared").getFirst().equals("was 4, 0 (0.0 %)"));
        assertThat(console.text("stats-compared-legend"), is("dashed: " + today + " to " + today));
        assertThat(console.violations(), is("[]"));
    }

    /**
     * A project's stats come a page at a time (docs/api.md#stats): an announcement after 10,000 deleted ones of more
     * impressions, on the second page, still has its figures in the list.
     */
    @Test
    void anAnnouncementOnTheStatsSecondPageHasItsFigures() throws SQLException {
        Project project = console.server.herald().project();
        String quiet = console.server.herald().notification(project).message("Quiet one").save().id();
        track(quiet, "impression", "click");
        LocalDate today = LocalDate.ofInstant(console.server.herald().clock().instant(), ZoneOffset.UTC);
        try (Connection connection = console.server.herald().database().connect();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO interaction_daily_totals (project_id,"
                     + " day_number, notification_id, type, writer, locale, total) VALUES (?, ?, ?, 'impression', 0,"
                     + " '', 5)")) {
            for (int i = 0; i < 10_000; i++) {
                insert.setString(1, project.id());
                insert.setLong(2, today.toEpochDay());
                insert.setString(3, "gone-" + i);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        console.browser.open(console.console() + "#/projects/" + project.id());
        console.signIn("alice", ConsoleDriver.ALICE);
        console.waitFor(() -> console.visible("project") && console.rows("#stats-totals div").size() == 4);
        console.showStats(today.minusDays(29), today);
        console.waitFor(() -> console.rows("#stats-totals dd").getFirst().equals("50001"));
        console.waitFor(() -> console.rows("#notification-list tbody tr td.figure")
                .equals(List.of("1", "0", "100.0 %")));
        assertThat(console.violations(), is("[]"));
    }

    private static void track(String notification, String... types) {
        console.browser.open(console.console());
        console.browser.await("for (const type of arguments[1].split(',')) {"
                + " await fetch('/api/v1/public/track/' + arguments[0], {method: 'POST',"
                + " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({type})}); }",
                notification, String.join(",", types));
    }
}
