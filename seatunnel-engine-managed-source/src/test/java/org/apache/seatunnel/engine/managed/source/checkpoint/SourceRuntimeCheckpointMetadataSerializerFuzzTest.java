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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.seatunnel.engine.managed.source.checkpoint.MetadataFormatException.Reason;
import org.apache.seatunnel.engine.managed.source.lane.Lane;
import org.apache.seatunnel.engine.managed.source.protocol.FrameBytes;
import org.junit.jupiter.api.Test;

/**
 * Seeded fuzz of {@link SourceRuntimeCheckpointMetadataSerializer#deserialize}: a tenth of {@code
 * fuzz.cases} (default 10,000); reproduce with {@code -Dfuzz.seed=<seed from the message>}.
 *
 * <p>Properties: only {@link MetadataFormatException} escapes; valid bytes round-trip; bytes
 * changed without recomputing the CRC are rejected; bytes that decode after a recomputed CRC
 * re-serialize to themselves (the format is canonical).
 */
class SourceRuntimeCheckpointMetadataSerializerFuzzTest {
    private static final SourceRuntimeCheckpointMetadataSerializer SERIALIZER =
            new SourceRuntimeCheckpointMetadataSerializer();

    private final long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());
    private final int cases = Math.max(1, Integer.getInteger("fuzz.cases", 100_000) / 10);
    private final Map<Reason, Integer> seen = new EnumMap<>(Reason.class);

    @Test
    void onlyMetadataFormatExceptionEscapesAndValidBytesRoundTrip() {
        System.out.println(
                "SourceRuntimeCheckpointMetadataSerializerFuzzTest fuzz.seed="
                        + seed
                        + " cases="
                        + cases);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < cases; i++) {
            SourceRuntimeCheckpointMetadata meta = randomMetadata(rnd);
            byte[] valid = SERIALIZER.serialize(meta);
            int pick = rnd.nextInt(100);
            byte[] input;
            StringBuilder ops = new StringBuilder();
            boolean resealed = false;
            if (pick < 10) {
                input = new byte[rnd.nextInt(0, 200)];
                rnd.nextBytes(input);
                if (input.length >= 8 && rnd.nextBoolean()) {
                    ByteBuffer.wrap(input)
                            .putInt(0, SourceRuntimeCheckpointMetadataSerializer.MAGIC)
                            .putShort(4, (short) 1);
                }
                ops.append("random");
            } else if (pick < 30) {
                input = valid.clone();
                ops.append("valid");
            } else {
                input = valid.clone();
                ops.append("mutated");
                for (int m = rnd.nextInt(1, 4); m > 0; m--) {
                    input = mutate(input, rnd, ops);
                }
                if (pick >= 70 && input.length >= 4) {
                    SourceRuntimeCheckpointMetadataSerializerTest.reseal(input);
                    ops.append(" reseal");
                    resealed = true;
                }
            }
            check(i, meta, valid, input, ops.toString(), resealed);
        }
        System.out.println(
                "SourceRuntimeCheckpointMetadataSerializerFuzzTest fuzz.seed="
                        + seed
                        + " reasons="
                        + seen);
        if (cases >= 5_000) {
            for (Reason reason : Reason.values()) {
                assertTrue(
                        seen.containsKey(reason),
                        () -> "fuzz.seed=" + seed + " never produced " + reason + ": " + seen);
            }
        }
    }

    private void check(
            int caseNo,
            SourceRuntimeCheckpointMetadata meta,
            byte[] valid,
            byte[] input,
            String ops,
            boolean resealed) {
        Supplier<String> ctx =
                () ->
                        "fuzz.seed="
                                + seed
                                + " case="
                                + caseNo
                                + " "
                                + ops
                                + " input="
                                + HexFormat.of()
                                        .formatHex(
                                                Arrays.copyOf(input, Math.min(input.length, 200)));
        SourceRuntimeCheckpointMetadata decoded;
        try {
            decoded = SERIALIZER.deserialize(input);
        } catch (MetadataFormatException e) {
            seen.merge(e.reason(), 1, Integer::sum);
            assertTrue(
                    !Arrays.equals(input, valid),
                    () -> ctx.get() + " valid bytes rejected: " + e.getMessage());
            return;
        } catch (RuntimeException | Error e) {
            // The property under test: nothing but MetadataFormatException escapes.
            fail(ctx.get() + " escaped: " + e, e);
            return;
        }
        if (Arrays.equals(input, valid)) {
            assertEquals(meta, decoded, ctx);
            assertArrayEquals(valid, SERIALIZER.serialize(decoded), ctx);
        } else if (!resealed) {
            fail(ctx.get() + " corrupted bytes accepted as " + decoded);
        } else if ((ByteBuffer.wrap(input).getShort(6) & 0xFFFF)
                <= SourceRuntimeCheckpointMetadataSerializer.SUPPORTED_MINOR) {
            assertArrayEquals(input, SERIALIZER.serialize(decoded), ctx);
        } else {
            try {
                assertEquals(decoded, SERIALIZER.deserialize(SERIALIZER.serialize(decoded)), ctx);
            } catch (MetadataFormatException e) {
                fail(ctx.get() + " re-serialized metadata rejected", e);
            }
        }
    }

    private static byte[] mutate(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        if (in.length == 0) {
            return in;
        }
        switch (rnd.nextInt(7)) {
            case 0:
                return FrameBytes.flipBit(in, rnd, ops);
            case 1:
                return FrameBytes.truncate(in, rnd, ops);
            case 2:
                {
                    int extra = rnd.nextInt(1, 17);
                    ops.append(" extend+").append(extra);
                    byte[] out = Arrays.copyOf(in, in.length + extra);
                    for (int i = in.length; i < out.length; i++) {
                        out[i] = (byte) rnd.nextInt(256);
                    }
                    return out;
                }
            case 3:
                return FrameBytes.splice(in, rnd, ops, 8);
            case 4:
                {
                    // Count fields: the lineage count and the sender count behind it.
                    if (in.length < 51) {
                        return in;
                    }
                    ByteBuffer b = ByteBuffer.wrap(in);
                    int lineage = b.getShort(49) & 0xFFFF;
                    int at =
                            rnd.nextBoolean() || 51 + 8 * lineage + 2 > in.length
                                    ? 49
                                    : 51 + 8 * lineage;
                    int value = rnd.nextBoolean() ? rnd.nextInt(0x10000) : rnd.nextInt(0, 80);
                    b.putShort(at, (short) value);
                    ops.append(" count@").append(at).append('=').append(value);
                    return in;
                }
            case 5:
                {
                    // Scalar fields whose values are constrained: versions, lane version, lane.
                    int[] offsets = {4, 6, 12, 16, 25};
                    int at = offsets[rnd.nextInt(offsets.length)];
                    if (in.length < at + 8) {
                        return in;
                    }
                    in[at] = (byte) (rnd.nextBoolean() ? 0x80 : 0);
                    in[at + 1] = (byte) rnd.nextInt(4);
                    ops.append(" scalar@").append(at);
                    return in;
                }
            default:
                {
                    // Swap two 8-byte words: breaks ordering of senders and gaps.
                    if (in.length < 80) {
                        return in;
                    }
                    int a = rnd.nextInt(49, in.length - 12);
                    int b = rnd.nextInt(49, in.length - 12);
                    byte[] tmp = Arrays.copyOfRange(in, a, a + 8);
                    System.arraycopy(in, b, in, a, 8);
                    System.arraycopy(tmp, 0, in, b, 8);
                    ops.append(" swap@").append(a).append('/').append(b);
                    return in;
                }
        }
    }

    static SourceRuntimeCheckpointMetadata randomMetadata(SplittableRandom rnd) {
        List<Long> lineage = new ArrayList<>();
        int lineageSize = rnd.nextInt(10) == 0 ? rnd.nextInt(0, 65) : rnd.nextInt(0, 4);
        for (int i = 0; i < lineageSize; i++) {
            lineage.add(rnd.nextLong());
        }
        Map<Long, Long> watermarks = new TreeMap<>();
        Map<Long, List<Long>> gaps = new TreeMap<>();
        int senders = rnd.nextInt(10) == 0 ? rnd.nextInt(0, 100) : rnd.nextInt(0, 5);
        for (int s = 0; s < senders; s++) {
            long sender = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextInt(0, 10);
            long watermark = rnd.nextLong(-1, 1L << 40);
            watermarks.put(sender, watermark);
            List<Long> senderGaps = new ArrayList<>();
            long next = watermark + 2;
            for (int g = rnd.nextInt(0, 6); g > 0; g--) {
                senderGaps.add(next);
                next += rnd.nextInt(1, 100);
            }
            gaps.put(sender, senderGaps);
        }
        byte[] digest = new byte[16];
        rnd.nextBytes(digest);
        return SourceRuntimeCheckpointMetadata.builder()
                .commandProtocolVersion(rnd.nextInt(0, 3), rnd.nextInt(0, 3))
                .managedLaneVersion(rnd.nextInt(0, 5))
                .lane(rnd.nextBoolean() ? Lane.A : Lane.B)
                .lastBarrierCheckpointId(rnd.nextLong())
                .noMoreSplitsGeneration(rnd.nextLong(0, Long.MAX_VALUE))
                .capabilityDigest(HexFormat.of().formatHex(digest))
                .readerAttemptLineage(lineage)
                .appliedSenderWatermarks(watermarks)
                .boundedSequenceGaps(gaps)
                .build();
    }
}
