package dev.herald.storage;

import java.util.regex.Pattern;

/**
 * A JDBC URL fit for a log line: a password written into it (as {@code user:secret@} or {@code password=secret})
 * is replaced by stars.
 */
public final class DatabaseUrls {

    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*):[^/@]*@");
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)((?:password|pwd|pass)\\w*=)[^&;]*");

    private DatabaseUrls() {
    }

    public static String withoutSecrets(String url) {
        String masked = USER_INFO.matcher(url).replaceAll("$1:***@");
        return PASSWORD_PARAMETER.matcher(masked).replaceAll("$1***");
    }
}
