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

package org.apache.seatunnel.engine.managed.source.reader;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which sender sequences a reader attempt has applied, per sender (the coordinator epoch): a
 * contiguous watermark plus a bounded set of sequences applied above it. This is what makes apply
 * exactly-once per attempt (invariant 6) independently of the admission dedup window, and what the
 * checkpoint metadata carries as {@code appliedSenderWatermarks} and {@code boundedSequenceGaps}.
 *
 * <p>Threading: owned by the reader event loop; not thread-safe.
 *
 * <p>An unknown sender starts at watermark 0: the coordinator numbers the commands of each new
 * reader attempt from 1 (Zeta hands reader state to the enumerator, never back to a reader, so a
 * new attempt always starts empty), and a first command that is retried behind a later one must
 * still apply when it arrives. Taking the first sequence seen as the base would silently drop it.
 */
public final class AppliedCommandLedger {
    private final int maxGapsPerSender;
    private final Map<Long, long[]> watermarks = new HashMap<>();
    private final Map<Long, TreeSet<Long>> above = new HashMap<>();

    public AppliedCommandLedger(int maxGapsPerSender) {
        this.maxGapsPerSender = maxGapsPerSender;
    }

    /** Restores from checkpoint metadata; sequences are the applied ones above each watermark. */
    public void restore(
            Map<Long, Long> senderWatermarks, Map<Long, ? extends Iterable<Long>> gaps) {
        watermarks.clear();
        above.clear();
        for (Map.Entry<Long, Long> e : senderWatermarks.entrySet()) {
            watermarks.put(e.getKey(), new long[] {e.getValue()});
        }
        for (Map.Entry<Long, ? extends Iterable<Long>> e : gaps.entrySet()) {
            TreeSet<Long> set = new TreeSet<>();
            for (Long s : e.getValue()) {
                set.add(s);
            }
            above.put(e.getKey(), set);
        }
    }

    /** True if the sequence was already applied by this attempt (or the restored lineage). */
    public boolean isApplied(long sender, long sequence) {
        long[] wm = watermarks.get(sender);
        if (wm != null && sequence <= wm[0]) {
            return true;
        }
        TreeSet<Long> set = above.get(sender);
        return set != null && set.contains(sequence);
    }

    /**
     * Records an application.
     *
     * @return false if the number of out-of-order sequences above the watermark would exceed its
     *     bound, which only a misbehaving sender can cause; the caller fails the attempt
     */
    public boolean markApplied(long sender, long sequence) {
        long[] wm = watermarks.get(sender);
        if (wm == null) {
            wm = new long[] {0};
            watermarks.put(sender, wm);
        }
        if (sequence == wm[0] + 1) {
            wm[0] = sequence;
            TreeSet<Long> set = above.get(sender);
            while (set != null && !set.isEmpty() && set.first() == wm[0] + 1) {
                wm[0] = set.pollFirst();
            }
            return true;
        }
        TreeSet<Long> set = above.computeIfAbsent(sender, k -> new TreeSet<>());
        if (set.size() >= maxGapsPerSender) {
            return false;
        }
        set.add(sequence);
        return true;
    }

    /** The contiguous watermark of {@code sender}: every sequence up to it was applied. */
    public long watermark(long sender) {
        long[] wm = watermarks.get(sender);
        return wm == null ? 0 : wm[0];
    }

    /** Watermark per sender, sorted; a copy. */
    public Map<Long, Long> watermarks() {
        Map<Long, Long> out = new TreeMap<>();
        for (Map.Entry<Long, long[]> e : watermarks.entrySet()) {
            out.put(e.getKey(), e.getValue()[0]);
        }
        return Collections.unmodifiableMap(out);
    }

    /** Applied sequences above each watermark, sorted; a copy. */
    public Map<Long, java.util.List<Long>> appliedAboveWatermark() {
        Map<Long, java.util.List<Long>> out = new TreeMap<>();
        for (Map.Entry<Long, TreeSet<Long>> e : above.entrySet()) {
            if (!e.getValue().isEmpty()) {
                out.put(
                        e.getKey(),
                        Collections.unmodifiableList(new java.util.ArrayList<>(e.getValue())));
            }
        }
        return Collections.unmodifiableMap(out);
    }
}
