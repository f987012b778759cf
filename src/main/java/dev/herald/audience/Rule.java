package dev.herald.audience;

import java.util.List;
import java.util.function.Consumer;

import dev.herald.identity.UserIdentity;

/**
 * A node of an audience tree, parsed and checked once ({@link AudienceParser}); evaluating one reads no JSON.
 */
sealed interface Rule permits Rule.Group, Rule.Not, Condition, Rule.Rollout {

    /** Where the node is in the request that set it: {@code audience.all[2]}. */
    String path();

    boolean matches(UserIdentity user, String notificationId, long now);

    /** This node's outcome and, before it, its children's: what "would this user see it?" shows. */
    default boolean explain(UserIdentity user, String notificationId, long now, Consumer<Outcome> outcomes) {
        boolean matches = matches(user, notificationId, now);
        outcomes.accept(new Outcome(path(), matches));
        return matches;
    }

    /** @param matches whether the node matched the user */
    record Outcome(String path, boolean matches) {
    }

    /**
     * {@code all} (every rule matches) or {@code any} (at least one does); evaluation stops at the first rule that
     * decides.
     *
     * @param every true for {@code all}
     */
    record Group(String path, List<Rule> rules, boolean every) implements Rule {
        @Override
        public boolean matches(UserIdentity user, String notificationId, long now) {
            for (Rule rule : rules) {
                if (rule.matches(user, notificationId, now) != every) {
                    return !every;
                }
            }
            return every;
        }

        /** Every rule explained, even past the one that decides: the check shows each condition's outcome. */
        @Override
        public boolean explain(UserIdentity user, String notificationId, long now, Consumer<Outcome> outcomes) {
            boolean decided = false;
            for (Rule rule : rules) {
                decided |= rule.explain(user, notificationId, now, outcomes) != every;
            }
            boolean matches = decided != every;
            outcomes.accept(new Outcome(path, matches));
            return matches;
        }
    }

    record Not(String path, Rule rule) implements Rule {
        @Override
        public boolean matches(UserIdentity user, String notificationId, long now) {
            return !rule.matches(user, notificationId, now);
        }

        @Override
        public boolean explain(UserIdentity user, String notificationId, long now, Consumer<Outcome> outcomes) {
            boolean matches = !rule.explain(user, notificationId, now, outcomes);
            outcomes.accept(new Outcome(path, matches));
            return matches;
        }
    }

    /** The same user is always in or always out of the same notification's {@code percent}. */
    record Rollout(String path, int percent) implements Rule {
        @Override
        public boolean matches(UserIdentity user, String notificationId, long now) {
            return RolloutBucket.of(notificationId, user.subject()) < percent;
        }
    }
}
