package dev.herald.support;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * See {@link RequiresMariaDb}.
 */
final class MariaDbCondition implements ExecutionCondition {

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        return TestDatabase.mariadbProblem()
                .map(problem -> {
                    if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                        throw new IllegalStateException("CI=true requires MariaDB: " + problem);
                    }
                    return ConditionEvaluationResult.disabled("Skipping MariaDB tests: " + problem);
                })
                .orElseGet(() -> ConditionEvaluationResult.enabled("MariaDB answers"));
    }
}
