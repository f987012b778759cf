package dev.herald.audience;

import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A dotted numeric version as apps report theirs ({@code 2.3.1}, {@code v2.10}, {@code 3.0.0-beta.2}), compared part
 * by part as numbers, so 2.10 is above 2.9, and a missing part counts as 0 (2.3 equals 2.3.0). A pre-release suffix
 * sorts below its release, as in Semantic Versioning 2.0.0 §11 (3.0.0-beta &lt; 3.0.0; two pre-releases compare
 * identifier by identifier, numeric ones as numbers and below text ones); build metadata ({@code +build.5}) is
 * ignored. Anything else is no version: a condition on it does not match.
 */
record Version(long[] parts, String[] preRelease) implements Comparable<Version> {

    private static final Pattern FORM = Pattern.compile(
            "[vV]?([0-9]{1,18}(?:\\.[0-9]{1,18}){0,7})(?:-([0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*))?(?:\\+[0-9A-Za-z.-]+)?");
    private static final String[] RELEASE = new String[0];

    static Optional<Version> parse(String text) {
        if (text == null || text.length() > 256) {
            return Optional.empty();
        }
        Matcher matcher = FORM.matcher(text);
        if (!matcher.matches()) {
            return Optional.empty();
        }
        long[] parts = Arrays.stream(matcher.group(1).split("\\.")).mapToLong(Long::parseLong).toArray();
        String[] preRelease = matcher.group(2) == null ? RELEASE : matcher.group(2).split("\\.");
        return Optional.of(new Version(parts, preRelease));
    }

    @Override
    public int compareTo(Version other) {
        int length = Math.max(parts.length, other.parts.length);
        for (int i = 0; i < length; i++) {
            int compared = Long.compare(part(i), other.part(i));
            if (compared != 0) {
                return compared;
            }
        }
        return comparePreRelease(other);
    }

    private long part(int index) {
        return index < parts.length ? parts[index] : 0;
    }

    private int comparePreRelease(Version other) {
        // A release is above every pre-release of its numbers.
        if (preRelease.length == 0 || other.preRelease.length == 0) {
            return Boolean.compare(preRelease.length == 0, other.preRelease.length == 0);
        }
        int length = Math.min(preRelease.length, other.preRelease.length);
        for (int i = 0; i < length; i++) {
            int compared = compareIdentifier(preRelease[i], other.preRelease[i]);
            if (compared != 0) {
                return compared;
            }
        }
        return Integer.compare(preRelease.length, other.preRelease.length);
    }

    private static int compareIdentifier(String a, String b) {
        boolean numericA = isNumeric(a);
        boolean numericB = isNumeric(b);
        if (numericA && numericB) {
            return a.length() != b.length() ? Integer.compare(a.length(), b.length()) : a.compareTo(b);
        }
        if (numericA != numericB) {
            return numericA ? -1 : 1;
        }
        return a.compareTo(b);
    }

    private static boolean isNumeric(String identifier) {
        return identifier.chars().allMatch(c -> c >= '0' && c <= '9');
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Version version && compareTo(version) == 0;
    }

    @Override
    public int hashCode() {
        int length = parts.length;
        while (length > 0 && parts[length - 1] == 0) {
            length--;
        }
        return 31 * Arrays.hashCode(Arrays.copyOf(parts, length)) + Arrays.hashCode(preRelease);
    }

    @Override
    public String toString() {
        return Arrays.toString(parts) + (preRelease.length == 0 ? "" : "-" + String.join(".", preRelease));
    }
}
