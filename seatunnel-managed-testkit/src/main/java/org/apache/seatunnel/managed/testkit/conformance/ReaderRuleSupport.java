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

package org.apache.seatunnel.managed.testkit.conformance;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * What every family of reader rules shares: the target, the expected records (computed once for all
 * families of one {@link ConformanceRules}), opening readers, snapshots and restores, and the
 * comparison and violation helpers.
 *
 * <p>Threading: one test thread per instance, like the rules.
 */
abstract class ReaderRuleSupport<T, SplitT extends SourceSplit> {
    final ConformanceTarget<T, SplitT> target;
    private final ExpectedRecords expected;

    /** The fixture's records, computed once and shared by the families of one rule set. */
    static final class ExpectedRecords {
        private List<String> records;
    }

    ReaderRuleSupport(ConformanceTarget<T, SplitT> target, ExpectedRecords expected) {
        this.target = target;
        this.expected = expected;
    }

    /**
     * Every record of the fixture data, as read by one reader with every split assigned up front
     * and no interference: the reference the other rules compare against.
     */
    public List<String> expectedRecords() throws Exception {
        if (expected.records == null) {
            try (ReaderDriver<T, SplitT> d = ReaderDriver.open(target)) {
                d.addSplits(target.splits());
                d.noMoreSplits();
                d.readToEnd(ConformanceRule.READS_FIXTURE_TO_END);
                expected.records = Collections.unmodifiableList(new ArrayList<>(d.emitted()));
            }
            if (expected.records.isEmpty()) {
                throw violation(
                        ConformanceRule.READS_FIXTURE_TO_END,
                        "the fixture splits hold no records; the rules need some");
            }
            Map<String, Integer> dup = duplicates(expected.records);
            if (!dup.isEmpty()) {
                throw violation(
                        ConformanceRule.READS_FIXTURE_TO_END,
                        "record keys of the fixture data are not unique (or the reader duplicates"
                                + " records): "
                                + first(dup.keySet(), 5));
            }
        }
        return expected.records;
    }

    /** The splits of a snapshot as new objects, so the reader shares none with the driver. */
    List<SplitT> copy(List<SplitT> splits) throws IOException {
        List<SplitT> out = new ArrayList<>(splits.size());
        for (SplitT s : splits) {
            out.add(target.splitSerializer().deserialize(target.splitSerializer().serialize(s)));
        }
        return out;
    }

    String describe(byte[][] snapshot) throws IOException {
        List<String> out = new ArrayList<>();
        for (byte[] b : snapshot) {
            out.add(String.valueOf(target.splitSerializer().deserialize(b)));
        }
        return first(out, 6);
    }

    /** A new reader of the target that knows how many records the fixture holds. */
    ReaderDriver<T, SplitT> open() throws Exception {
        int records = expectedRecords().size();
        return ReaderDriver.open(target).fixtureRecords(records);
    }

    /**
     * Up to {@code turns} turns of {@code max} records, waiting for availability after
     * NOTHING_AVAILABLE; stops early at END_OF_INPUT or once the reader drained the fixture without
     * having been told no more splits come (then nothing more is to be announced).
     */
    void readSome(ReaderDriver<T, SplitT> d, int turns, int max) throws Exception {
        for (int i = 0; i < turns; i++) {
            ReaderDriver.TurnResult r = d.turn(max, max, TimeUnit.MILLISECONDS.toNanos(5));
            if (r.status == PollStatus.END_OF_INPUT) {
                return;
            }
            if (r.status == PollStatus.NOTHING_AVAILABLE) {
                if (d.drained()) {
                    return;
                }
                d.awaitAvailable();
            }
        }
    }

    byte[][] serialize(ConformanceRule rule, List<SplitT> state) throws IOException {
        byte[][] out = new byte[state.size()][];
        for (int i = 0; i < out.length; i++) {
            out[i] = target.splitSerializer().serialize(state.get(i));
        }
        return out;
    }

