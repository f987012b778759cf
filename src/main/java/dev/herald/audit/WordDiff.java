package dev.herald.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.herald.api.Json;

import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;

/**
 * The words a change of text removed and added, as an audit line keeps them (docs/api.md#audit-log): runs of
 * {@code {"type":"same"|"removed"|"added","text":…}} in the order of the text, the unchanged words around each change
 * cut to {@value #CONTEXT_WORDS} on each side (what is left out is one "…"). Two excerpts of a long message, before
 * and after, read the same when the change is past their end; these runs do not. The console computes the same runs
 * for lines written before (console/diff.js, wordDiff).
 *
 * <p>Bounded work and size: the common beginning and end are set aside first (an edit is most often in one place),
 * the middle is compared word by word only up to {@value #MAX_CELLS} pairs (past that, it is all removed and all
 * added), each run keeps at most {@value #RUN_BYTES} bytes as served and all of them {@value #DIFF_BYTES}.
 */
final class WordDiff {

    static final int CONTEXT_WORDS = 6;
    static final int MAX_CELLS = 250_000;
    static final int RUN_BYTES = 512;
    static final int DIFF_BYTES = 4096;
    private static final Pattern TOKEN = Pattern.compile("\\s+|\\S+");
    private static final String ELLIPSIS = "…";

    enum Type { SAME, REMOVED, ADDED }

    record Run(Type type, String text) {
    }

    /** The runs kept and whether some, or the end of some removed or added, were left out for the bound. */
    record Kept(JsonArray runs, boolean cut) {
    }

    private WordDiff() {
    }

    /** Every token, same, removed or added, merged into runs of one type. */
    static List<Run> of(String before, String after) {
        List<String> from = tokens(before);
        List<String> to = tokens(after);
        int prefix = 0;
        while (prefix < from.size() && prefix < to.size() && from.get(prefix).equals(to.get(prefix))) {
            prefix++;
        }
        int suffix = 0;
        while (suffix < from.size() - prefix && suffix < to.size() - prefix
               && from.get(from.size() - 1 - suffix).equals(to.get(to.size() - 1 - suffix))) {
            suffix++;
        }
        List<Run> tokens = new ArrayList<>();
        from.subList(0, prefix).forEach(token -> tokens.add(new Run(Type.SAME, token)));
        middle(from.subList(prefix, from.size() - suffix), to.subList(prefix, to.size() - suffix), tokens);
        from.subList(from.size() - suffix, from.size()).forEach(token -> tokens.add(new Run(Type.SAME, token)));
        return merged(tokens);
    }

    /** The runs as a line keeps them: the context around changes cut, each run and the whole bounded. */
    static Kept kept(String before, String after) {
        List<Run> runs = of(before, after);
        JsonArrayBuilder kept = Json.builders().createArrayBuilder();
        long bytes = 0;
        boolean cut = false;
        for (int i = 0; i < runs.size(); i++) {
            Run run = runs.get(i);
            String text = run.type() == Type.SAME ? context(run.text(), i > 0, i < runs.size() - 1)
                    : cut(run.text(), RUN_BYTES);
            cut |= run.type() != Type.SAME && !text.equals(run.text());
            bytes += AuditBounds.servedBytes(text) + 32;
            if (bytes > DIFF_BYTES) {
                return new Kept(kept.build(), true);
            }
            kept.add(Json.builders().createObjectBuilder().add("type", run.type().name().toLowerCase(Locale.ROOT))
                             .add("text", text));
        }
        return new Kept(kept.build(), cut);
    }

    private static List<String> tokens(String text) {
        List<String> tokens = new ArrayList<>();
        Matcher token = TOKEN.matcher(text);
        while (token.find()) {
            tokens.add(token.group());
        }
        return tokens;
    }

    /** The longest common subsequence of the middles, or none when comparing them would take too long. */
    private static void middle(List<String> from, List<String> to, List<Run> runs) {
        int n = from.size();
        int m = to.size();
        if ((long) n * m > MAX_CELLS) {
            from.forEach(token -> runs.add(new Run(Type.REMOVED, token)));
            to.forEach(token -> runs.add(new Run(Type.ADDED, token)));
            return;
        }
        // common[i][j]: the length of the longest common subsequence of from[i..] and to[j..].
        int[][] common = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                common[i][j] = from.get(i).equals(to.get(j)) ? common[i + 1][j + 1] + 1
                        : Math.max(common[i + 1][j], common[i][j + 1]);
            }
        }
        int i = 0;
        int j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && from.get(i).equals(to.get(j))) {
                runs.add(new Run(Type.SAME, from.get(i++)));
                j++;
            } else if (i < n && (j == m || common[i + 1][j] >= common[i][j + 1])) {
                runs.add(new Run(Type.REMOVED, from.get(i++)));
            } else {
                runs.add(new Run(Type.ADDED, to.get(j++)));
            }
        }
    }

    /** Adjacent tokens of one type as one run; removed before added where they alternate, as a reader expects. */
    private static List<Run> merged(List<Run> tokens) {
        List<Run> runs = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        Type type = null;
        for (Run token : tokens) {
            if (token.type() != type && type != null) {
                runs.add(new Run(type, text.toString()));
                text.setLength(0);
            }
            type = token.type();
            text.append(token.text());
        }
        if (type != null) {
            runs.add(new Run(type, text.toString()));
        }
        return runs;
    }

    /**
     * Unchanged words kept around a change: before the first change its last words, after the last its first words,
     * between two both; what is left out is "…".
     */
    private static String context(String text, boolean afterChange, boolean beforeChange) {
        List<String> tokens = tokens(text);
        int keep = 2 * CONTEXT_WORDS; // tokens: a word and the space after it
        if (tokens.size() <= (afterChange && beforeChange ? 2 * keep + 1 : keep + 1)) {
            return text;
        }
        String head = afterChange ? String.join("", tokens.subList(0, keep)) : "";
        String tail = beforeChange ? String.join("", tokens.subList(tokens.size() - keep, tokens.size())) : "";
        return head + ELLIPSIS + (tail.isEmpty() || Character.isWhitespace(tail.charAt(0)) ? "" : " ") + tail;
    }

    /** At most {@code max} bytes as served, cut after a whole token where there is one, "…" at the end when cut. */
    private static String cut(String text, int max) {
        if (AuditBounds.servedBytes(text) <= max) {
            return text;
        }
        StringBuilder kept = new StringBuilder();
        for (String token : tokens(text)) {
            if (AuditBounds.servedBytes(kept + token) > max - 3) {
                if (kept.isEmpty()) {
                    // One word longer than the bound: its beginning, cut between characters.
                    token.codePoints().takeWhile(c -> AuditBounds.servedBytes(kept + Character.toString(c)) <= max - 3)
                            .forEach(kept::appendCodePoint);
                }
                break;
            }
            kept.append(token);
        }
        return kept + ELLIPSIS;
    }
}
