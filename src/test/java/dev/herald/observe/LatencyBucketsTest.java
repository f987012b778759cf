package dev.herald.observe;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;

/** The latency histogram tells a stats answer near its 10 s bound from one past the read time-out. */
class LatencyBucketsTest {

    @Test
    void answersOfSevenAndTwentyFiveSecondsFallInTheirOwnBuckets() {
        Metrics metrics = new Metrics();
        Metrics.Series series = metrics.series(0, 0);
        series.answered(200, TimeUnit.MILLISECONDS.toNanos(4));
        series.answered(200, TimeUnit.SECONDS.toNanos(7));
        series.answered(503, TimeUnit.SECONDS.toNanos(25));
        series.answered(500, TimeUnit.SECONDS.toNanos(40));
        StringBuilder out = new StringBuilder();
        metrics.writeTo(out);

        String labels = "herald_http_request_duration_seconds_bucket{method=\"" + MethodNames.name(0) + "\",route=\""
                        + RouteNames.name(0) + "\",le=";
        assertThat(out.toString(), containsString(labels + "\"0.005\"} 1\n"));
        assertThat(out.toString(), containsString(labels + "\"5.0\"} 1\n"));
        assertThat(out.toString(), containsString(labels + "\"10.0\"} 2\n"));
        assertThat(out.toString(), containsString(labels + "\"30.0\"} 3\n"));
        assertThat(out.toString(), containsString(labels + "\"+Inf\"} 4\n"));
    }
}
