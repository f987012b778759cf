package dev.herald.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.DuplicateKeyException;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * A key given twice in one mapping of a YAML file. YAML does not allow it, but the parser Helidon uses takes the
 * last one without a word: a second {@code db:} block replaced the first, and a production file started on embedded
 * H2. Herald refuses the file, naming the key and its line.
 */
final class DuplicateKeys {

    private DuplicateKeys() {
    }

    /**
     * @return the file as SnakeYAML read it, for the known-keys check ({@link YamlKeys}); empty when it is no YAML
     *         file or could not be parsed (Helidon's parse then says why)
     * @throws BadSetting naming the key given twice and the line of its second occurrence
     */
    static Optional<Object> refuse(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".yaml") && !name.endsWith(".yml")) {
            return Optional.empty();
        }
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        try (Reader reader = Files.newBufferedReader(file)) {
            return Optional.ofNullable(new Yaml(new SafeConstructor(options)).load(reader));
        } catch (DuplicateKeyException e) {
            String where = e.getProblemMark() == null ? "" : " at line " + (e.getProblemMark().getLine() + 1);
            throw new BadSetting("Configuration file " + file.toAbsolutePath() + " has a key twice in one section"
                    + where + " (" + e.getProblem() + "): the second would silently replace the first; merge them");
        } catch (IOException | YAMLException e) {
            // Not this check's to report: Helidon's parse of the same file says what is wrong, with its line.
            return Optional.empty();
        }
    }
}
