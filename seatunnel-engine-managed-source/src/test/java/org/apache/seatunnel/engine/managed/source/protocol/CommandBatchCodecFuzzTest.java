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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Seeded property fuzz of {@link CommandBatchCodec#decode} and {@link
 * CommandBatchCodec#decodeAcks}: a fifth of {@code fuzz.cases} (default 20,000) each. Properties,
 * as for {@link SourceCommandCodecFuzzTest}: the decoders never throw; a failure carries one of the
 * decoder's reasons; an unchanged input decodes to what was encoded; a mutated input that was not
 * resealed with a fresh CRC is refused. Re-run a failure with {@code -Dfuzz.seed=<printed seed>}.
 */
class CommandBatchCodecFuzzTest {
    private static final Set<ReasonCode> BATCH_REASONS =
            EnumSet.of(
                    ReasonCode.BAD_MAGIC,
                    ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                    ReasonCode.FRAME_CHECKSUM_MISMATCH,
                    ReasonCode.TRUNCATED,
                    ReasonCode.OVERSIZE,
                    ReasonCode.BAD_HEADER_FIELD,
                    ReasonCode.TRAILING_BYTES);
    private static final int MAX_ENTRIES = 8;
    private static final long MAX_BYTES = 4096;

    private final long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());
    private final int cases = Math.max(1, Integer.getInteger("fuzz.cases", 100_000) / 5);

    @Test
    void batchDecoderNeverThrowsRoundTripsAndRejectsMutations() {
        System.out.println("CommandBatchCodecFuzzTest batch fuzz.seed=" + seed + " cases=" + cases);
        SplittableRandom rnd = new SplittableRandom(seed);
        Map<ReasonCode, Integer> seen = new EnumMap<>(ReasonCode.class);
        for (int i = 0; i < cases; i++) {
            List<byte[]> entries = new ArrayList<>();
            // Up to 10 entries against a bound of 8, and sometimes a large entry against the byte
            // bound, so OVERSIZE is reachable.
            for (int n = rnd.nextInt(1, 11); n > 0; n--) {
                byte[] e =
                        new byte
                                [rnd.nextInt(10) == 0
                                        ? rnd.nextInt(600, 1200)
                                        : rnd.nextInt(0, 40)];
                rnd.nextBytes(e);
                entries.add(e);
            }
            byte[] batch = CommandBatchCodec.encode(entries);
            boolean fits = entries.size() <= MAX_ENTRIES && batch.length <= MAX_BYTES;
            Mutated m = mutate(batch, rnd, new int[] {4, 8, 10, 12});
            int caseNo = i;
            Supplier<String> ctx =
                    () ->
                            "fuzz.seed="
                                    + seed
                                    + " case="
                                    + caseNo
                                    + " "
                                    + m.category
                                    + " input="
                                    + HexFormat.of()
                                            .formatHex(m.input == null ? new byte[0] : m.input);
            CommandBatchCodec.BatchResult r =
                    assertDoesNotThrow(
                            () -> CommandBatchCodec.decode(m.input, MAX_ENTRIES, MAX_BYTES), ctx);
            if (!r.isSuccess()) {
                seen.merge(r.reasonCode(), 1, Integer::sum);
                assertTrue(BATCH_REASONS.contains(r.reasonCode()), ctx);
            }
            if (Arrays.equals(m.input, batch)) {
                assertEquals(fits, r.isSuccess(), () -> ctx.get() + " " + r);
                if (fits) {
                    assertEquals(entries.size(), r.count(), ctx);
                    for (int k = 0; k < entries.size(); k++) {
                        assertArrayEquals(
                                entries.get(k),
                                Arrays.copyOfRange(
                                        r.batch(), r.offset(k), r.offset(k) + r.length(k)),
                                ctx);
                    }
                }
            } else if (m.category.startsWith("mutated") && !m.resealed) {
                assertFalse(r.isSuccess(), () -> ctx.get() + " accepted " + r);
            }
        }
        System.out.println(
                "CommandBatchCodecFuzzTest batch fuzz.seed=" + seed + " reasons=" + seen);
        if (cases >= 2_000) {
            for (ReasonCode reason : BATCH_REASONS) {
                assertTrue(
                        seen.containsKey(reason),
                        () -> "fuzz.seed=" + seed + " never produced " + reason + ": " + seen);
            }
        }
    }

    @Test
    void ackDecoderNeverThrowsRoundTripsAndRejectsMutations() {
        System.out.println("CommandBatchCodecFuzzTest acks fuzz.seed=" + seed + " cases=" + cases);
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        Map<ReasonCode, Integer> seen = new EnumMap<>(ReasonCode.class);
        AdmissionStatus[] statuses = AdmissionStatus.values();
        ReasonCode[] reasons = ReasonCode.values();
        for (int i = 0; i < cases; i++) {
            List<AdmissionAck> acks = new ArrayList<>();
            for (int n = rnd.nextInt(1, 11); n > 0; n--) {
                acks.add(
                        new AdmissionAck(
                                statuses[rnd.nextInt(statuses.length)],
                                rnd.nextLong(),
                                rnd.nextLong(),
                                rnd.nextLong(),
                                reasons[rnd.nextInt(reasons.length)]));
            }
            boolean refusal = rnd.nextInt(8) == 0;
            byte[] frame =
                    refusal
                            ? CommandBatchCodec.encodeRefusal(
                                    AdmissionStatus.INVALID_PAYLOAD,
                                    reasons[rnd.nextInt(reasons.length)])
                            : CommandBatchCodec.encodeAcks(acks);
            boolean fits = refusal || acks.size() <= MAX_ENTRIES;
            Mutated m = mutate(frame, rnd, new int[] {4, 8, 10, 11, 13});
            int caseNo = i;
            Supplier<String> ctx =
                    () ->
                            "fuzz.seed="
                                    + seed
                                    + " acks case="
                                    + caseNo
                                    + " "
                                    + m.category
                                    + " input="
                                    + HexFormat.of()
                                            .formatHex(m.input == null ? new byte[0] : m.input);
            CommandBatchCodec.AckResult r =
                    assertDoesNotThrow(
                            () -> CommandBatchCodec.decodeAcks(m.input, MAX_ENTRIES), ctx);
            if (!r.isSuccess()) {
                seen.merge(r.reasonCode(), 1, Integer::sum);
                assertTrue(BATCH_REASONS.contains(r.reasonCode()), ctx);
            }
            if (Arrays.equals(m.input, frame)) {
                assertEquals(fits, r.isSuccess(), () -> ctx.get() + " " + r);
                if (fits && !refusal) {
                    assertEquals(acks, r.acks(), ctx);
                }
            } else if (m.category.startsWith("mutated") && !m.resealed) {
                assertFalse(r.isSuccess(), () -> ctx.get() + " accepted " + r);
            }
        }
        System.out.println("CommandBatchCodecFuzzTest acks fuzz.seed=" + seed + " reasons=" + seen);
    }

    private static final class Mutated {
        final byte[] input;
        final String category;
        final boolean resealed;

        Mutated(byte[] input, String category, boolean resealed) {
            this.input = input;
            this.category = category;
            this.resealed = resealed;
        }
    }

    private static Mutated mutate(byte[] frame, SplittableRandom rnd, int[] fields) {
        int pick = rnd.nextInt(100);
        if (pick < 10) {
            byte[] random = new byte[rnd.nextInt(0, 60)];
            rnd.nextBytes(random);
            return new Mutated(random, "random", false);
        }
        if (pick < 30) {
            return new Mutated(frame.clone(), "valid", false);
        }
        byte[] in = frame.clone();
        StringBuilder ops = new StringBuilder("mutated");
        for (int k = rnd.nextInt(1, 3); k > 0; k--) {
            in = mutateOnce(in, rnd, ops, fields);
        }
        boolean reseal = pick >= 80;
        if (reseal) {
            FrameBytes.reseal(in);
            ops.append(" reseal");
        }
        return new Mutated(in, ops.toString(), reseal);
    }

    private static byte[] mutateOnce(
            byte[] in, SplittableRandom rnd, StringBuilder ops, int[] fields) {
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
                    // Header fields, where a resealed frame still has to be checked.
                    int field = fields[rnd.nextInt(fields.length)];
                    if (field >= in.length - 1) {
                        return in;
                    }
                    FrameBytes.putShort(
                            in, field, rnd.nextBoolean() ? rnd.nextInt(0x10000) : rnd.nextInt(40));
                    ops.append(" field@").append(field);
                    return in;
                }
            case 4:
                return FrameBytes.splice(in, rnd, ops);
            default:
                {
                    // Keep a magic so later checks see the mutation, unless too short.
                    if (in.length < 4) {
                        return in;
                    }
                    FrameBytes.putInt(
                            in,
                            0,
                            rnd.nextBoolean()
                                    ? CommandBatchCodec.MAGIC
                                    : CommandBatchCodec.ACK_MAGIC);
                    ops.append(" magic-restored");
                    return in;
                }
        }
    }
}
