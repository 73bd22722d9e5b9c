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
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins the v1.0 bytes of {@link CommandBatchCodec}'s batch and batch answer, and shows that every
 * malformed input is refused with a reason, never an exception. If a golden test fails, the change
 * breaks every peer: it needs a new protocol version, not a new golden string.
 */
class CommandBatchCodecTest {
    private static final long NO_BYTE_BOUND = Long.MAX_VALUE;

    /**
     * Computed independently with python3 from the layout in the {@link CommandBatchCodec} javadoc
     * and a bitwise CRC-32C: {@code entries = pack(">I", 3) + 0a0b0c + pack(">I", 1) + ff; body =
     * b"STCB" + pack(">HHHHI", 1, 0, 16, 2, 16 + len(entries)) + entries}, then the CRC as u32.
     * Entries are opaque to the batch layer, so two short byte strings pin it.
     */
    private static final String GOLDEN_BATCH_V1_0 =
            "53544342" // magic
                    + "0001" // major
                    + "0000" // minor
                    + "0010" // header length 16
                    + "0002" // count
                    + "0000001c" // body length 28
                    + "00000003"
                    + "0a0b0c" // entry 0
                    + "00000001"
                    + "ff" // entry 1
                    + "e609dff5"; // CRC-32C

    /**
     * python3: {@code b"STCK" + pack(">HHHBHH", 1, 0, 15, 1, 0, 2)} followed by two v1.0 acks
     * (ACCEPTED attempt 7 seq 3; RETRY_LATER attempt 7 retry 25 ms MAILBOX_COUNT_FULL), each with
     * its own CRC, then the CRC of it all.
     */
    private static final String GOLDEN_ACKS_V1_0 =
            "5354434b" // magic
                    + "0001" // major
                    + "0000" // minor
                    + "000f" // header length 15
                    + "01" // batch opened (ACCEPTED)
                    + "0000" // NONE
                    + "0002" // count
                    + "53544341000100000025010000000000000000000700000000000000030000000000000000c31c594c"
                    + "5354434100010000002503000c0000000000000007ffffffffffffffff0000000000000019abab475c"
                    + "5b0a602e"; // CRC-32C

    /** python3: {@code b"STCK" + pack(">HHHBHH", 1, 0, 15, 7, 3, 0)} and its CRC. */
    private static final String GOLDEN_REFUSAL_V1_0 = "5354434b00010000000f0700030000c94635fb";

    private static final List<AdmissionAck> GOLDEN_ACKS =
            Arrays.asList(
                    AdmissionAck.accepted(7, 3),
                    AdmissionAck.retryLater(7, 25, ReasonCode.MAILBOX_COUNT_FULL));

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static List<byte[]> goldenEntries() {
        return Arrays.asList(hex("0a0b0c"), hex("ff"));
    }

    private static void assertRefused(
            AdmissionStatus status, ReasonCode reason, CommandBatchCodec.BatchResult r) {
        assertFalse(r.isSuccess(), r::toString);
        assertEquals(status, r.failureStatus(), r::toString);
        assertEquals(reason, r.reasonCode(), r::toString);
        assertFalse(r.detail().isEmpty());
        assertEquals(0, r.count());
    }

    private static void assertRefused(ReasonCode reason, CommandBatchCodec.BatchResult r) {
        assertRefused(AdmissionStatus.INVALID_PAYLOAD, reason, r);
    }

    private static CommandBatchCodec.BatchResult decode(byte[] b) {
        return CommandBatchCodec.decode(b, CommandBatchCodec.MAX_ENTRIES, NO_BYTE_BOUND);
    }

    @Test
    void encodeProducesPinnedVersion1Bytes() {
        assertEquals(
                GOLDEN_BATCH_V1_0,
                HexFormat.of().formatHex(CommandBatchCodec.encode(goldenEntries())));
        assertEquals(
                GOLDEN_ACKS_V1_0,
                HexFormat.of().formatHex(CommandBatchCodec.encodeAcks(GOLDEN_ACKS)));
        assertEquals(
                GOLDEN_REFUSAL_V1_0,
                HexFormat.of()
                        .formatHex(
                                CommandBatchCodec.encodeRefusal(
                                        AdmissionStatus.INVALID_PAYLOAD,
                                        ReasonCode.FRAME_CHECKSUM_MISMATCH)));
    }