    /** Restores serialized splits into a fresh reader and reads them to the end. */
    List<String> readFrom(ConformanceRule rule, byte[][] snapshot) throws Exception {
        List<SplitT> splits = new ArrayList<>();
        for (byte[] b : snapshot) {
            splits.add(target.splitSerializer().deserialize(b));
        }
        try (ReaderDriver<T, SplitT> d = open()) {
            if (!splits.isEmpty()) {
                d.addSplits(splits);
            }
            d.noMoreSplits();
            d.readToEnd(rule);
            return new ArrayList<>(d.emitted());
        }
    }

    void assertSameRecords(ConformanceRule rule, String what, List<String> actual)
            throws Exception {
        compare(rule, what, expectedRecords(), actual);
    }

    void assertRestoredRemainder(
            ConformanceRule rule, String what, List<String> emittedBefore, List<String> restored)
            throws Exception {
        Map<String, Integer> want = multiset(expectedRecords());
        for (String k : emittedBefore) {
            want.merge(k, -1, Integer::sum);
        }
        want.values().removeIf(v -> v == 0);
        List<String> expectedRest = new ArrayList<>();
        for (Map.Entry<String, Integer> e : want.entrySet()) {
            for (int i = 0; i < e.getValue(); i++) {
                expectedRest.add(e.getKey());
            }
        }
        compare(rule, what, expectedRest, restored);
    }

    void compare(
            ConformanceRule rule, String what, List<String> expectedList, List<String> actual) {
        Map<String, Integer> want = multiset(expectedList);
        Map<String, Integer> got = multiset(actual);
        if (want.equals(got)) {
            return;
        }
        List<String> missing = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        Set<String> keys = new HashSet<>(want.keySet());
        keys.addAll(got.keySet());
        for (String k : new java.util.TreeSet<>(keys)) {
            int w = want.getOrDefault(k, 0);
            int g = got.getOrDefault(k, 0);
            for (int i = g; i < w; i++) {
                missing.add(k);
            }
            for (int i = w; i < g; i++) {
                extra.add(k);
            }
        }
        throw violation(
                rule,
                what
                        + ": "
                        + missing.size()
                        + " records missing "
                        + first(missing, 5)
                        + ", "
                        + extra.size()
                        + " duplicated or unexpected "
                        + first(extra, 5)
                        + " (expected "
                        + expectedList.size()
                        + ", got "
                        + actual.size()
                        + ")");
    }

    static Map<String, Integer> multiset(List<String> keys) {
        Map<String, Integer> m = new TreeMap<>();
        for (String k : keys) {
            m.merge(k, 1, Integer::sum);
        }
        return m;
    }

    static Map<String, Integer> duplicates(List<String> keys) {
        Map<String, Integer> m = multiset(keys);
        m.values().removeIf(v -> v == 1);
        return m;
    }

    static String first(java.util.Collection<String> items, int n) {
        List<String> out = new ArrayList<>();
        for (String s : items) {
            if (out.size() == n) {
                out.add("...");
                break;
            }
            out.add(s);
        }
        return out.toString();
    }

    static String javaSerializationHint(Serializer<?> ser) {
        return ser instanceof org.apache.seatunnel.api.serialization.DefaultSerializer
                ? " (SeaTunnel's DefaultSerializer, i.e. Java serialization, reports malformed input"
                        + " as a RuntimeException; give checkpointed state a versioned serializer)"
                : "";
    }

    ConformanceViolation violation(ConformanceRule rule, String observed) {
        return new ConformanceViolation(rule, observed + seedNote());
    }

    String seedNote() {
        return " [replay: -Dconformance.seed=" + target.seed() + "]";
    }

    /** Busy-waits about {@code nanos}: a pause that keeps this thread runnable. */
    static void spin(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.yield();
        }
    }

    static boolean waiting(Thread t) {
        if (t == null) {
            return false;
        }
        Thread.State s = t.getState();
        return s == Thread.State.WAITING
                || s == Thread.State.TIMED_WAITING
                || s == Thread.State.BLOCKED;
    }
}
