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

package org.apache.seatunnel.engine.managed.source.checkpoint;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The rules a {@link SourceRuntimeCheckpointMetadata} must satisfy, shared by its builder and its
 * deserializer so that bytes and builder enforce the same rule, and the defensive copies that keep
 * it immutable.
 *
 * <p>Threading: stateless; any thread.
 */
final class MetadataChecks {
    private MetadataChecks() {}

    /**
     * Why a gap list is invalid for a sender with the given watermark, or null when valid. Shared
     * with the deserializer so that bytes and builder enforce the same rule.
     */
    static String gapsProblem(long senderId, long watermark, List<Long> gaps) {
        if (gaps.size() > SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER) {
            return "sender "
                    + senderId
                    + " has "
                    + gaps.size()
                    + " gap entries, limit "
                    + SourceRuntimeCheckpointMetadata.MAX_GAPS_PER_SENDER;
        }
        long previous = watermark;
        for (int i = 0; i < gaps.size(); i++) {
            Long boxed = gaps.get(i);
            if (boxed == null) {
                return "sender " + senderId + " has a null gap entry";
            }
            long gap = boxed;
            if (i == 0) {
                // gap >= watermark + 2 without overflow: watermark + 1 itself would have advanced
                // the watermark, so it can never be a gap.
                if (!(gap > watermark && gap - 1 > watermark)) {
                    return "sender "
                            + senderId
                            + " gap "
                            + gap
                            + " is not above watermark + 1 (watermark "
                            + watermark
                            + ")";
                }
            } else if (gap <= previous) {
                return "sender "
                        + senderId
                        + " gap "
                        + gap
                        + " is not above the previous gap "
                        + previous;
            }
            previous = gap;
        }
        return null;
    }

    static String digestProblem(String digest) {
        if (digest == null) {
            return "capabilityDigest is required";
        }
        if (digest.length() != SourceRuntimeCheckpointMetadata.CAPABILITY_DIGEST_HEX_LENGTH) {
            return "capabilityDigest must have "
                    + SourceRuntimeCheckpointMetadata.CAPABILITY_DIGEST_HEX_LENGTH
                    + " hex characters, has "
                    + digest.length();
        }
        for (int i = 0; i < digest.length(); i++) {
            char c = digest.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return "capabilityDigest must be lower-case hex: " + digest;
            }
        }
        return null;
    }

    static void requireU16(String name, int value) {
        if (value < 0 || value > 0xFFFF) {
            throw new IllegalArgumentException(name + " out of u16 range: " + value);
        }
    }

    static List<Long> copyLineage(List<Long> lineage) {
        Objects.requireNonNull(lineage, "readerAttemptLineage");
        if (lineage.size() > SourceRuntimeCheckpointMetadata.MAX_LINEAGE) {
            throw new IllegalArgumentException(
                    "readerAttemptLineage has "
                            + lineage.size()
                            + " entries, limit "
                            + SourceRuntimeCheckpointMetadata.MAX_LINEAGE);
        }
        List<Long> copy = new ArrayList<>(lineage.size());
        for (Long attempt : lineage) {
            copy.add(Objects.requireNonNull(attempt, "readerAttemptLineage entry"));
        }
        return Collections.unmodifiableList(copy);
    }

    static Map<Long, Long> copyWatermarks(Map<Long, Long> watermarks) {
        Objects.requireNonNull(watermarks, "appliedSenderWatermarks");
        if (watermarks.size() > SourceRuntimeCheckpointMetadata.MAX_SENDERS) {
            throw new IllegalArgumentException(
                    "appliedSenderWatermarks has "
                            + watermarks.size()
                            + " senders, limit "
                            + SourceRuntimeCheckpointMetadata.MAX_SENDERS);
        }
        SortedMap<Long, Long> copy = new TreeMap<>();
        for (Map.Entry<Long, Long> e : watermarks.entrySet()) {
            copy.put(
                    Objects.requireNonNull(e.getKey(), "sender id"),
                    Objects.requireNonNull(e.getValue(), "watermark"));
        }
        return Collections.unmodifiableSortedMap(copy);
    }

    static Map<Long, List<Long>> copyGaps(
            Map<Long, ? extends List<Long>> gaps, Map<Long, Long> watermarks) {
        Objects.requireNonNull(gaps, "boundedSequenceGaps");
        SortedMap<Long, List<Long>> copy = new TreeMap<>();
        long total = 0;
        for (Map.Entry<Long, ? extends List<Long>> e : gaps.entrySet()) {
            Long senderId = Objects.requireNonNull(e.getKey(), "sender id");
            List<Long> list = Objects.requireNonNull(e.getValue(), "gap list");
            if (list.isEmpty()) {
                // An empty list says nothing a missing entry does not; dropping it keeps one
                // canonical form, so equals() and the serialized bytes agree.
                continue;
            }
            Long watermark = watermarks.get(senderId);
            if (watermark == null) {
                throw new IllegalArgumentException(
                        "sender " + senderId + " has gaps but no applied watermark");
            }
            String problem = gapsProblem(senderId, watermark, list);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
            total += list.size();
            if (total > SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS) {
                throw new IllegalArgumentException(
                        "more than "
                                + SourceRuntimeCheckpointMetadata.MAX_TOTAL_GAPS
                                + " gap entries in total");
            }
            copy.put(senderId, Collections.unmodifiableList(new ArrayList<>(list)));
        }
        return Collections.unmodifiableSortedMap(copy);
    }
}
