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

package org.apache.seatunnel.engine.managed.source.zeta.member;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.seatunnel.api.configuration.Option;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceConfig;
import org.apache.seatunnel.engine.managed.source.config.ManagedSourceOptions;
import org.apache.seatunnel.engine.managed.source.config.OptionRanges;
import org.apache.seatunnel.engine.managed.source.config.OptionRanges.Range;
import org.apache.seatunnel.engine.managed.source.config.OptionRanges.Unit;
import org.junit.jupiter.api.Test;

/**
 * Every numeric key of the managed-source section, through the same YAML parser an operator's
 * seatunnel.yaml goes through: below-range, above-range, wrong-type, fractional, unit and overflow
 * values are refused at load with the full key, the value and the allowed range; the range's own
 * bounds load; nothing is coerced.
 */
class ManagedSourceSettingRangesTest {
    private static final String PREFIX = "seatunnel.engine.managed-source.";

    /**
     * Companion values that let every bound load on its own: cross-key rules (soft <= hard <=
     * cancellation, initial <= max backoff, payload <= mailbox bytes) hold at each bound.
     */
    private static Map<String, String> companions(String key) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("poll.soft-duration", "1ms");
        m.put("poll.hard-duration", "10s");
        m.put("poll.cancellation-timeout", "1h");
        m.put("retry.initial-backoff", "1ms");
        m.put("retry.max-backoff", "10m");
        m.put("command.max-payload-bytes", "1 KiB");
        m.put("reader-mailbox.max-bytes", "1 GiB");
        if (key.equals("poll.cancellation-timeout")) {
            m.put("poll.hard-duration", "1ms");
        }
        m.remove(key);
        return m;
    }

    private static String yaml(String key, String value) {
        StringBuilder sb = new StringBuilder("seatunnel:\n  engine:\n    managed-source:\n");
        for (Map.Entry<String, String> e : companions(key).entrySet()) {
            sb.append("      ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        sb.append("      ").append(key).append(": ").append(value).append('\n');
        return sb.toString();
    }

    private static ManagedSourceConfig load(String key, String value) {
        return ManagedSourceYaml.parse(yaml(key, value));
    }

    private static String refused(Range r, String value) {
        String key = r.option().key();
        IllegalArgumentException e =
                assertThrows(
                        IllegalArgumentException.class,
                        () -> load(key, value),
                        key + ": " + value + " must be refused");
        String m = e.getMessage();
        assertTrue(m.contains(PREFIX + key), "names the full key: " + m);
        assertTrue(m.contains(r.describe()), "names the range: " + m);
        String shown = value.replace("\"", "").replace("'", "");
        if (shown.matches("\\d+(\\.\\d+)?e\\d+")) {
            // YAML reads 2e9 as a floating-point number; it is shown as Java prints it.
            shown = Double.valueOf(shown).toString();
        }
        assertTrue(m.contains(shown), "names the value " + shown + ": " + m);
        return m;
    }

    private static String write(Unit unit, long v) {
        switch (unit) {
            case DURATION:
                // Milliseconds: every duration bound is a whole number of them.
                return (v / 1_000_000L) + "ms";
            default:
                return Long.toString(v);
        }
    }

    @Test
    void everyNumericOptionDeclaresARange() {
        List<String> missing = new ArrayList<>();
        for (Option<?> o : ManagedSourceOptions.all()) {
            Object d = o.defaultValue();
            boolean numeric = d instanceof Number || d instanceof java.time.Duration;
            if (numeric && OptionRanges.of(o) == null) {
                missing.add(o.key());
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    void everyDefaultIsWithinItsRange() {
        // Loading the empty section reads every default through the same range check.
        ManagedSourceConfig.defaults();
    }

    @Test
    void theBoundsThemselvesLoad() {
        for (Range r : OptionRanges.all().values()) {
            load(r.option().key(), write(r.unit(), r.min()));
            load(r.option().key(), write(r.unit(), r.max()));
        }
    }

    @Test
    void belowAndAboveTheRangeAreRefused() {
        for (Range r : OptionRanges.all().values()) {
            long step = r.unit() == Unit.DURATION ? 1_000_000L : 1;
            refused(r, write(r.unit(), r.min() - step));
            refused(r, write(r.unit(), r.max() + step));
            refused(r, "-1");
        }
    }

    @Test
    void wrongTypesAndFractionsAreRefusedNotCoerced() {
        for (Range r : OptionRanges.all().values()) {
            refused(r, "lots");
            refused(r, "true");
            refused(r, "1.5");
            refused(r, "2e9");
        }
    }

    @Test
    void overflowingValuesAreOutOfRangeNotParserErrors() {
        for (Range r : OptionRanges.all().values()) {
            assertTrue(refused(r, "99999999999999999999").contains("out of range"), r.describe());
            refused(r, "9223372036854775807");
        }
        Range worker = OptionRanges.of(ManagedSourceOptions.WORKER_MAILBOX_MAX_BYTES);
        assertTrue(refused(worker, "9999999999 TiB").contains("out of range"));
        Range idle = OptionRanges.of(ManagedSourceOptions.IDLE_WAIT);
        assertTrue(refused(idle, "9999999999999999h").contains("out of range"));
    }

    @Test
    void sizesTakeBinaryUnitsAndRefuseAmbiguousOnes() {
        assertEquals(256L << 20, load("worker.mailbox-max-bytes", "256 MiB").workerMailboxBytes());
        assertEquals(1L << 30, load("worker.mailbox-max-bytes", "1GiB").workerMailboxBytes());
        assertEquals(
                3L << 20, load("reader-mailbox.max-bytes", "3 MiB").mailboxLimits().maxBytes());
        for (Range r : OptionRanges.all().values()) {
            if (r.unit() == Unit.BYTES) {
                assertTrue(refused(r, "\"256 MB\"").contains("ambiguous"), r.describe());
                refused(r, "\"4 parsecs\"");
            } else if (r.unit() == Unit.COUNT) {
                refused(r, "\"4 KiB\"");
            } else {
                refused(r, "\"4 parsecs\"");
            }
        }
    }

    @Test
    void durationsTakeUnits() {
        assertEquals(2_000_000_000L, load("reader.idle-wait", "2s").idleWaitNanos());
        assertEquals(500_000_000L, load("reader.idle-wait", "PT0.5S").idleWaitNanos());
        assertEquals(250_000_000L, load("reader.idle-wait", "250").idleWaitNanos());
    }

    @Test
    void aDedupWindowIsAPowerOfTwoAndNeverRounded() {
        Range r = OptionRanges.of(ManagedSourceOptions.DEDUP_WINDOW);
        assertTrue(refused(r, "1").contains("out of range"));
        assertTrue(refused(r, "1000").contains("power of two"));
        assertEquals(
                1024, load("reader-mailbox.dedup-window", "1024").mailboxLimits().dedupWindow());
    }

    @Test
    void aCountIsNeverTruncated() {
        Range r = OptionRanges.of(ManagedSourceOptions.MAILBOX_MAX_COMMANDS);
        assertTrue(refused(r, "1.5").contains("whole number"));
        assertTrue(refused(r, "500000000").contains("out of range"));
        assertTrue(refused(r, "2147483647").contains("out of range"));
    }

    @Test
    void aPollLingerLongerThanTheIdleWaitIsRefusedNamingBoth() {
        String yaml =
                "seatunnel:\n  engine:\n    managed-source:\n"
                        + "      reader.idle-wait: 100ms\n"
                        + "      reader.poll-linger: 200ms\n";
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ManagedSourceYaml.parse(yaml));
        assertTrue(e.getMessage().contains(PREFIX + "reader.poll-linger"), e.getMessage());
        assertTrue(e.getMessage().contains(PREFIX + "reader.idle-wait"), e.getMessage());
        assertEquals(
                100_000_000L,
                ManagedSourceYaml.parse(yaml.replace("200ms", "100ms")).pollBudget().lingerNanos(),
                "equal to the idle wait is the bound");
    }
}
