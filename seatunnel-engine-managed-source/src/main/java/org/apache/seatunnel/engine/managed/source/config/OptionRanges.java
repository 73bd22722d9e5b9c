/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *    http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package org.apache.seatunnel.engine.managed.source.config;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.engine.managed.source.protocol.AssignmentPayload;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;

/**
 * The allowed range of every numeric option of the managed-source section, and the strict reading
 * of a raw YAML value into it.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Why strict: a value that loads but means something else than the operator wrote is worse than
 * a refusal. So nothing is coerced: {@code 1.5} is not a count, {@code "256 MiB"} is 268,435,456
 * bytes and never 256, a value past {@link Long#MAX_VALUE} is out of range rather than a parser
 * error, and a dedup window that is not a power of two is refused rather than rounded. Every
 * refusal names the full key, the value as written and the allowed range.
 *
 * <p>Upper bounds keep a single reader's own allocations (mailbox ring, dedup table) well below a
 * small heap and keep durations in the range where an operator still sees the effect; they are not
 * performance advice.
 */
public final class OptionRanges {
    /** How a value is written and shown. */
    public enum Unit {
        /** A whole number. */
        COUNT,
        /** A whole number of bytes, or a number with B, KiB, MiB, GiB or TiB. */
        BYTES,
        /** ms, s, m/min, h; ISO-8601 (PT0.5S); a bare whole number is milliseconds. */
        DURATION
    }

    /** One option's range: {@code min <= value <= max}, in bytes, nanoseconds or units. */
    public static final class Range {
        private final Option<?> option;
        private final Unit unit;
        private final long min;
        private final long max;
        private final boolean powerOfTwo;

        Range(Option<?> option, Unit unit, long min, long max, boolean powerOfTwo) {
            this.option = option;
            this.unit = unit;
            this.min = min;
            this.max = max;
            this.powerOfTwo = powerOfTwo;
        }

        public Option<?> option() {
            return option;
        }

        public Unit unit() {
            return unit;
        }

        /** Smallest allowed value (bytes, nanoseconds or units). */
        public long min() {
            return min;
        }

        /** Largest allowed value (bytes, nanoseconds or units). */
        public long max() {
            return max;
        }

        public boolean powerOfTwo() {
            return powerOfTwo;
        }

        /** E.g. {@code 1 .. 65536}, {@code 1 KiB .. 1 GiB, a power of two}, {@code 1ms .. 1h}. */
        public String describe() {
            return render(unit, min)
                    + " .. "
                    + render(unit, max)
                    + (powerOfTwo ? ", a power of two" : "");
        }
    }

    private static final long KIB = 1024L;
    private static final long MIB = KIB * 1024;
    private static final long GIB = MIB * 1024;
    private static final long TIB = GIB * 1024;
    private static final long MS = 1_000_000L;
    private static final long SECOND = 1000 * MS;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;

    private static final Map<String, Range> RANGES;