    @Test
    void pinnedVersion1BytesDecode() {
        byte[] batch = hex(GOLDEN_BATCH_V1_0);
        CommandBatchCodec.BatchResult r = decode(batch);
        assertTrue(r.isSuccess(), r::toString);
        assertEquals(2, r.count());
        assertArrayEquals(hex("0a0b0c"), slice(r, 0));
        assertArrayEquals(hex("ff"), slice(r, 1));

        CommandBatchCodec.AckResult acks =
                CommandBatchCodec.decodeAcks(hex(GOLDEN_ACKS_V1_0), CommandBatchCodec.MAX_ENTRIES);
        assertTrue(acks.isSuccess(), acks::toString);
        assertTrue(acks.opened());
        assertEquals(GOLDEN_ACKS, acks.acks());

        CommandBatchCodec.AckResult refusal =
                CommandBatchCodec.decodeAcks(
                        hex(GOLDEN_REFUSAL_V1_0), CommandBatchCodec.MAX_ENTRIES);
        assertTrue(refusal.isSuccess(), refusal::toString);
        assertFalse(refusal.opened());
        assertEquals(AdmissionStatus.INVALID_PAYLOAD, refusal.batchStatus());
        assertEquals(ReasonCode.FRAME_CHECKSUM_MISMATCH, refusal.reasonCode());
        assertTrue(refusal.acks().isEmpty());
    }

