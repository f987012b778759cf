package dev.herald.storage;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDBC URL fit for a log line: a password written into it (as {@code user:secret@} or {@code password=secret})
 * is replaced by stars.
 */
public final class DatabaseUrls {

    // Up to the last @ before the path: a password may hold an @.
    private static final Pattern USER_INFO = Pattern.compile("(//[^/@:]*):[^/]*@");
    // Up to the next & or blank: in a MariaDB URL a ; belongs to the value.
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile("(?i)((?:password|pwd|pass)\\w*=)[^&\\s]*");

    private DatabaseUrls() {
    }

    /** A URL, or any text that may quote one (a driver's message). */
    public static String withoutSecrets(String text) {
        String masked = USER_INFO.matcher(text).replaceAll("$1:***@");
        return PASSWORD_PARAMETER.matcher(masked).replaceAll("$1***");
    }

    /**
     * A driver's message, which may quote the URL in pieces ({@code Incorrect port value : secret@host}): masked as
     * a URL, then every password the URL or the settings hold is replaced wherever it appears (unless so short
     * that it would mask words).
     */
    public static String withoutSecrets(String text, String url, String password) {
        String masked = withoutSecrets(text);
        List<String> secrets = new ArrayList<>();
        secrets.add(password);
        Matcher userInfo = USER_INFO.matcher(url);
        while (userInfo.find()) {
            String whole = userInfo.group();
            secrets.add(whole.substring(userInfo.group(1).length() + 1, whole.length() - 1));
        }
        Matcher parameter = PASSWORD_PARAMETER.matcher(url);
        while (parameter.find()) {
            secrets.add(parameter.group().substring(parameter.group(1).length()));
        }
        for (String secret : secrets) {
            if (secret != null && secret.length() >= 3) {
                masked = masked.replace(secret, "***");
            }
        }
        return masked;
    }
}