    static {
        Map<String, Range> m = new LinkedHashMap<>();
        count(m, ManagedSourceOptions.MAILBOX_MAX_COMMANDS, 1, 65_536);
        bytes(m, ManagedSourceOptions.MAILBOX_MAX_BYTES, KIB, GIB);
        count(m, ManagedSourceOptions.MAILBOX_RESERVED_COMMANDS, 1, 4096);
        bytes(m, ManagedSourceOptions.MAILBOX_RESERVED_BYTES, KIB, 64 * MIB);
        bytes(m, ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES, MIB, 64 * GIB);
        bytes(m, ManagedSourceOptions.MAX_COMMAND_PAYLOAD_BYTES, KIB, 64 * MIB);
        m.put(
                ManagedSourceOptions.DEDUP_WINDOW.key(),
                new Range(ManagedSourceOptions.DEDUP_WINDOW, Unit.COUNT, 16, 1 << 20, true));
        count(m, ManagedSourceOptions.MAILBOX_MAX_SEQUENCE_GAPS, 1, 65_536);
        count(m, ManagedSourceOptions.POLL_MAX_RECORDS, 1, 1_000_000);
        bytes(m, ManagedSourceOptions.POLL_MAX_BYTES, KIB, GIB);
        duration(m, ManagedSourceOptions.POLL_SOFT_DURATION, MS, 10 * SECOND);
        duration(m, ManagedSourceOptions.POLL_HARD_DURATION, MS, 10 * MINUTE);
        duration(m, ManagedSourceOptions.POLL_CANCELLATION_TIMEOUT, MS, HOUR);
        duration(m, ManagedSourceOptions.ADMISSION_P99_BUDGET, MS, 10 * SECOND);
        duration(m, ManagedSourceOptions.REPORT_BATCH_WINDOW, 0, SECOND);
        count(m, ManagedSourceOptions.REPORT_BATCH_MAX_REPORTS, 1, CommandBatchCodec.MAX_ENTRIES);
        count(m, ManagedSourceOptions.COMMAND_BATCH_MAX_COMMANDS, 1, CommandBatchCodec.MAX_ENTRIES);
        duration(m, ManagedSourceOptions.RETRY_INITIAL_BACKOFF, MS, MINUTE);
        duration(m, ManagedSourceOptions.RETRY_MAX_BACKOFF, MS, 10 * MINUTE);
        count(m, ManagedSourceOptions.RETRY_MAX_ATTEMPTS, 1, 1_000_000);
        count(m, ManagedSourceOptions.COORDINATOR_ASYNC_MAX_CONCURRENCY, 1, 1024);
        count(m, ManagedSourceOptions.COORDINATOR_ASYNC_QUEUE_CAPACITY, 0, 65_536);
        count(m, ManagedSourceOptions.ASYNC_DISCOVERY_THREADS, 1, 256);
        count(m, ManagedSourceOptions.ASYNC_DISCOVERY_QUEUE, 1, 1_000_000);
        count(m, ManagedSourceOptions.ASYNC_COMPUTE_THREADS, 1, 256);
        count(m, ManagedSourceOptions.ASYNC_COMPUTE_QUEUE, 1, 1_000_000);
        count(m, ManagedSourceOptions.TRACKER_MAX_ENTRIES, 1, 10_000_000);
        bytes(m, ManagedSourceOptions.TRACKER_MAX_BYTES, KIB, 16 * GIB);
        count(m, ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_ENTRIES, 1, 10_000_000);
        bytes(m, ManagedSourceOptions.TRACKER_MAX_UNASSIGNED_BYTES, KIB, 16 * GIB);
        count(
                m,
                ManagedSourceOptions.COORDINATOR_MAX_SPLITS_PER_COMMAND,
                1,
                AssignmentPayload.MAX_SPLITS);
        duration(m, ManagedSourceOptions.CUT_HOLD_TIMEOUT, MS, HOUR);
        duration(m, ManagedSourceOptions.SCHEMA_CHANGE_TIMEOUT, MS, 24 * HOUR);
        duration(m, ManagedSourceOptions.IDLE_WAIT, MS, MINUTE);
        duration(m, ManagedSourceOptions.POLL_LINGER, 0, SECOND);
        count(m, ManagedSourceOptions.WAKE_BUDGET, 0, 1_000_000);
        count(m, ManagedSourceOptions.OFF_LOOP_CHECK_INTERVAL, 1, 1_000_000);
        count(m, ManagedSourceOptions.READER_MAX_OUTSTANDING_REQUESTS, 1, 1024);
        count(m, ManagedSourceOptions.READER_SPLIT_WINDOW, 2, 10_000_000);
        duration(m, ManagedSourceOptions.READER_INTERRUPT_CHECK_INTERVAL, MS, SECOND);
        duration(m, ManagedSourceOptions.BARRIER_HANDOFF_TIMEOUT, 0, 10 * SECOND);
        duration(m, ManagedSourceOptions.OUTPUT_IN_FLIGHT_TARGET, 0, MINUTE);
        duration(m, ManagedSourceOptions.COORDINATOR_CLOSE_TIMEOUT, MS, 10 * MINUTE);
        duration(m, ManagedSourceOptions.COORDINATOR_SNAPSHOT_TIMEOUT, MS, 10 * MINUTE);
        duration(m, ManagedSourceOptions.COORDINATOR_SNAPSHOT_SLOW_THRESHOLD, MS, 10 * MINUTE);
        RANGES = Collections.unmodifiableMap(m);
    }