    @Test
    void realCommandFramesRoundTripInOrder() {
        List<SourceCommandEnvelope> envs = new ArrayList<>();
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            SourceCommandEnvelope env =
                    SourceCommandEnvelope.builder(CommandKind.READER_CHECKPOINTED)
                            .jobId(1)
                            .sourceRuntimeId(2)
                            .targetSubtask(i)
                            .senderAttemptId(100 + i)
                            .commandId(i + 1)
                            .payloadVersion(1)
                            .payload(new byte[] {(byte) i, 1, 2})
                            .build();
            envs.add(env);
            frames.add(SourceCommandCodec.encode(env));
        }
        CommandBatchCodec.BatchResult r = decode(CommandBatchCodec.encode(frames));
        assertEquals(16, r.count());
        for (int i = 0; i < 16; i++) {
            assertEquals(
                    envs.get(i),
                    SourceCommandCodec.decode(r.batch(), r.offset(i), r.length(i), 64).envelope());
        }
    }

    @Test
    void badMagic() {
        byte[] b = hex(GOLDEN_BATCH_V1_0);
        b[3] ^= 1;
        assertRefused(ReasonCode.BAD_MAGIC, decode(FrameBytes.reseal(b)));
    }

    @Test
    void unsupportedMajorIsAProtocolRefusal() {
        byte[] b = FrameBytes.reseal(FrameBytes.putShort(hex(GOLDEN_BATCH_V1_0), 4, 2));
        assertRefused(
                AdmissionStatus.UNSUPPORTED_PROTOCOL,
                ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                decode(b));
    }

    @Test
    void checksumMismatch() {
        byte[] b = hex(GOLDEN_BATCH_V1_0);
        b[20] ^= 0x10;
        assertRefused(ReasonCode.FRAME_CHECKSUM_MISMATCH, decode(b));
    }

    @Test
    void countOverTheBoundIsOversize() {
        CommandBatchCodec.BatchResult r =
                CommandBatchCodec.decode(hex(GOLDEN_BATCH_V1_0), 1, NO_BYTE_BOUND);
        assertRefused(ReasonCode.OVERSIZE, r);
    }

    @Test
    void sizeOverTheBoundIsOversizeBeforeTheChecksum() {
        byte[] b = hex(GOLDEN_BATCH_V1_0);
        b[b.length - 1] ^= 1; // a bad CRC must not be what is reported
        assertRefused(
                ReasonCode.OVERSIZE,
                CommandBatchCodec.decode(b, CommandBatchCodec.MAX_ENTRIES, b.length - 1));
    }

    @Test
    void emptyBatchIsRefused() {
        byte[] b = FrameBytes.reseal(FrameBytes.putShort(hex(GOLDEN_BATCH_V1_0), 10, 0));
        assertRefused(ReasonCode.BAD_HEADER_FIELD, decode(b));
    }

    @Test
    void truncatedAtEveryLength() {
        byte[] b = hex(GOLDEN_BATCH_V1_0);
        for (int len = 0; len < b.length; len++) {
            assertRefused(ReasonCode.TRUNCATED, decode(Arrays.copyOf(b, len)));
        }
        assertRefused(ReasonCode.TRUNCATED, decode(null));
    }

    @Test
    void trailingBytes() {
        byte[] b = hex(GOLDEN_BATCH_V1_0);
        assertRefused(ReasonCode.TRAILING_BYTES, decode(Arrays.copyOf(b, b.length + 1)));
    }

    @Test
    void entryRunningPastTheBodyIsTruncated() {
        byte[] b = FrameBytes.reseal(FrameBytes.putInt(hex(GOLDEN_BATCH_V1_0), 23, 2));
        assertRefused(ReasonCode.TRUNCATED, decode(b));
    }

    @Test
    void bytesAfterTheLastEntryAreTrailing() {
        // Count 1 where the body holds two entries.
        byte[] b = FrameBytes.reseal(FrameBytes.putShort(hex(GOLDEN_BATCH_V1_0), 10, 1));
        assertRefused(ReasonCode.TRAILING_BYTES, decode(b));
    }

    @Test
    void headerLongerThanItsMinimumIsSkipped() {
        // A later minor appends a 4-byte header field: entries start at 20.
        byte[] v10 = hex(GOLDEN_BATCH_V1_0);
        byte[] v11 = new byte[v10.length + 4];
        System.arraycopy(v10, 0, v11, 0, 16);
        System.arraycopy(v10, 16, v11, 20, v10.length - 16);
        FrameBytes.putShort(v11, 6, 1);
        FrameBytes.putShort(v11, 8, 20);
        FrameBytes.putInt(v11, 12, 28 + 4);
        CommandBatchCodec.BatchResult r = decode(FrameBytes.reseal(v11));
        assertTrue(r.isSuccess(), r::toString);
        assertArrayEquals(hex("ff"), slice(r, 1));
    }

    @Test
    void badAcksAreRefusedWithAReason() {
        byte[] good = hex(GOLDEN_ACKS_V1_0);
        byte[] magic = good.clone();
        magic[0] ^= 1;
        assertAckFailure(ReasonCode.BAD_MAGIC, FrameBytes.reseal(magic));
        assertAckFailure(
                ReasonCode.UNSUPPORTED_MAJOR_VERSION,
                FrameBytes.reseal(FrameBytes.putShort(good.clone(), 4, 9)));
        byte[] crc = good.clone();
        crc[30] ^= 4;
        assertAckFailure(ReasonCode.FRAME_CHECKSUM_MISMATCH, crc);
        assertAckFailure(ReasonCode.TRUNCATED, Arrays.copyOf(good, good.length - 1));
        assertAckFailure(ReasonCode.TRAILING_BYTES, Arrays.copyOf(good, good.length + 2));
        assertEquals(ReasonCode.OVERSIZE, CommandBatchCodec.decodeAcks(good, 1).reasonCode());
        // An opened batch with no acks, a refusal with acks, RETRY_LATER as a batch status.
        assertAckFailure(
                ReasonCode.BAD_HEADER_FIELD,
                FrameBytes.reseal(
                        FrameBytes.putShort(
                                Arrays.copyOf(hex(GOLDEN_REFUSAL_V1_0), 19), 10, 0x0100)));
        byte[] refusedWithAcks = good.clone();
        refusedWithAcks[10] = 7;
        assertAckFailure(ReasonCode.BAD_HEADER_FIELD, FrameBytes.reseal(refusedWithAcks));
        byte[] retry = good.clone();
        retry[10] = 3;
        assertAckFailure(ReasonCode.BAD_HEADER_FIELD, FrameBytes.reseal(retry));
        // A broken inner ack (its own CRC) under a valid outer CRC.
        byte[] inner = good.clone();
        inner[15 + 20] ^= 1;
        assertAckFailure(ReasonCode.FRAME_CHECKSUM_MISMATCH, FrameBytes.reseal(inner));
        assertAckFailure(ReasonCode.TRUNCATED, null);
    }

    @Test
    void encoderRefusesWhatNoReceiverWouldOpen() {
        assertThrows(
                IllegalArgumentException.class,
                () -> CommandBatchCodec.encode(Collections.<byte[]>emptyList()));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        CommandBatchCodec.encode(
                                Collections.nCopies(
                                        CommandBatchCodec.MAX_ENTRIES + 1, new byte[1])));
        assertThrows(
                IllegalArgumentException.class,
                () ->
                        CommandBatchCodec.encodeRefusal(
                                AdmissionStatus.RETRY_LATER, ReasonCode.NONE));
    }

    private static void assertAckFailure(ReasonCode reason, byte[] frame) {
        CommandBatchCodec.AckResult r =
                CommandBatchCodec.decodeAcks(frame, CommandBatchCodec.MAX_ENTRIES);
        assertFalse(r.isSuccess(), r::toString);
        assertEquals(reason, r.reasonCode(), r::toString);
        assertThrows(IllegalStateException.class, r::acks);
    }

    private static byte[] slice(CommandBatchCodec.BatchResult r, int i) {
        return Arrays.copyOfRange(r.batch(), r.offset(i), r.offset(i) + r.length(i));
    }
}
