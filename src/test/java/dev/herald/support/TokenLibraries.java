package dev.herald.support;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;

/**
 * Runs the minting scripts of src/test/interop (docs/identity.md#interoperability): a batch of JSON specs in, one
 * answer per spec out, {@code {"token":…}} or {@code {"refused":…}} when the library will not make that token.
 *
 * <p>The npm packages are installed on first use by {@link NodeProject#TOKENS}. PyJWT is Debian's, run by
 * /usr/bin/python3 (the machine's default python3 may be another one without it). Where node, npm or PyJWT is
 * missing, the library's tests are skipped with how to run them, except under {@code CI=true}, where they fail.
 */
public final class TokenLibraries {

    private static final Path SOURCES = Path.of("src/test/interop");
    private static final Path PYTHON = Path.of("/usr/bin/python3");
    private static final Duration MINT_TIMEOUT = Duration.ofSeconds(60);
    private static Readiness python;

    private TokenLibraries() {
    }

    /** What runs a library's script. */
    enum Runtime {
        NODE, PYTHON
    }

    /**
     * One answer per spec, in order. Skips the calling test (or fails it under {@code CI=true}) when the library's
     * runtime is missing.
     */
    public static List<JsonObject> mint(TokenLibrary library, List<JsonObject> specs) {
        String purpose = "The interoperability tests mint tokens with " + library
                + " (src/test/interop, docs/identity.md#interoperability)";
        String input = Json.createArrayBuilder(specs).build().toString();
        String output;
        if (library.runtime() == Runtime.NODE) {
            output = NodeProject.TOKENS.run(input, MINT_TIMEOUT, purpose);
        } else {
            String missing = python().missing();
            if (missing != null) {
                ExternalTools.unavailable(library + ": " + missing + ". " + purpose + "; .ci/run installs what they "
                                          + "need.");
            }
            output = ExternalTools.run(List.of(PYTHON.toString(), SOURCES.resolve("mint.py").toString()), input,
                                       MINT_TIMEOUT);
        }
        List<JsonObject> answers = new ArrayList<>();
        try (var reader = Json.createReader(new StringReader(output))) {
            for (JsonValue answer : reader.readArray()) {
                answers.add(answer.asJsonObject());
            }
        }
        if (answers.size() != specs.size()) {
            throw new AssertionError(library + " answered " + answers.size() + " tokens for " + specs.size() + " specs");
        }
        return answers;
    }

    /** The version PyJWT reports, or null when it cannot be run. */
    public static String pyjwtVersion() {
        Readiness readiness = python();
        return readiness.missing() == null ? readiness.detail() : null;
    }

    /** Checked once per JVM. */
    private static synchronized Readiness python() {
        if (python == null) {
            try {
                python = new Readiness(checkPython(), null);
            } catch (ExternalTools.Missing missing) {
                python = new Readiness(null, missing.getMessage());
            }
        }
        return python;
    }

    /** @param detail what is there (PyJWT's version); @param missing null when ready, else what is missing */
    private record Readiness(String detail, String missing) {
    }

    private static String checkPython() throws ExternalTools.Missing {
        if (!Files.isExecutable(PYTHON)) {
            throw new ExternalTools.Missing(PYTHON + " is missing: apt-get install python3 python3-jwt "
                                            + "python3-cryptography");
        }
        String version = ExternalTools.probe(List.of(PYTHON.toString(), "-c",
                                                     "import jwt, cryptography; print(jwt.__version__)"),
                                             "PyJWT is not installed for " + PYTHON
                                                     + ": apt-get install python3-jwt python3-cryptography");
        return version.strip();
    }
}
