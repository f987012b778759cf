package dev.herald;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.is;

/**
 * The repository stands alone: whoever clones it can follow every link and every citation in it. Every relative
 * link of every Markdown file leads to a file inside the repository (and to a heading there, when it names one);
 * every citation of the docs in code, configuration or prose ({@code docs/behaviour.md#rate-limit},
 * {@code docs/api.md, POST /api/v1/public/track/{notificationId}}) names a heading that exists; and nothing cites
 * the documents the project was specified in, which live outside it.
 */
class RepositoryLinksTest {

    private static final Path ROOT = Path.of("").toAbsolutePath().normalize();
    /** Build output, local data and version control: not the repository's content. */
    private static final Set<String> NOT_CONTENT = Set.of(".git", "target", "data", "node_modules", ".idea", ".vscode");
    private static final Path THIS_FILE = Path.of("src/test/java/dev/herald/RepositoryLinksTest.java");
    private static final long LARGEST_TEXT_FILE = 1024 * 1024;

    /** An inline link or image, {@code [text](target "title")}, and a reference definition, {@code [id]: target}. */
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern URL_SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");
    /** A document of this repository and a heading in it, cited in plain text: {@code docs/api.md#rate-limit}. */
    private static final Pattern DOC_CITATION = Pattern.compile(
            "(?<![\\w./-])((?:docs|deploy)/[\\w.-]+\\.md|README\\.md)#([\\w-]+)");
    /** A route section of the API reference: {@code docs/api.md, GET /api/v1/public/{apiKey}/notifications}. */
    private static final Pattern ROUTE_CITATION = Pattern.compile(
            "docs/api\\.md, ([A-Z]+) ((?:/(?:[\\w.-]+|\\{\\w+\\}))+)");
    private static final Pattern ROUTE_HEADING = Pattern.compile("### ([A-Z]+) (/\\S*)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    /** Where the project was specified: documents beside the repository, which a clone does not have. */
    private static final List<Pattern> OUTSIDE_CITATIONS = List.of(
            Pattern.compile("\\.\\./shared\\b"),
            Pattern.compile("\\bdecisions(?:\\.md)? ?§"),
            Pattern.compile("\\bdecisions\\.md\\b"),
            Pattern.compile("\\bpublic-api\\.md\\b"));

    @Test
    void everyRelativeLinkOfTheDocsLeadsToAFileOfTheRepository() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path markdown : files(".md")) {
            List<String> lines = proseLines(Files.readAllLines(markdown));
            for (int i = 0; i < lines.size(); i++) {
                for (String target : linkTargets(lines.get(i))) {
                    String problem = problem(markdown, target);
                    if (problem != null) {
                        problems.add(ROOT.relativize(markdown) + ":" + (i + 1) + ": " + target + ": " + problem);
                    }
                }
            }
        }
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    @Test
    void everyCitationOfTheDocsNamesAHeadingThatExists() throws IOException {
        List<String> problems = new ArrayList<>();
        Set<String> routes = routeHeadings(ROOT.resolve("docs/api.md"));
        for (Path file : textFiles()) {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String where = ROOT.relativize(file) + ":" + (i + 1) + ": ";
                Matcher citation = DOC_CITATION.matcher(lines.get(i));
                while (citation.find()) {
                    Path document = ROOT.resolve(citation.group(1));
                    if (!Files.isRegularFile(document)) {
                        problems.add(where + citation.group() + ": no such document");
                    } else if (!anchors(document).contains(citation.group(2))) {
                        problems.add(where + citation.group() + ": no such heading in " + citation.group(1));
                    }
                }
                Matcher route = ROUTE_CITATION.matcher(lines.get(i));
                while (route.find()) {
                    if (!routes.contains(route.group(1) + " " + route.group(2))) {
                        problems.add(where + route.group() + ": no such route section");
                    }
                }
            }
        }
        assertThat(String.join("\n", problems), problems, is(empty()));
    }

    @Test
    void nothingCitesTheDocumentsBesideTheRepository() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : textFiles()) {
            if (file.equals(ROOT.resolve(THIS_FILE))) {
                continue;
            }
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (OUTSIDE_CITATIONS.stream().anyMatch(pattern -> pattern.matcher(line).find())) {
                    problems.add(ROOT.relativize(file) + ":" + (i + 1) + ": " + line.strip());
                }
            }
        }
        assertThat("cite docs/api.md or docs/behaviour.md instead, which a clone has:\n" + String.join("\n", problems),
                   problems, is(empty()));
    }

    /** Null when the link leads where it should, else what is wrong with it. */
    private static String problem(Path markdown, String target) throws IOException {
        if (URL_SCHEME.matcher(target).find()) {
            return null; // a URL (https:, mailto:), not a path in the repository
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        if (path.startsWith("/")) {
            return "an absolute path: write it relative to " + ROOT.relativize(markdown);
        }
        Path resolved = path.isEmpty() ? markdown : markdown.getParent().resolve(path).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "leads out of the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file in the repository";
        }
        if (anchor != null && resolved.toString().endsWith(".md") && !anchors(resolved).contains(anchor)) {
            return "no heading with the anchor #" + anchor + " in " + ROOT.relativize(resolved);
        }
        return null;
    }

    private static List<String> linkTargets(String line) {
        List<String> targets = new ArrayList<>();
        String prose = INLINE_CODE.matcher(line).replaceAll("");
        Matcher inline = INLINE_LINK.matcher(prose);
        while (inline.find()) {
            targets.add(inline.group(1));
        }
        Matcher reference = REFERENCE_DEFINITION.matcher(prose);
        if (reference.matches()) {
            targets.add(reference.group(1));
        }
        return targets;
    }

    /** The lines with fenced code blocks blanked, so that line numbers stay true. */
    private static List<String> proseLines(List<String> lines) {
        List<String> prose = new ArrayList<>();
        boolean inFence = false;
        for (String line : lines) {
            boolean fence = line.strip().startsWith("```") || line.strip().startsWith("~~~");
            prose.add(inFence || fence ? "" : line);
            if (fence) {
                inFence = !inFence;
            }
        }
        return prose;
    }

    /** The routes of the API reference, as its route sections name them: {@code ### GET /api/v1/public/notifications}. */
    private static Set<String> routeHeadings(Path apiDocs) throws IOException {
        Set<String> routes = new HashSet<>();
        for (String line : proseLines(Files.readAllLines(apiDocs))) {
            Matcher heading = ROUTE_HEADING.matcher(line);
            if (heading.matches()) {
                routes.add(heading.group(1) + " " + heading.group(2));
            }
        }
        return routes;
    }

    /** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(Path markdown) throws IOException {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(Files.readAllLines(markdown))) {
            Matcher heading = HEADING.matcher(line);
            if (!heading.matches()) {
                continue;
            }
            String slug = heading.group(1).toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N} _-]", "")
                    .replace(' ', '-');
            int count = seen.merge(slug, 1, Integer::sum);
            anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        return anchors;
    }

    private static List<Path> files(String suffix) throws IOException {
        return content().filter(path -> path.getFileName().toString().endsWith(suffix)).toList();
    }

    /** Every file of the repository's content that is text: no NUL byte, at most 1 MiB. */
    private static List<Path> textFiles() throws IOException {
        List<Path> text = new ArrayList<>();
        for (Path file : content().toList()) {
            if (Files.size(file) <= LARGEST_TEXT_FILE && isUtf8Text(Files.readAllBytes(file))) {
                text.add(file);
            }
        }
        return text;
    }

    private static boolean isUtf8Text(byte[] bytes) {
        for (byte b : bytes) {
            if (b == 0) {
                return false;
            }
        }
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static Stream<Path> content() throws IOException {
        try (Stream<Path> all = Files.walk(ROOT)) {
            return all.filter(Files::isRegularFile)
                    .filter(path -> ROOT.relativize(path).getNameCount() == 1
                            || !NOT_CONTENT.contains(ROOT.relativize(path).getName(0).toString()))
                    .sorted()
                    .toList()
                    .stream();
        }
    }
}
