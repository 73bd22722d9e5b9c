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

package org.apache.seatunnel.engine.managed.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.seatunnel.managed.testkit.engine.RowAccounting;

/**
 * Exact accounting of ManagedFake payloads ({@code fake-<split>:<seq>}) at the sink: no duplicate,
 * and per split no gap (the ManagedFake-specific part; the generic part is the testkit's {@link
 * RowAccounting}).
 *
 * <p>Threading: stateless.
 */
final class Accounting {
    private Accounting() {}

    /**
     * Asserts every payload occurs once and each of the {@code splitCount} splits has exactly the
     * seqs {@code 0..k-1} for some {@code k >= 1}; returns k per split.
     */
    static Map<Integer, Long> assertContiguousExactlyOnce(List<String> payloads, int splitCount) {
        Map<Integer, Long> counts = assertEachSplitContiguousOnce(payloads);
        assertEquals(splitCount, counts.size(), "splits seen: " + counts.keySet());
        return counts;
    }

    /**
     * Asserts every payload occurs once and each split seen has exactly the seqs {@code 0..k-1} for
     * some {@code k >= 1} (splits discovered while the job ran: how many is not known up front);
     * returns k per split.
     */
    static Map<Integer, Long> assertEachSplitContiguousOnce(List<String> payloads) {
        Map<Integer, TreeSet<Long>> bySplit = new TreeMap<>();
        for (Map.Entry<String, Integer> e : RowAccounting.multiset(payloads).entrySet()) {
            assertEquals(1, e.getValue(), "delivered more than once: " + e.getKey());
            String[] parts = e.getKey().substring("fake-".length()).split(":");
            bySplit.computeIfAbsent(Integer.parseInt(parts[0]), k -> new TreeSet<>())
                    .add(Long.parseLong(parts[1]));
        }
        Map<Integer, Long> counts = new TreeMap<>();
        for (Map.Entry<Integer, TreeSet<Long>> e : bySplit.entrySet()) {
            TreeSet<Long> seqs = e.getValue();
            assertEquals(0L, (long) seqs.first(), "split " + e.getKey() + " does not start at 0");
            assertEquals(
                    seqs.size() - 1L,
                    (long) seqs.last(),
                    "gap in split " + e.getKey() + ": " + summary(seqs));
            counts.put(e.getKey(), (long) seqs.size());
        }
        return counts;
    }

    private static String summary(TreeSet<Long> seqs) {
        StringBuilder sb = new StringBuilder();
        long expect = 0;
        for (long s : seqs) {
            if (s != expect) {
                sb.append("missing ").append(expect).append("..").append(s - 1).append("; ");
            }
            expect = s + 1;
        }
        return sb.append("last ").append(seqs.last()).toString();
    }
}
