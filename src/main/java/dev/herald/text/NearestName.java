package dev.herald.text;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name that an unknown one was probably meant to be: the same but for case, {@code _} or {@code -}
 * ({@code Status}, {@code start_date}), or within one typing slip (two for names of 8 letters or more), a slip
 * being a letter added, left out, replaced, or two neighbours swapped ({@code stauts}). Farther than that a
 * suggestion would more likely mislead than help. For a field of a request body as for a key of the configuration.
 */
public final class NearestName {

    private NearestName() {
    }

    /** @return the nearest of {@code known} within reach, the first listed on a tie */
    public static Optional<String> among(String name, List<String> known) {
        String typed = normalized(name);
        String nearest = null;
        int nearestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            String target = normalized(candidate);
            int reach = target.length() >= 8 ? 2 : 1;
            // Lengths further apart than the reach cannot be within it: a long name is never compared in full.
            if (Math.abs(typed.length() - target.length()) > reach) {
                continue;
            }
            int distance = distance(typed, target);
            if (distance <= reach && distance < nearestDistance) {
                nearest = candidate;
                nearestDistance = distance;
            }
        }
        return Optional.ofNullable(nearest);
    }

    private static String normalized(String name) {
        return name.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
