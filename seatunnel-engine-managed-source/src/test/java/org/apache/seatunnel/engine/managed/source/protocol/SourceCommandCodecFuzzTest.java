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
 * Seeded property fuzz of {@link SourceCommandCodec#decode}. Reproduce a failure with {@code
 * -Dfuzz.seed=<seed from the message>}; widen with {@code -Dfuzz.cases=N}.
 *
 * <p>Properties: no exception escapes for any input; every unmodified valid frame round-trips to an
 * equal envelope and re-encodes to the same bytes; every modified frame fails with one of the
 * decoder's reasons, unless its checksum was deliberately recomputed, in which case it may decode
 * but then must re-encode to exactly the same bytes (the encoding is canonical). An unresealed
 * mutation that survives has hit a CRC-32C collision, about 2^-32 per case.
 */
class SourceCommandCodecFuzzTest {
    private static final int MAX_PAYLOAD = 4096;
    private static final int HEADER_LENGTH_AT = 8;
    private static final int BASE_HEADER_LENGTH = 90;

    static final Set<ReasonCode> DECODER_REASONS =
            EnumSet.of(
                    ReasonCode.BAD_MAGIC,
                    ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                    ReasonCode.FRAME_CHECKSUM_MISMATCH,
                    ReasonCode.PAYLOAD_CHECKSUM_MISMATCH,
                    ReasonCode.TRUNCATED,
                    ReasonCode.OVERSIZE,
                    ReasonCode.UNKNOWN_KIND,
                    ReasonCode.UNKNOWN_DURABILITY,
                    ReasonCode.KIND_DURABILITY_MISMATCH,
                    ReasonCode.BAD_HEADER_FIELD,
                    ReasonCode.TRAILING_BYTES);

