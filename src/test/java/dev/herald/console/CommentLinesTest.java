package dev.herald.console;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.nullValue;

/**
 * The console's own code is sent with its comment lines empty (docs/console.md): every other line as written, the
 * lines where they were, and nothing inside a string, template literal or regular expression taken for a comment.
 */
class CommentLinesTest {

    @Test
    void wholeLineCommentsAreSentEmptyAndEveryOtherLineAsWritten() {
        String source = """
                // Why the module is here.
                import { a } from './a.js';
                /**
                 * Why this function.
                 */
                export function f(x) {
                  const y = x / 2; // kept: a comment after code is part of its line
                    // indented, emptied
                  /* one line, emptied */
                  /* kept: */ return y;
                }
                """;
        String expected = "\nimport { a } from './a.js';\n\n\n\nexport function f(x) {\n"
                + "  const y = x / 2; // kept: a comment after code is part of its line\n\n\n"
                + "  /* kept: */ return y;\n}\n";
        assertThat(CommentLines.blanked(source, true), is(expected));
    }

    @Test
    void linesOfATemplateLiteralAreItsTextAndAreKept() {
        String source = """
                const page = `
                // a line of the template's text
                /* and another */
                ${items.map((item) => `
                  // nested: still text
                  ${item}`).join('')}
                // text again
                `;
                // a comment once the template has ended
                """;
        String expected = source.replace("// a comment once the template has ended", "");
        assertThat(CommentLines.blanked(source, true), is(expected));
    }

    @Test
    void aCommentInsideATemplatesExpressionIsACommentAndBracesInItDoNotEndIt() {
        String source = """
                const text = `${(() => {
                  // inside the expression: a comment
                  return { a: 1 }.a;
                })()}
                // text of the template
                `;
                """;
        String expected = source.replace("  // inside the expression: a comment", "");
        assertThat(CommentLines.blanked(source, true), is(expected));
    }

    @Test
    void stringsAndRegularExpressionsOpenNothing() {
        String source = """
                const open = '/*', quote = "`", slash = '//';
                // emptied
                const tick = /`[/`]/g, half = a / b / c, word = typeof /`/;
                // emptied too
                const after = `text`;
                if (x) return /'/.test(y);
                // and this
                """;
        String expected = source.replace("// emptied too", "").replace("// emptied", "").replace("// and this", "");
        assertThat(CommentLines.blanked(source, true), is(expected));
    }

    @Test
    void aFileTheScanCannotReadWholeIsSentAsItIs() {
        String unterminated = "const a = `never closed\n// would be text\n";
        assertThat(CommentLines.blanked(unterminated, true), is(nullValue()));
        byte[] bytes = unterminated.getBytes(StandardCharsets.UTF_8);
        assertThat(CommentLines.script(bytes), is(bytes));
        assertThat(CommentLines.blanked("/* never closed\nx = 1;\n", true), is(nullValue()));
    }

    @Test
    void aStyleSheetLosesItsBlockCommentsOnly() {
        String source = """
                /* Why the panel is this wide. */
                .panel { width: 20rem; }
                /*
                 * Two lines of why.
                 */
                .a::before { content: "/* not a comment */"; background: url(//example.com/x.png); }
                """;
        String expected = "\n.panel { width: 20rem; }\n\n\n\n"
                + ".a::before { content: \"/* not a comment */\"; background: url(//example.com/x.png); }\n";
        assertThat(CommentLines.blanked(source, false), is(expected));
    }

    /**
     * Each of the console's own files as it is in the build: read whole by the scan (so its comments are left out),
     * with as many lines, each line either as written or a comment line sent empty.
     */
    @Test
    void everyOwnFileOfTheConsoleIsReadWholeAndLosesOnlyCommentLines() throws IOException {
        List<String> files = ConsoleService.files().stream()
                .filter(file -> !file.startsWith("vendor/") && (file.endsWith(".js") || file.endsWith(".css")))
                .toList();
        assertThat(files.size() > 20, is(true));
        for (String file : files) {
            String source;
            try (InputStream in = ConsoleService.class.getResourceAsStream("/console/" + file)) {
                source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            String sent = CommentLines.blanked(source, file.endsWith(".js"));
            assertThat(file + " read whole", sent == null, is(false));
            String[] before = source.split("\n", -1);
            String[] after = sent.split("\n", -1);
            assertThat(file + ": its lines", after.length, is(before.length));
            boolean inBlock = false;
            for (int i = 0; i < before.length; i++) {
                String line = before[i].strip();
                boolean comment = inBlock || line.startsWith("//") || line.startsWith("/*");
                if (line.startsWith("/*") && !line.contains("*/")) {
                    inBlock = true;
                }
                if (inBlock && line.endsWith("*/")) {
                    inBlock = false;
                }
                if (!after[i].equals(before[i])) {
                    assertThat(file + ":" + (i + 1) + " emptied, a comment line: " + before[i],
                               comment && after[i].isEmpty(), is(true));
                }
            }
            if (source.contains("\n// ") || source.contains("\n/**")) {
                assertThat(file + " lost its comment lines", sent.length(), lessThan(source.length()));
            }
        }
    }
}
