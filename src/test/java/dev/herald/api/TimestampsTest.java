package dev.herald.api;

import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.is;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The hand-written wire form against the JDK's formatter of the same pattern, which it replaces on the hot paths. */
class TimestampsTest {

    private static final DateTimeFormatter JDK = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private static String jdk(long millis) {
        return JDK.format(Instant.ofEpochMilli(millis));
    }

    @Test
    void anyInstantOfTheFourDigitYearsIsWrittenAsTheJdkWritesIt() {
        SplittableRandom random = new SplittableRandom(20261129L);
        for (int i = 0; i < 2_000_000; i++) {
            long millis = random.nextLong(Timestamps.FIRST_FOUR_DIGIT_MILLIS, Timestamps.FIRST_FIVE_DIGIT_MILLIS);
            assertThat(millis + " ms", Timestamps.format(millis), is(jdk(millis)));
        }
    }

    @Test
    void theEdgesOfDaysMonthsLeapYearsAndCenturiesAreWrittenAsTheJdkWritesThem() {
        long day = 86_400_000L;
        long[] instants = {
            0, -1, 1, day - 1, day, -day, -day - 1,
            Instant.parse("2000-02-29T23:59:59.999Z").toEpochMilli(),
            Instant.parse("2000-03-01T00:00:00.000Z").toEpochMilli(),
            Instant.parse("1900-02-28T23:59:59.999Z").toEpochMilli(),
            Instant.parse("1900-03-01T00:00:00.000Z").toEpochMilli(),
            Instant.parse("2100-02-28T12:00:00.000Z").toEpochMilli(),
            Instant.parse("2024-12-31T23:59:59.999Z").toEpochMilli(),
            Instant.parse("2025-01-01T00:00:00.000Z").toEpochMilli(),
            Instant.parse("1600-02-29T00:00:00.000Z").toEpochMilli(),
            Timestamps.FIRST_FOUR_DIGIT_MILLIS, Timestamps.FIRST_FOUR_DIGIT_MILLIS + 1,
            Timestamps.FIRST_FOUR_DIGIT_MILLIS - 1,
            Timestamps.FIRST_FIVE_DIGIT_MILLIS, Timestamps.FIRST_FIVE_DIGIT_MILLIS - 1,
            Long.MIN_VALUE / 1000, Long.MAX_VALUE / 1000,
        };
        for (long millis : instants) {
            assertThat(millis + " ms", Timestamps.format(millis), is(jdk(millis)));
        }
        // Every day of four leap cycles, at its first and last millisecond.
        long from = Instant.parse("1999-01-01T00:00:00Z").toEpochMilli();
        for (long d = 0; d < 4 * 366 * 4; d++) {
            assertThat(Timestamps.format(from + d * day), is(jdk(from + d * day)));
            assertThat(Timestamps.format(from + d * day + day - 1), is(jdk(from + d * day + day - 1)));
        }
    }

    @Test
    void anInstantAppendedQuotedIsTheJsonStringOfItsWireFormAtAnyYear() {
        SplittableRandom random = new SplittableRandom(20261130L);
        for (int i = 0; i < 200_000; i++) {
            long millis = i % 10 == 0 ? random.nextLong(Long.MIN_VALUE / 1000, Long.MAX_VALUE / 1000)
                    : random.nextLong(Timestamps.FIRST_FOUR_DIGIT_MILLIS, Timestamps.FIRST_FIVE_DIGIT_MILLIS);
            StringBuilder appended = Timestamps.appendQuoted(new StringBuilder("x:"), millis);
            assertThat(millis + " ms", appended.toString(), is("x:\"" + jdk(millis) + "\""));
        }
        assertThat(Timestamps.appendQuoted(new StringBuilder(), Timestamps.FIRST_FIVE_DIGIT_MILLIS).toString(),
                   is("\"+10000-01-01T00:00:00.000Z\""));
    }

    @Test
    void theWireFormIsUtcWithMilliseconds() {
        assertThat(Timestamps.format(Instant.parse("2026-11-22T10:15:00Z").toEpochMilli()),
                   is("2026-11-22T10:15:00.000Z"));
        assertThat(Timestamps.format(Instant.parse("0999-01-02T03:04:05.006Z").toEpochMilli()),
                   is("0999-01-02T03:04:05.006Z"));
    }

    /** What the JDK's parse of ISO_OFFSET_DATE_TIME answers: the instant, or "refused". */
    private static String jdkParse(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant().toString();
        } catch (DateTimeParseException e) {
            return "refused";
        }
    }

    private static String parse(String text) {
        try {
            return Timestamps.parseZoned(text).toString();
        } catch (DateTimeParseException e) {
            return "refused";
        }
    }

    @Test
    void aDateTimeWithAZoneIsReadAsTheJdkReadsItOrRefusedAsItRefusesIt() {
        SplittableRandom random = new SplittableRandom(20261130L);
        String[] fractions = {"", ".1", ".12", ".123", ".1234", ".123456", ".123456789", ".1234567890", ".", ".12a"};
        String[] zones = {"Z", "z", "+00:00", "-05:30", "+14:00", "+18:01", "", "ZZ", "+0100", "+01"};
        int read = 0;
        for (int i = 0; i < 300_000; i++) {
            String text;
            if (i % 3 == 0) {
                // Any instant of the four-digit years in the form clients send, with a fraction of any length.
                long millis = random.nextLong(Timestamps.FIRST_FOUR_DIGIT_MILLIS, Timestamps.FIRST_FIVE_DIGIT_MILLIS);
                String wire = Timestamps.format(millis);
                text = wire.substring(0, 19) + fractions[random.nextInt(fractions.length)] + "Z";
            } else {
                // Fields near and beyond their ranges, separators and zones of other forms.
                text = String.format("%04d-%02d-%02d%s%02d:%02d:%02d%s%s", random.nextInt(-1, 10_000),
                                     random.nextInt(0, 14), random.nextInt(0, 33), random.nextInt(8) == 0 ? "t" : "T",
                                     random.nextInt(0, 25), random.nextInt(0, 61), random.nextInt(0, 61),
                                     fractions[random.nextInt(fractions.length)], zones[random.nextInt(zones.length)]);
            }
            String expected = jdkParse(text);
            assertThat(text, parse(text), is(expected));
            read += expected.equals("refused") ? 0 : 1;
        }
        assertThat("enough texts were dates to test the reading", read > 100_000, is(true));
        for (String text : new String[] {
            "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2000-02-29T23:59:59.999999999Z",
            "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "+10000-01-01T00:00:00Z", "2026-11-30T24:00:00Z",
            "2026-11-30T10:15Z", "2026-11-30T10:15:60Z", "2026-11-30T10:15:00.Z", "2026-11-30 10:15:00Z", "",
            "2026-11-30T10:15:00", "２０２６-11-30T10:15:00Z", "2026-11-30T10:15:00.000+01:00",
        }) {
            assertThat(text, parse(text), is(jdkParse(text)));
        }
    }
}
