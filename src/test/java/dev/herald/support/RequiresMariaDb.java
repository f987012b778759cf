package dev.herald.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that runs against MariaDB: skipped with instructions when the server is absent on a developer's
 * machine, failed under {@code CI=true}. Evaluated before the server extension starts anything.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@ExtendWith(MariaDbCondition.class)
public @interface RequiresMariaDb {
}