    private OptionRanges() {}

    private static void count(Map<String, Range> m, Option<?> o, long min, long max) {
        m.put(o.key(), new Range(o, Unit.COUNT, min, max, false));
    }

    private static void bytes(Map<String, Range> m, Option<?> o, long min, long max) {
        m.put(o.key(), new Range(o, Unit.BYTES, min, max, false));
    }

    private static void duration(Map<String, Range> m, Option<?> o, long min, long max) {
        m.put(o.key(), new Range(o, Unit.DURATION, min, max, false));
    }

    /** The range of a numeric option, or null for a non-numeric one. */
    public static Range of(Option<?> option) {
        return RANGES.get(option.key());
    }

    /** Every range, in declaration order. */
    public static Map<String, Range> all() {
        return RANGES;
    }

    /**
     * Reads {@code raw} (a YAML scalar, a {@link Number}, a {@link Duration} or null for the
     * default) strictly into the option's range.
     *
     * @return bytes, nanoseconds or the count
     * @throws IllegalArgumentException naming {@code prefix + key}, the value and the range
     */
    public static long read(String prefix, Option<?> option, Object raw) {
        Range r = RANGES.get(option.key());
        if (r == null) {
            throw new IllegalArgumentException("no range declared for " + prefix + option.key());
        }
        Object v = raw == null ? option.defaultValue() : raw;
        long value;
        try {
            value = parse(r.unit, v);
        } catch (ValueException e) {
            throw refused(prefix, r, v, e.getMessage());
        }
        if (value < r.min || value > r.max) {
            throw refused(prefix, r, v, "is out of range");
        }
        if (r.powerOfTwo && Long.bitCount(value) != 1) {
            throw refused(
                    prefix,
                    r,
                    v,
                    "is not a power of two (nearest: "
                            + Long.highestOneBit(value)
                            + " or "
                            + (Long.highestOneBit(value) << 1)
                            + ")");
        }
        return value;
    }

    private static IllegalArgumentException refused(
            String prefix, Range r, Object value, String why) {
        return new IllegalArgumentException(
                "Invalid seatunnel.yaml key "
                        + prefix
                        + r.option.key()
                        + ": '"
                        + value
                        + "' "
                        + why
                        + "; allowed: "
                        + r.describe()
                        + " ("
                        + hint(r.unit)
                        + ")");
    }

    private static String hint(Unit unit) {
        switch (unit) {
            case BYTES:
                return "a whole number of bytes, or with a unit: B, KiB, MiB, GiB, TiB";
            case DURATION:
                return "e.g. 5ms, 1s, 2m, 1h, PT0.5S; a bare whole number is milliseconds";
            default:
                return "a whole number";
        }
    }

    /** A value that cannot be read; the message says why, without the key. */
    private static final class ValueException extends Exception {
        private static final long serialVersionUID = 1L;

        ValueException(String why) {
            super(why, null, false, false);
        }
    }

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern SIZE =
            Pattern.compile("([+-]?\\d+)\\s*([A-Za-z]*)", Pattern.CASE_INSENSITIVE);
    private static final Pattern DURATION_TEXT = Pattern.compile("([+-]?\\d+)\\s*([a-z]*)");

    private static long parse(Unit unit, Object v) throws ValueException {
        if (v instanceof Boolean || v instanceof Map || v instanceof Iterable) {
            throw new ValueException("is not " + article(unit));
        }
        switch (unit) {
            case DURATION:
                return parseDuration(v);
            case BYTES:
                return parseBytes(v);
            default:
                return wholeNumber(v);
        }
    }

    private static String article(Unit unit) {
        return unit == Unit.DURATION ? "a duration" : unit == Unit.BYTES ? "a size" : "a number";
    }

