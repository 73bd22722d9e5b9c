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

package org.apache.seatunnel.engine.managed.source.protocol;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Seeded property fuzz of {@link AdmissionAckCodec#decode}: a fifth of {@code fuzz.cases} (default
 * 20,000). Same properties as {@link SourceCommandCodecFuzzTest}.
 */
class AdmissionAckCodecFuzzTest {
    private static final Set<ReasonCode> DECODER_REASONS =
            EnumSet.of(
                    ReasonCode.BAD_MAGIC,
                    ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                    ReasonCode.FRAME_CHECKSUM_MISMATCH,
                    ReasonCode.TRUNCATED,
                    ReasonCode.BAD_HEADER_FIELD,
                    ReasonCode.TRAILING_BYTES);

    private final long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());
    private final int cases = Math.max(1, Integer.getInteger("fuzz.cases", 100_000) / 5);
    private final Map<ReasonCode, Integer> seen = new EnumMap<>(ReasonCode.class);

    @Test
    void decoderNeverThrowsRoundTripsValidAcksAndRejectsMutations() {
        System.out.println("AdmissionAckCodecFuzzTest fuzz.seed=" + seed + " cases=" + cases);
        SplittableRandom rnd = new SplittableRandom(seed);
        AdmissionStatus[] statuses = AdmissionStatus.values();
        ReasonCode[] reasons = ReasonCode.values();
        for (int i = 0; i < cases; i++) {
            AdmissionAck ack =
                    new AdmissionAck(
                            statuses[rnd.nextInt(statuses.length)],
                            rnd.nextLong(),
                            rnd.nextLong(),
                            rnd.nextLong(),
                            reasons[rnd.nextInt(reasons.length)]);
            byte[] frame = AdmissionAckCodec.encode(ack);
            int pick = rnd.nextInt(100);
            byte[] input;
            String category;
            boolean resealed = false;
            if (pick < 10) {
                input = new byte[rnd.nextInt(0, 60)];
                rnd.nextBytes(input);
                category = "random";
            } else if (pick < 30) {
                input = frame.clone();
                category = "valid";
            } else {
                input = frame.clone();
                StringBuilder ops = new StringBuilder("mutated");
                for (int m = rnd.nextInt(1, 3); m > 0; m--) {
                    input = mutate(input, rnd, ops);
                }
                if (pick >= 80) {
                    FrameBytes.reseal(input);
                    ops.append(" reseal");
                    resealed = true;
                }
                category = ops.toString();
            }
            byte[] in = input;
            int caseNo = i;
            Supplier<String> ctx =
                    () ->
                            "fuzz.seed="
                                    + seed
                                    + " case="
                                    + caseNo
                                    + " "
                                    + category
                                    + " input="
                                    + HexFormat.of().formatHex(in);
            AdmissionAckCodec.DecodeResult r =
                    assertDoesNotThrow(() -> AdmissionAckCodec.decode(in), ctx);
            if (!r.isSuccess()) {
                seen.merge(r.reasonCode(), 1, Integer::sum);
                assertTrue(DECODER_REASONS.contains(r.reasonCode()), ctx);
            }
            if (Arrays.equals(in, frame)) {
                assertTrue(r.isSuccess(), () -> ctx.get() + " " + r);
                assertEquals(ack, r.ack(), ctx);
            } else if (category.startsWith("mutated") && !resealed) {
                assertFalse(r.isSuccess(), () -> ctx.get() + " accepted " + r);
            }
        }
        System.out.println("AdmissionAckCodecFuzzTest fuzz.seed=" + seed + " reasons=" + seen);
        if (cases >= 2_000) {
            for (ReasonCode reason : DECODER_REASONS) {
                assertTrue(
                        seen.containsKey(reason),
                        () -> "fuzz.seed=" + seed + " never produced " + reason + ": " + seen);
            }
        }
    }

    private static byte[] mutate(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        if (in.length == 0) {
            ops.append(" empty");
            return in;
        }
        switch (rnd.nextInt(6)) {
            case 0:
                return FrameBytes.flipBit(in, rnd, ops);
            case 1:
                return FrameBytes.truncate(in, rnd, ops);
            case 2:
                return FrameBytes.extend(in, rnd, ops);
            case 3:
                {
                    // Header and code fields, where a resealed frame still has to be rejected.
                    int[] at = {4, 8, 10, 11};
                    int field = at[rnd.nextInt(at.length)];
                    if (field >= in.length - 1) {
                        return in;
                    }
                    if (field == 10) {
                        in[field] = (byte) rnd.nextInt(12);
                    } else {
                        FrameBytes.putShort(
                                in,
                                field,
                                rnd.nextBoolean() ? rnd.nextInt(0x10000) : rnd.nextInt(40));
                    }
                    ops.append(" field@").append(field);
                    return in;
                }
            case 4:
                return FrameBytes.splice(in, rnd, ops);
            default:
                {
                    // Keep the magic so later checks see the mutation, unless it is too short.
                    if (in.length < 4) {
                        return in;
                    }
                    FrameBytes.putInt(in, 0, AdmissionAckCodec.MAGIC);
                    ops.append(" magic-restored");
                    return in;
                }
        }
    }
}
