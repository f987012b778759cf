package dev.herald.observe;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * {@code docs/api.md} and {@code openapi.json} describe the same API: every operation of one is a route section of
 * the other, and every status openapi.json gives an operation, with the error code its description names
 * ({@code (code FEED_TOO_LARGE)}), is a row of that section's answers, and the other way round for statuses.
 *
 * <p>The convention api.md keeps for this (its introduction says so too): a route section is a heading
 * {@code ### METHOD /full/path}, up to the next heading of level 3 or higher; its answers are the rows of its tables
 * that have a {@code status} column, each row one status, with the codes in backticks in its {@code code} column.
 */
class ApiDocsTest {

    static final Path API_DOCS = Path.of("docs/api.md");
    private static final Path OPENAPI = Path.of("src/main/resources/openapi.json");

    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS");
    static final Pattern ROUTE_HEADING = Pattern.compile("### ([A-Z]+) (/\\S*)");
    private static final Pattern OPENAPI_CODE = Pattern.compile("\\bcode ([A-Z][A-Z0-9_]+)");
    private static final Pattern DOCS_CODE = Pattern.compile("`([A-Z][A-Z0-9_]+)`");
    /** A table cell boundary: a pipe that is not escaped. */
    private static final Pattern CELL_BOUNDARY = Pattern.compile("(?<!\\\\)\\|");

    @Test
    void everyOperationOfOpenApiIsARouteSectionOfTheDocsAndBack() throws IOException {
        Set<String> documented = operations(openApi()).keySet();
        Set<String> described = routeSections(Files.readAllLines(API_DOCS)).keySet();
        List<String> problems = new ArrayList<>();
        documented.stream().filter(route -> !described.contains(route)).forEach(route -> problems.add(
                route + ": an operation of openapi.json without a section \"### " + route + "\" in docs/api.md"));
        described.stream().filter(route -> !documented.contains(route)).forEach(route -> problems.add(
                route + ": a section of docs/api.md that is no operation of openapi.json"));
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    @Test
    void everyStatusAndCodeOfAnOperationIsARowOfItsSection() throws IOException {
        Map<String, Map<String, Set<String>>> sections = answers(routeSections(Files.readAllLines(API_DOCS)));
        List<String> problems = new ArrayList<>();
        operations(openApi()).forEach((route, responses) -> {
            Map<String, Set<String>> rows = sections.get(route);
            if (rows == null) {
                return; // the test above names it
            }
            responses.forEach((status, codes) -> {
                if (!rows.containsKey(status)) {
                    problems.add(route + ": status " + status + " of openapi.json is no row of its section");
                    return;
                }
                codes.stream().filter(code -> !rows.get(status).contains(code)).forEach(code -> problems.add(
                        route + ": status " + status + " with code " + code + " of openapi.json is no row of its section"));
            });
            rows.keySet().stream().filter(status -> !responses.containsKey(status)).forEach(status -> problems.add(
                    route + ": status " + status + " of docs/api.md is not among the operation's responses in openapi.json"));
        });
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    @Test
    void everyHeadingThatNamesAMethodIsARouteHeading() throws IOException {
        List<String> malformed = Files.readAllLines(API_DOCS).stream()
                .filter(line -> line.startsWith("#"))
                .filter(line -> METHODS.contains(line.replaceFirst("^#+\\s*", "").split("\\s", 2)[0]))
                .filter(line -> !ROUTE_HEADING.matcher(line).matches())
                .toList();
        assertThat("headings that look like a route but do not read as one: ### METHOD /path", malformed, is(empty()));
    }

    /** {@code "GET /path"} → status → the codes the response's description names. */
    private static Map<String, Map<String, Set<String>>> operations(JsonObject document) {
        Map<String, Map<String, Set<String>>> operations = new TreeMap<>();
        document.getJsonObject("paths").forEach((path, item) -> item.asJsonObject().forEach((method, operation) -> {
            if (!METHODS.contains(method.toUpperCase(Locale.ROOT))) {
                return; // "parameters", "summary" and the like
            }
            Map<String, Set<String>> responses = new TreeMap<>();
            operation.asJsonObject().getJsonObject("responses").forEach((status, response) -> {
                Set<String> codes = new TreeSet<>();
                Matcher code = OPENAPI_CODE.matcher(response.asJsonObject().getString("description", ""));
                while (code.find()) {
                    codes.add(code.group(1));
                }
                responses.put(status, codes);
            });
            operations.put(method.toUpperCase(Locale.ROOT) + " " + path, responses);
        }));
        return operations;
    }

    /**
     * {@code "GET /path"} → the lines of its section, from its heading to the next heading of level 3 or higher.
     * A route with two sections fails here.
     */
    static Map<String, List<String>> routeSections(List<String> lines) {
        Map<String, List<String>> sections = new LinkedHashMap<>();
        List<String> current = null;
        boolean inFence = false;
        for (String line : lines) {
            if (line.startsWith("```")) {
                inFence = !inFence;
            }
            if (!inFence && line.matches("#{1,3} .*")) {
                Matcher route = ROUTE_HEADING.matcher(line);
                current = null;
                if (route.matches()) {
                    current = new ArrayList<>();
                    String name = route.group(1) + " " + route.group(2);
                    if (sections.put(name, current) != null) {
                        throw new AssertionError("docs/api.md has two sections for " + name);
                    }
                }
                continue;
            }
            if (current != null) {
                current.add(line);
            }
        }
        return sections;
    }

    /** Per route: status → the codes of its rows, read from every table of the section with a status column. */
    private static Map<String, Map<String, Set<String>>> answers(Map<String, List<String>> sections) {
        Map<String, Map<String, Set<String>>> answers = new TreeMap<>();
        sections.forEach((route, lines) -> answers.put(route, statusRows(route, lines)));
        return answers;
    }

    private static Map<String, Set<String>> statusRows(String route, List<String> lines) {
        Map<String, Set<String>> rows = new TreeMap<>();
        int statusColumn = -1;
        int codeColumn = -1;
        boolean header = false;
        for (String line : lines) {
            if (!line.startsWith("|")) {
                statusColumn = -1;
                header = false;
                continue;
            }
            List<String> cells = cells(line);
            if (statusColumn < 0 && !header) {
                // A table's first row: its header.
                header = true;
                statusColumn = cells.indexOf("status");
                codeColumn = cells.indexOf("code");
                continue;
            }
            if (statusColumn >= cells.size()) {
                throw new AssertionError("docs/api.md, " + route + ": a row with fewer cells than its header: " + line);
            }
            if (statusColumn < 0 || cells.get(statusColumn).matches("-+")) {
                continue;
            }
            String status = cells.get(statusColumn);
            if (!status.matches("\\d{3}")) {
                throw new AssertionError("docs/api.md, " + route + ": a status cell must hold one status: " + line);
            }
            Set<String> codes = rows.computeIfAbsent(status, any -> new TreeSet<>());
            if (codeColumn >= 0) {
                Matcher code = DOCS_CODE.matcher(cells.get(codeColumn));
                while (code.find()) {
                    codes.add(code.group(1));
                }
            }
        }
        return rows;
    }

    /** A table row's cells, trimmed, without the empty ones outside its first and last pipe. */
    private static List<String> cells(String row) {
        String[] parts = CELL_BOUNDARY.split(row.strip(), -1);
        List<String> cells = new ArrayList<>();
        for (int i = 1; i < parts.length - 1; i++) {
            cells.add(parts[i].strip());
        }
        return cells;
    }

    private static JsonObject openApi() throws IOException {
        try (var reader = Json.createReader(new StringReader(Files.readString(OPENAPI)))) {
            return reader.readObject();
        }
    }
}