    private static long wholeNumber(Object v) throws ValueException {
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger) {
            return exact((BigInteger) v);
        }
        if (v instanceof Double || v instanceof Float || v instanceof BigDecimal) {
            throw new ValueException("is not a whole number");
        }
        String text = String.valueOf(v).trim();
        if (INTEGER.matcher(text).matches()) {
            return exact(new BigInteger(text));
        }
        throw new ValueException("is not a whole number");
    }

    private static long exact(BigInteger b) throws ValueException {
        if (b.bitLength() > 63) {
            throw new ValueException("is out of range");
        }
        return b.longValue();
    }

    private static long parseBytes(Object v) throws ValueException {
        if (v instanceof Number) {
            return wholeNumber(v);
        }
        String text = String.valueOf(v).trim();
        Matcher m = SIZE.matcher(text);
        if (!m.matches()) {
            throw new ValueException("is not a size");
        }
        long n = exact(new BigInteger(m.group(1)));
        long unit;
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "":
            case "b":
                unit = 1;
                break;
            case "kib":
                unit = KIB;
                break;
            case "mib":
                unit = MIB;
                break;
            case "gib":
                unit = GIB;
                break;
            case "tib":
                unit = TIB;
                break;
            case "k":
            case "kb":
            case "m":
            case "mb":
            case "g":
            case "gb":
            case "t":
            case "tb":
                throw new ValueException(
                        "has an ambiguous unit '"
                                + m.group(2)
                                + "' (1000 or 1024?): write KiB, MiB, GiB or TiB");
            default:
                throw new ValueException("has an unknown unit '" + m.group(2) + "'");
        }
        try {
            return Math.multiplyExact(n, unit);
        } catch (ArithmeticException e) {
            throw new ValueException("is out of range");
        }
    }

    private static long parseDuration(Object v) throws ValueException {
        Duration d;
        if (v instanceof Duration) {
            d = (Duration) v;
        } else if (v instanceof Number) {
            d = Duration.ofMillis(wholeNumber(v));
        } else {
            d = parseDurationText(String.valueOf(v).trim());
        }
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            throw new ValueException("is out of range");
        }
    }

    private static Duration parseDurationText(String text) throws ValueException {
        Matcher m = DURATION_TEXT.matcher(text);
        if (m.matches()) {
            long n = exact(new BigInteger(m.group(1)));
            try {
                switch (m.group(2)) {
                    case "":
                    case "ms":
                        return Duration.ofMillis(n);
                    case "s":
                        return Duration.ofSeconds(n);
                    case "m":
                    case "min":
                        return Duration.ofMinutes(n);
                    case "h":
                        return Duration.ofHours(n);
                    default:
                        throw new ValueException("has an unknown unit '" + m.group(2) + "'");
                }
            } catch (ArithmeticException e) {
                throw new ValueException("is out of range");
            }
        }
        try {
            return Duration.parse(text);
        } catch (RuntimeException e) {
            throw new ValueException("is not a duration");
        }
    }

    /** {@code 268435456} bytes → {@code 256 MiB}; nanoseconds → {@code 5ms}, {@code 1h}. */
    static String render(Unit unit, long v) {
        switch (unit) {
            case BYTES:
                long[] sizes = {TIB, GIB, MIB, KIB};
                String[] names = {"TiB", "GiB", "MiB", "KiB"};
                for (int i = 0; i < sizes.length; i++) {
                    if (v >= sizes[i] && v % sizes[i] == 0) {
                        return v / sizes[i] + " " + names[i];
                    }
                }
                return v + " B";
            case DURATION:
                if (v == 0) {
                    return "0";
                }
                if (v % HOUR == 0) {
                    return v / HOUR + "h";
                }
                if (v % MINUTE == 0) {
                    return v / MINUTE + "m";
                }
                if (v % SECOND == 0) {
                    return v / SECOND + "s";
                }
                if (v % MS == 0) {
                    return v / MS + "ms";
                }
                return v + "ns";
            default:
                return Long.toString(v);
        }
    }
}
