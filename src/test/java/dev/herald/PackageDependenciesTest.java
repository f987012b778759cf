package dev.herald;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.is;

/**
 * Packages by feature, each arrow one way: two packages that use each other are one package, or miss a third. The
 * graph is read from the sources (every {@code dev.herald.x.Type} named in a package's files, imports and fully
 * qualified names alike).
 */
class PackageDependenciesTest {

    private static final Path SOURCES = Path.of("src/main/java/dev/herald");
    private static final Pattern USE = Pattern.compile("\\bdev\\.herald\\.([a-z]+)\\.[A-Z]");
    /**
     * Pairs that use each other today, to be taken apart when next touched. A pair leaving this list is progress;
     * one joining it fails the test.
     */
    private static final Set<String> KNOWN_PAIRS = Set.of("apikey <-> feed", "config <-> storage",
                                                          "feed <-> notification");

    @Test
    void theHttpLayersDependOneWayTheFramingOnTheApisConventions() {
        Map<String, Set<String>> uses = uses();
        assertThat(uses, hasKey("wire"));
        assertThat("wire uses api", uses.get("wire").contains("api"), is(true));
        assertThat("api uses nothing of wire", uses.get("api").contains("wire"), is(false));
    }

    @Test
    void noNewPairOfPackagesUsesEachOther() {
        Map<String, Set<String>> uses = uses();
        Set<String> pairs = new TreeSet<>();
        uses.forEach((from, to) -> to.forEach(other -> {
            if (from.compareTo(other) < 0 && uses.getOrDefault(other, Set.of()).contains(from)) {
                pairs.add(from + " <-> " + other);
            }
        }));
        pairs.removeAll(KNOWN_PAIRS);
        assertThat(pairs, is(empty()));
    }

    private static Map<String, Set<String>> uses() {
        Map<String, Set<String>> uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(SOURCES)) {
            files.filter(file -> file.toString().endsWith(".java") && file.getParent().getParent().equals(SOURCES))
                    .forEach(file -> {
                        String from = file.getParent().getFileName().toString();
                        Set<String> to = uses.computeIfAbsent(from, name -> new TreeSet<>());
                        Matcher use = USE.matcher(read(file));
                        while (use.find()) {
                            if (!use.group(1).equals(from)) {
                                to.add(use.group(1));
                            }
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return uses;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
