package dev.herald.config;

import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.TreeSet;

import io.helidon.config.ConfigException;
import io.helidon.config.ConfigSources;
import io.helidon.config.MapConfigSource;
import io.helidon.config.spi.ConfigContent;
import io.helidon.config.spi.ConfigContext;
import io.helidon.config.spi.ConfigNode;
import io.helidon.config.spi.LazyConfigSource;
import io.helidon.config.spi.NodeConfigSource;
import io.helidon.config.spi.RetryPolicy;

/**
 * Helidon's environment variables source, answering at once for a key no variable can set. Helidon 4.5 asks it for
 * every key of the other sources, and for each it tries five spellings of the key through regular expressions and
 * looks through every variable for ones below it: 8.5 % of the main thread's start with 39 variables (a JFR
 * profile, issue 33). Every spelling it tries is, in upper case with each character other than a letter or digit
 * made {@code _}, either the key's or the key's with each dash spelled {@code _DASH_}
 * (README.md#configuration): a key whose two forms no variable has, alone or as a prefix, has nothing there.
 * Any other key is Helidon's to answer, with its own rules.
 */
final class EnvironmentSource implements NodeConfigSource, LazyConfigSource {

    private final MapConfigSource helidons;
    private final LazyConfigSource helidonsLookup;
    private final NavigableSet<String> spellings = new TreeSet<>();

    private EnvironmentSource(MapConfigSource helidons, Map<String, String> environment) {
        this.helidons = helidons;
        this.helidonsLookup = (LazyConfigSource) helidons;
        environment.keySet().forEach(name -> spellings.add(spelling(name)));
    }

    /** The process's environment, as {@link ConfigSources#environmentVariables()} reads it. */
    static EnvironmentSource create() {
        return of(System.getenv());
    }

    /** @param environment the variables Helidon's source reads: the process's own, but in a test */
    static EnvironmentSource of(Map<String, String> environment) {
        return new EnvironmentSource(ConfigSources.environmentVariables(), environment);
    }

    @Override
    public Optional<ConfigNode> node(String key) {
        return mayHold(key) ? helidonsLookup.node(key) : Optional.empty();
    }

    /** Whether a variable may set the key, or a key below it. */
    boolean mayHold(String key) {
        String plain = spelling(key);
        String dashed = spelling(key.replace("-", "_dash_"));
        return holds(plain) || holds(dashed);
    }

    private boolean holds(String spelling) {
        if (spellings.contains(spelling)) {
            return true;
        }
        String below = spellings.ceiling(spelling + "_");
        return below != null && below.startsWith(spelling + "_");
    }

    /** Upper case, each character other than an ASCII letter or digit an underscore. */
    static String spelling(String name) {
        StringBuilder spelling = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'a' && c <= 'z') {
                spelling.append((char) (c - 'a' + 'A'));
            } else if (c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
                spelling.append(c);
            } else {
                spelling.append('_');
            }
        }
        return spelling.toString();
    }

    @Override
    public Optional<ConfigContent.NodeContent> load() throws ConfigException {
        return helidons.load();
    }

    @Override
    public void init(ConfigContext context) {
        helidons.init(context);
    }

    @Override
    public String description() {
        return helidons.description();
    }

    @Override
    public boolean exists() {
        return helidons.exists();
    }

    @Override
    public Optional<RetryPolicy> retryPolicy() {
        return helidons.retryPolicy();
    }

    @Override
    public boolean optional() {
        return helidons.optional();
    }
}