    private final long seed = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());
    private final int cases = Integer.getInteger("fuzz.cases", 100_000);
    private final Map<ReasonCode, Integer> seen = new EnumMap<>(ReasonCode.class);

    @Test
    void decoderNeverThrowsRoundTripsValidFramesAndRejectsMutations() {
        System.out.println("SourceCommandCodecFuzzTest fuzz.seed=" + seed + " fuzz.cases=" + cases);
        SplittableRandom rnd = new SplittableRandom(seed);
        long start = System.nanoTime();
        for (int i = 0; i < cases; i++) {
            int pick = rnd.nextInt(100);
            if (pick < 10) {
                randomBytesCase(i, rnd);
            } else if (pick < 30) {
                validFrameCase(i, rnd);
            } else if (pick < 75) {
                mutatedFrameCase(i, rnd, false);
            } else {
                mutatedFrameCase(i, rnd, true);
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(
                "SourceCommandCodecFuzzTest fuzz.seed="
                        + seed
                        + " cases="
                        + cases
                        + " millis="
                        + millis
                        + " reasons="
                        + seen);
        if (cases >= 10_000) {
            // Guards the fuzzer itself: a generator that never gets past the CRC proves little.
            for (ReasonCode reason : DECODER_REASONS) {
                assertTrue(
                        seen.containsKey(reason),
                        () -> "seed=" + seed + " fuzz never produced " + reason + ": " + seen);
            }
        }
    }

    private void randomBytesCase(int caseNo, SplittableRandom rnd) {
        byte[] bytes = new byte[rnd.nextInt(0, 301)];
        rnd.nextBytes(bytes);
        if (bytes.length >= 10 && rnd.nextBoolean()) {
            // Valid magic and major so that later checks see random input too.
            FrameBytes.putInt(bytes, 0, SourceCommandCodec.MAGIC);
            FrameBytes.putShort(bytes, 4, 1);
            if (rnd.nextBoolean()) {
                FrameBytes.putShort(bytes, HEADER_LENGTH_AT, BASE_HEADER_LENGTH);
            }
        }
        Supplier<String> ctx = ctx(caseNo, "random", "", bytes);
        checkWellFormed(decode(bytes, 0, bytes.length, ctx), ctx);
    }

    private void validFrameCase(int caseNo, SplittableRandom rnd) {
        SourceCommandEnvelope envelope = randomEnvelope(rnd);
        byte[] frame = SourceCommandCodec.encode(envelope);
        byte[] buffer = frame;
        int offset = 0;
        if (rnd.nextBoolean()) {
            // Embedded in a larger buffer with junk around it, to exercise offset arithmetic.
            offset = rnd.nextInt(0, 17);
            buffer = new byte[offset + frame.length + rnd.nextInt(0, 17)];
            rnd.nextBytes(buffer);
            System.arraycopy(frame, 0, buffer, offset, frame.length);
        }
        Supplier<String> ctx = ctx(caseNo, "valid offset=" + offset, "", frame);
        SourceCommandCodec.DecodeResult r = decode(buffer, offset, frame.length, ctx);
        assertTrue(r.isSuccess(), () -> ctx.get() + " result=" + r);
        assertEquals(envelope, r.envelope(), ctx);
        assertArrayEquals(frame, SourceCommandCodec.encode(r.envelope()), ctx);
    }

    private void mutatedFrameCase(int caseNo, SplittableRandom rnd, boolean resealed) {
        SourceCommandEnvelope envelope = randomEnvelope(rnd);
        byte[] frame = SourceCommandCodec.encode(envelope);
        StringBuilder ops = new StringBuilder();
        byte[] mutated = frame.clone();
        int count = rnd.nextInt(1, 4);
        for (int m = 0; m < count; m++) {
            mutated = mutate(mutated, rnd, resealed, ops);
        }
        if (resealed) {
            FrameBytes.reseal(mutated);
            ops.append(" reseal");
        }
        byte[] input = mutated;
        Supplier<String> ctx =
                ctx(caseNo, resealed ? "mutated+resealed" : "mutated", ops.toString(), input);
        SourceCommandCodec.DecodeResult r = decode(input, 0, input.length, ctx);
        checkWellFormed(r, ctx);
        if (Arrays.equals(input, frame)) {
            assertTrue(r.isSuccess(), () -> ctx.get() + " no-op mutation failed: " + r);
            assertEquals(envelope, r.envelope(), ctx);
        } else if (!resealed) {
            assertFalse(r.isSuccess(), () -> ctx.get() + " corrupted frame accepted: " + r);
        } else if (r.isSuccess()) {
            int headerLength = FrameBytes.getUnsignedShort(input, HEADER_LENGTH_AT);
            assertTrue(
                    headerLength >= BASE_HEADER_LENGTH,
                    () -> ctx.get() + " accepted a header shorter than v1.0: " + r);
            if (headerLength == BASE_HEADER_LENGTH) {
                assertArrayEquals(input, SourceCommandCodec.encode(r.envelope()), ctx);
            } else {
                // Appended header fields must be skipped without effect: the same frame without
                // them decodes to the same envelope.
                byte[] stripped = new byte[input.length - (headerLength - BASE_HEADER_LENGTH)];
                System.arraycopy(input, 0, stripped, 0, BASE_HEADER_LENGTH);
                System.arraycopy(
                        input,
                        headerLength,
                        stripped,
                        BASE_HEADER_LENGTH,
                        input.length - headerLength);
                FrameBytes.putShort(stripped, HEADER_LENGTH_AT, BASE_HEADER_LENGTH);
                FrameBytes.reseal(stripped);
                SourceCommandCodec.DecodeResult base = decode(stripped, 0, stripped.length, ctx);
                assertTrue(base.isSuccess(), () -> ctx.get() + " stripped frame: " + base);
                assertEquals(base.envelope(), r.envelope(), ctx);
            }
        }
    }

    private static byte[] mutate(
            byte[] in, SplittableRandom rnd, boolean resealed, StringBuilder ops) {
        int op = rnd.nextInt(resealed ? 9 : 7);
        switch (op) {
            case 0:
                {
                    if (in.length == 0) {
                        return in;
                    }
                    int at = rnd.nextInt(in.length);
                    int bit = rnd.nextInt(8);
                    in[at] ^= (byte) (1 << bit);
                    ops.append(" flip@").append(at).append('.').append(bit);
                    return in;
                }
            case 1:
                {
                    int len = in.length == 0 ? 0 : rnd.nextInt(in.length);
                    ops.append(" truncate->").append(len);
                    return Arrays.copyOf(in, len);
                }
            case 2:
                {
                    int extra = rnd.nextInt(1, 17);
                    byte[] out = Arrays.copyOf(in, in.length + extra);
                    for (int i = in.length; i < out.length; i++) {
                        out[i] = (byte) rnd.nextInt(256);
                    }
                    ops.append(" extend+").append(extra);
                    return out;
                }
            case 3:
                {
                    if (in.length == 0) {
                        return in;
                    }
                    int at = rnd.nextInt(in.length);
                    int len = Math.min(in.length - at, rnd.nextInt(1, 9));
                    if (rnd.nextBoolean()) {
                        for (int i = at; i < at + len; i++) {
                            in[i] = (byte) rnd.nextInt(256);
                        }
                        ops.append(" splice-random@").append(at).append('+').append(len);
                    } else {
                        int from = rnd.nextInt(in.length - len + 1);
                        System.arraycopy(in, from, in, at, len);
                        ops.append(" splice-copy@")
                                .append(at)
                                .append("<-")
                                .append(from)
                                .append('+')
                                .append(len);
                    }
                    return in;
                }
            case 4:
                return corruptLengthField(in, rnd, ops);
            case 5:
                {
                    int at = rnd.nextInt(in.length + 1);
                    int len = rnd.nextInt(1, 9);
                    byte[] out = new byte[in.length + len];
                    System.arraycopy(in, 0, out, 0, at);
                    for (int i = at; i < at + len; i++) {
                        out[i] = (byte) rnd.nextInt(256);
                    }
                    System.arraycopy(in, at, out, at + len, in.length - at);
                    ops.append(" insert@").append(at).append('+').append(len);
                    return out;
                }
            case 6:
                {
                    if (in.length == 0) {
                        return in;
                    }
                    int at = rnd.nextInt(in.length);
                    int len = Math.min(in.length - at, rnd.nextInt(1, 9));
                    byte[] out = new byte[in.length - len];
                    System.arraycopy(in, 0, out, 0, at);
                    System.arraycopy(in, at + len, out, at, in.length - at - len);
                    ops.append(" delete@").append(at).append('+').append(len);
                    return out;
                }
            case 7:
                // Resealed only: header codes that the frame CRC would otherwise shadow.
                return setCode(in, rnd, ops);
            default:
                {
                    // Resealed only: tamper with the payload or its checksum.
                    int payloadLengthAt = BASE_HEADER_LENGTH;
                    if (in.length <= payloadLengthAt + 4 + 4) {
                        return in;
                    }
                    int at = rnd.nextInt(payloadLengthAt + 4, in.length - 4);
                    in[at] ^= (byte) (1 << rnd.nextInt(8));
                    ops.append(" payload-flip@").append(at);
                    return in;
                }
        }
    }

    private static byte[] corruptLengthField(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        boolean header = rnd.nextBoolean();
        int at = header ? HEADER_LENGTH_AT : BASE_HEADER_LENGTH;
        int width = header ? 2 : 4;
        if (in.length < at + width) {
            return in;
        }
        long old =
                header
                        ? FrameBytes.getUnsignedShort(in, at)
                        : java.nio.ByteBuffer.wrap(in).getInt(at) & 0xFFFFFFFFL;
        long value;
        switch (rnd.nextInt(3)) {
            case 0:
                value = old + rnd.nextInt(-8, 9);
                break;
            case 1:
                value = header ? rnd.nextInt(0x10000) : rnd.nextLong(0, 1L << 32);
                break;
            default:
                value = header ? 0xFFFF : 0xFFFFFFFFL;
                break;
        }
        if (header) {
            FrameBytes.putShort(in, at, (int) value);
        } else {
            FrameBytes.putInt(in, at, (int) value);
        }
        ops.append(header ? " headerLength=" : " payloadLength=").append(value);
        return in;
    }

    private static byte[] setCode(byte[] in, SplittableRandom rnd, StringBuilder ops) {
        int which = rnd.nextInt(5);
        int[] offsets = {4, 6, 78, 80, 86};
        String[] names = {"major", "minor", "kind", "durability", "payloadChecksum"};
        int at = offsets[which];
        int width = which == 4 ? 4 : 2;
        if (in.length < at + width) {
            return in;
        }
        int value = which == 4 ? rnd.nextInt() : rnd.nextInt(0, 20);
        if (width == 4) {
            FrameBytes.putInt(in, at, value);
        } else {
            FrameBytes.putShort(in, at, value);
        }
        ops.append(' ').append(names[which]).append('=').append(value);
        return in;
    }

    private SourceCommandCodec.DecodeResult decode(
            byte[] bytes, int offset, int length, Supplier<String> ctx) {
        return assertDoesNotThrow(
                () -> SourceCommandCodec.decode(bytes, offset, length, MAX_PAYLOAD), ctx);
    }

    private void checkWellFormed(SourceCommandCodec.DecodeResult r, Supplier<String> ctx) {
        if (r.isSuccess()) {
            SourceCommandEnvelope e = r.envelope();
            assertEquals(ReasonCode.NONE, r.reasonCode(), ctx);
            assertEquals(e.commandKind().durability(), e.durability(), ctx);
            byte[] payload = e.copyPayload();
            assertEquals(FrameBytes.jdkCrc(payload, 0, payload.length), e.payloadChecksum(), ctx);
            assertTrue(payload.length <= MAX_PAYLOAD, ctx);
            return;
        }
        seen.merge(r.reasonCode(), 1, Integer::sum);
        assertTrue(DECODER_REASONS.contains(r.reasonCode()), () -> ctx.get() + " " + r);
        AdmissionStatus expected =
                r.reasonCode() == ReasonCode.UNSUPPORTED_MAJOR_VERSION
                        ? AdmissionStatus.UNSUPPORTED_PROTOCOL
                        : AdmissionStatus.INVALID_PAYLOAD;
        assertEquals(expected, r.failureStatus(), ctx);
    }

    private Supplier<String> ctx(int caseNo, String category, String ops, byte[] input) {
        return () -> {
            byte[] head = Arrays.copyOf(input, Math.min(input.length, 160));
            return "fuzz.seed="
                    + seed
                    + " case="
                    + caseNo
                    + " "
                    + category
                    + ops
                    + " len="
                    + input.length
                    + " head="
                    + HexFormat.of().formatHex(head);
        };
    }

    static SourceCommandEnvelope randomEnvelope(SplittableRandom rnd) {
        CommandKind[] kinds = CommandKind.values();
        int payloadSize;
        int p = rnd.nextInt(100);
        if (p < 10) {
            payloadSize = 0;
        } else if (p < 85) {
            payloadSize = rnd.nextInt(1, 65);
        } else {
            payloadSize = rnd.nextInt(65, 2049);
        }
        byte[] payload = new byte[payloadSize];
        rnd.nextBytes(payload);
        int[] minors = {0, 0, 0, 1, 0xFFFF};
        return SourceCommandEnvelope.builder(kinds[rnd.nextInt(kinds.length)])
                .protocolVersion(1, minors[rnd.nextInt(minors.length)])
                .jobId(interestingLong(rnd))
                .sourceRuntimeId(interestingLong(rnd))
                .targetSubtask((int) interestingLong(rnd))
                .coordinatorEpoch(interestingLong(rnd))
                .senderAttemptId(interestingLong(rnd))
                .targetAttemptId(interestingLong(rnd))
                .senderSequence(interestingLong(rnd))
                .commandId(interestingLong(rnd))
                .coordinatorCutId(interestingLong(rnd))
                .payloadVersion((int) interestingLong(rnd))
                .payload(payload)
                .build();
    }

    private static long interestingLong(SplittableRandom rnd) {
        switch (rnd.nextInt(8)) {
            case 0:
                return 0;
            case 1:
                return -1;
            case 2:
                return rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
            case 3:
                return rnd.nextInt(0, 1000);
            default:
                return rnd.nextLong();
        }
    }
}
