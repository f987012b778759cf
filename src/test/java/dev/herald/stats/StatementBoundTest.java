package dev.herald.stats;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

/**
 * A stats statement's bound leaves room, within limits.read-timeout, for the longest wait for a read turn (2 s) and a
 * silent database's second: otherwise a request is cut unanswered (an outside trial at PT4S, bound 2 s: 3 of 24).
 */
class StatementBoundTest {

    @Test
    void halfOfTheReadTimeOutWhenThatLeavesRoomForTheTurnsWaitAndTheSocketsSecond() {
        assertThat(StatsService.statementBound(Duration.ofSeconds(20)), is(Duration.ofSeconds(10)));
        assertThat(StatsService.statementBound(Duration.ofSeconds(60)), is(Duration.ofSeconds(30)));
        assertThat(StatsService.statementBound(Duration.ofSeconds(6)), is(Duration.ofSeconds(3)));
    }

    @Test
    void lessWhenHalfWouldNotLeaveThatRoomAndATenthOfASecondAtLeast() {
        assertThat(StatsService.statementBound(Duration.ofSeconds(4)), is(Duration.ofSeconds(1)));
        assertThat(StatsService.statementBound(Duration.ofMillis(4500)), is(Duration.ofMillis(1500)));
        assertThat(StatsService.statementBound(Duration.ofSeconds(2)), is(Duration.ofMillis(100)));
        assertThat(StatsService.statementBound(Duration.ofMillis(1)), is(Duration.ofMillis(100)));
    }

    @Test
    void theStatsConnectionsAreThreeForEachProjectsStatsAndOneForEachOtherRead() {
        assertThat(StatsService.connectionsAtOnce(4), is(8));
        assertThat(StatsService.connectionsAtOnce(1), is(3));
        assertThat(StatsService.connectionsAtOnce(5), is(9));
        assertThat(StatsService.projectsAtOnce(1), is(1));
        assertThat(StatsService.projectsAtOnce(4), is(2));
    }

    @Test
    void aBoundIsWrittenInSecondsAsAPersonWritesThem() {
        assertThat(StatsStore.seconds(Duration.ofSeconds(10)), is("10 s"));
        assertThat(StatsStore.seconds(Duration.ofMillis(2500)), is("2.5 s"));
        assertThat(StatsStore.seconds(Duration.ofMillis(100)), is("0.1 s"));
    }
}
