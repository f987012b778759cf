package dev.herald.api;

import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.OffsetDateTime;
import java.time.Year;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The wire form of instants: UTC with milliseconds, {@code 2026-11-22T10:15:00.000Z} (docs/api.md#conventions).
 *
 * <p>Years 0000 to 9999 are written by hand, the rest by {@link DateTimeFormatter}: an interaction's event item
 * carries two instants and an export row two or three, and the formatter's field lookups took most of the time
 * that writing an item cost a tracking request with a webhook endpoint (JFR, bench/webhooks.sh). {@code
 * TimestampsTest} holds the two to the same text. Reading is alike: the form clients send is read by hand, every
 * other form by the formatter.
 */
public final class Timestamps {

    private static final DateTimeFormatter WIRE = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** 0000-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the instants whose year has four digits and no sign. */
    static final long FIRST_FOUR_DIGIT_MILLIS = -62_167_219_200_000L;
    static final long FIRST_FIVE_DIGIT_MILLIS = 253_402_300_800_000L;
    /** Days from 0000-03-01 to 1970-01-01, in the proleptic Gregorian calendar. */
    private static final long DAYS_0000_03_01_TO_EPOCH = 719_468L;
    private static final int LENGTH = 24;

    private Timestamps() {
    }

    public static String format(long epochMillis) {
        if (epochMillis < FIRST_FOUR_DIGIT_MILLIS || epochMillis >= FIRST_FIVE_DIGIT_MILLIS) {
            return WIRE.format(Instant.ofEpochMilli(epochMillis));
        }
        char[] text = new char[LENGTH];
        write(epochMillis, text, 0);
        return new String(text);
    }

    /**
     * Appends the instant as a JSON string, quotes included, as {@code Json.appendString(json, format(epochMillis))}
     * would, without the string in between: an event of interactions writes two for each interaction, and making
     * those strings was a tenth of a webhook sender's time (JFR, bench/webhooks.sh).
     */
    public static StringBuilder appendQuoted(StringBuilder json, long epochMillis) {
        if (epochMillis < FIRST_FOUR_DIGIT_MILLIS || epochMillis >= FIRST_FIVE_DIGIT_MILLIS) {
            return Json.appendString(json, format(epochMillis));
        }
        char[] text = new char[LENGTH + 2];
        text[0] = '"';
        write(epochMillis, text, 1);
        text[LENGTH + 1] = '"';
        return json.append(text);
    }

    /**
     * An ISO 8601 date-time with a zone, as {@code OffsetDateTime.parse(text, ISO_OFFSET_DATE_TIME).toInstant()}
     * reads it, or DateTimeParseException as it throws. The form a client's clock writes, a four-digit year in UTC
     * with or without a fraction ({@code 2026-11-22T10:15:00.123Z}, JavaScript's {@code toISOString}), is read by
     * hand: the formatter's parse was 7 % of an enhanced tracking request's CPU (JFR, docs/performance.md). Every
     * other form, and any value out of its field's range, goes to the formatter, which answers for it.
     */
    public static Instant parseZoned(String text) {
        Instant utc = utcOfFourDigitYear(text);
        return utc != null ? utc : OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
    }

    /** {@code uuuu-MM-ddTHH:mm:ss[.f{1,9}]Z} with every field in range, or null for the formatter to read. */
    private static Instant utcOfFourDigitYear(String text) {
        int length = text.length();
        if (length < 20 || length == 21 || length > 30 || text.charAt(length - 1) != 'Z'
                || text.charAt(4) != '-' || text.charAt(7) != '-' || text.charAt(10) != 'T'
                || text.charAt(13) != ':' || text.charAt(16) != ':' || length > 20 && text.charAt(19) != '.') {
            return null;
        }
        int year = number(text, 0, 4);
        int month = number(text, 5, 2);
        int day = number(text, 8, 2);
        int hour = number(text, 11, 2);
        int minute = number(text, 14, 2);
        int second = number(text, 17, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > Month.of(month).length(Year.isLeap(year))
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return null;
        }
        int nanos = 0;
        if (length > 20) {
            int digits = length - 21;
            nanos = number(text, 20, digits);
            if (nanos < 0) {
                return null;
            }
            for (int i = digits; i < 9; i++) {
                nanos *= 10;
            }
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal number of {@code width} ASCII digits at {@code from}, or -1 if any is not one. */
    private static int number(String text, int from, int width) {
        int value = 0;
        for (int i = from; i < from + width; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The wire form of an instant of a four-digit year, its {@value #LENGTH} characters at {@code at}. */
    private static void write(long epochMillis, char[] text, int at) {
        long days = Math.floorDiv(epochMillis, MILLIS_PER_DAY);
        int millisOfDay = (int) Math.floorMod(epochMillis, MILLIS_PER_DAY);
        // The civil date of a day number, counting years from March so that February's leap day comes last
        // (the algorithm of java.time.LocalDate.ofEpochDay and of H. Hinnant's "days_from_civil").
        long shifted = days + DAYS_0000_03_01_TO_EPOCH;
        long era = Math.floorDiv(shifted, 146_097L);
        int dayOfEra = (int) (shifted - era * 146_097L);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        int month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        int year = (int) (yearOfEra + era * 400) + (month <= 2 ? 1 : 0);

        digits(text, at, year, 4);
        text[at + 4] = '-';
        digits(text, at + 5, month, 2);
        text[at + 7] = '-';
        digits(text, at + 8, day, 2);
        text[at + 10] = 'T';
        digits(text, at + 11, millisOfDay / 3_600_000, 2);
        text[at + 13] = ':';
        digits(text, at + 14, millisOfDay / 60_000 % 60, 2);
        text[at + 16] = ':';
        digits(text, at + 17, millisOfDay / 1000 % 60, 2);
        text[at + 19] = '.';
        digits(text, at + 20, millisOfDay % 1000, 3);
        text[at + 23] = 'Z';
    }

    /** {@code value} in {@code width} decimal digits, zeros in front, at {@code from}. */
    private static void digits(char[] text, int from, int value, int width) {
        int rest = value;
        for (int i = from + width - 1; i >= from; i--) {
            text[i] = (char) ('0' + rest % 10);
            rest /= 10;
        }
    }
}
