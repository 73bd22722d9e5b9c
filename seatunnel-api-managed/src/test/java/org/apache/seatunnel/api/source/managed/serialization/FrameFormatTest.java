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

package org.apache.seatunnel.api.source.managed.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.EOFException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Golden bytes of frames and one test per refusal. The expected hex was computed independently with
 * a short Python script (struct.pack big-endian, a bitwise CRC-32C, zlib.crc32).
 */
class FrameFormatTest {
    private static final FrameFormat FULL =
            FrameFormat.named("test frame")
                    .magic(0x54455354)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, 1, 1)
                    .checksum(FrameChecksum.CRC32C)
                    .build();

    // "TEST" | u16 1 | u16 2 | u8 7 | u16 0x0102 | i32 -2 | i64 0x0102030405060708
    // | u32 3 | 01 02 03 | crc32c
    private static final String FULL_1_2 =
            "5445535400010002070102fffffffe010203040506070800000003010203f46f02b1";

    private static final FrameFormat SMALL =
            FrameFormat.named("small frame")
                    .version(FrameFormat.VersionField.U16, 1, 2)
                    .checksum(FrameChecksum.CRC32)
                    .build();

    // u16 2 | u8 0xAB | crc32
    private static final String SMALL_2 = "0002ab8c73c1f0";

    private static final FrameFormat BARE =
            FrameFormat.named("bare frame").version(FrameFormat.VersionField.U8, 5, 5).build();

    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s);
    }

    private static byte[] full() {
        return FULL.writer(1, 2)
                .putU8(7)
                .putU16(0x0102)
                .putI32(-2)
                .putI64(0x0102030405060708L)
                .putBlob(new byte[] {1, 2, 3})
                .finish();
    }

    /** Reads FULL's body in its layout order and ends the frame. */
    private static void readFull(byte[] bytes) throws FrameException {
        FrameReader in = FULL.open(bytes);
        assertEquals(7, in.u8());
        assertEquals(0x0102, in.u16());
        assertEquals(-2, in.i32());
        assertEquals(0x0102030405060708L, in.i64());
        assertArrayEquals(new byte[] {1, 2, 3}, in.blob(16, "blob"));
        in.finish();
    }

    /** Reads FULL's body in its layout order without looking at the values, then ends it. */
    private static void readAll(byte[] bytes) throws FrameException {
        FrameReader in = FULL.open(bytes);
        in.u8();
        in.u16();
        in.i32();
        in.i64();
        in.blob(16, "blob");
        in.finish();
    }

    private static FrameException refused(FrameRefusal reason, ThrowingRunnable r) {
        FrameException e = assertThrows(FrameException.class, r::run);
        assertEquals(reason, e.reason(), e.getMessage());
        assertFalse(e.detail().isEmpty());
        return e;
    }

    interface ThrowingRunnable {
        void run() throws Exception;
    }

    @Test
    void aFullFrameIsPinnedByGoldenBytes() throws Exception {
        assertEquals(FULL_1_2, HexFormat.of().formatHex(full()));
        FrameReader in = FULL.open(hex(FULL_1_2));
        assertEquals(1, in.version());
        assertEquals(2, in.minor());
        readFull(hex(FULL_1_2));
    }

    @Test
    void aFrameOfExactSizeIsTheSameBytesWithoutACopy() {
        byte[] exact =
                FULL.writerOfSize(1, 2, FULL_1_2.length() / 2)
                        .putU8(7)
                        .putU16(0x0102)
                        .putI32(-2)
                        .putI64(0x0102030405060708L)
                        .putBlob(new byte[] {1, 2, 3})
                        .finish();
        assertArrayEquals(hex(FULL_1_2), exact);
        FrameWriter wrong = FULL.writerOfSize(1, 2, 20).putU8(7);
        assertThrows(IllegalStateException.class, wrong::finish);
        assertThrows(IllegalStateException.class, () -> FULL.writerOfSize(1, 0, 12).putI64(1));
    }

    @Test
    void aU16FrameWithCrc32AndAU8FrameWithoutChecksumArePinned() throws Exception {
        assertEquals(SMALL_2, HexFormat.of().formatHex(SMALL.writer(2).putU8(0xAB).finish()));
        FrameReader small = SMALL.open(hex(SMALL_2));
        assertEquals(2, small.version());
        assertEquals(0xAB, small.u8());
        small.finish();
        assertEquals("0500000001", HexFormat.of().formatHex(BARE.writer(5).putI32(1).finish()));
        FrameReader bare = BARE.open(hex("0500000001"));
        assertEquals(1, bare.i32());
        bare.finish();
    }

    @Test
    void startsWithMagicTellsFormatsApart() {
        assertTrue(FULL.startsWithMagic(hex(FULL_1_2)));
        assertFalse(FULL.startsWithMagic(hex(SMALL_2)));
        assertFalse(FULL.startsWithMagic(null));
        assertFalse(BARE.startsWithMagic(hex("0500000001")));
    }

    @Test
    void truncatedBeforeTheHeader() {
        refused(FrameRefusal.TRUNCATED, () -> FULL.open(new byte[] {0x54, 0x45, 0x53}));
        refused(FrameRefusal.TRUNCATED, () -> FULL.open(null));
        assertTrue(
                refused(FrameRefusal.TRUNCATED, () -> BARE.open(new byte[0]))
                        .getMessage()
                        .contains("empty"));
        FrameFormat longer =
                FrameFormat.named("longer")
                        .version(FrameFormat.VersionField.U8, 1, 1)
                        .minLength(6)
                        .build();
        refused(FrameRefusal.TRUNCATED, () -> longer.open(new byte[] {1, 0, 0, 0, 0}));
        refused(FrameRefusal.TRUNCATED, () -> FULL.open(hex(FULL_1_2), 4, 40));
    }

    @Test
    void truncatedBodyStopsBeforeTheChecksum() {
        byte[] good = hex(FULL_1_2);
        // Every cut inside the body fails a read, whatever the checksum bytes then hold.
        for (int len = 8; len < good.length; len++) {
            byte[] cut = Arrays.copyOf(good, len);
            FrameException e = assertThrows(FrameException.class, () -> readAll(cut));
            assertTrue(
                    e.reason() == FrameRefusal.TRUNCATED
                            || e.reason() == FrameRefusal.CHECKSUM_MISMATCH,
                    len + ": " + e.getMessage());
        }
        refused(FrameRefusal.TRUNCATED, () -> FULL.open(Arrays.copyOf(good, 10)).u16());
    }

    @Test
    void badMagic() {
        byte[] bytes = hex(FULL_1_2);
        bytes[0] = 'X';
        assertTrue(
                refused(FrameRefusal.BAD_MAGIC, () -> FULL.open(bytes))
                        .getMessage()
                        .contains("0x54455354"));
    }

    @Test
    void unsupportedVersionButANewerMinorOpens() throws Exception {
        byte[] major2 = hex(FULL_1_2);
        major2[5] = 2;
        assertTrue(
                refused(FrameRefusal.UNSUPPORTED_VERSION, () -> FULL.open(major2))
                        .getMessage()
                        .contains("major version 2"));
        byte[] minor9 = hex(FULL_1_2);
        minor9[7] = 9;
        assertEquals(9, FULL.open(minor9).minor());
        refused(FrameRefusal.UNSUPPORTED_VERSION, () -> SMALL.open(hex("0003ab00000000")));
        refused(FrameRefusal.UNSUPPORTED_VERSION, () -> BARE.open(hex("0400000001")));
    }

    @Test
    void checksumMismatch() {
        byte[] flipped = hex(FULL_1_2);
        flipped[20] ^= 1;
        FrameException e = refused(FrameRefusal.CHECKSUM_MISMATCH, () -> readAll(flipped));
        assertTrue(e.getMessage().contains("CRC-32C"), e.getMessage());
        refused(FrameRefusal.CHECKSUM_MISMATCH, () -> FULL.open(flipped).verifyChecksum());
        byte[] small = hex(SMALL_2);
        small[2] ^= 1;
        refused(FrameRefusal.CHECKSUM_MISMATCH, () -> SMALL.open(small).verifyChecksum());
    }

    @Test
    void trailingBytesAfterTheLastField() {
        byte[] good = hex(FULL_1_2);
        // One more body byte, resealed: only the trailing check can tell.
        FrameWriter w =
                FULL.writer(1, 2)
                        .putU8(7)
                        .putU16(0x0102)
                        .putI32(-2)
                        .putI64(0x0102030405060708L)
                        .putBlob(new byte[] {1, 2, 3})
                        .putU8(0);
        byte[] longer = w.finish();
        assertEquals(good.length + 1, longer.length);
        refused(FrameRefusal.TRAILING_BYTES, () -> readFull(longer));
        refused(FrameRefusal.TRAILING_BYTES, () -> BARE.open(hex("050000000100")).finish());
    }

    @Test
    void declaredLengthShorterIsTrailingLongerIsTruncated() throws Exception {
        FrameReader in = FULL.open(hex(FULL_1_2));
        in.expectLength(FULL_1_2.length() / 2);
        refused(FrameRefusal.TRAILING_BYTES, () -> in.expectLength(FULL_1_2.length() / 2 - 1));
        refused(FrameRefusal.TRUNCATED, () -> in.expectLength(FULL_1_2.length() / 2 + 1));
        refused(FrameRefusal.TRUNCATED, () -> in.requireLength(FULL_1_2.length() / 2 + 1));
    }

    @Test
    void oversizeAndOutOfRangeLengths() throws Exception {
        FrameReader over = FULL.open(hex(FULL_1_2));
        over.seek(19);
        assertTrue(
                refused(FrameRefusal.OVERSIZE, () -> over.blob(2, "blob"))
                        .getMessage()
                        .contains("length out of range"));
        byte[] huge = hex(FULL_1_2);
        huge[19] = 0x7f; // blob length 0x7f000003: more than is left
        FrameReader in = FULL.open(huge);
        in.seek(19);
        refused(FrameRefusal.TRUNCATED, () -> in.blob(Integer.MAX_VALUE, "blob"));
        FrameReader neg = FULL.open(hex(FULL_1_2));
        refused(FrameRefusal.BAD_FIELD, () -> neg.bytes(-1));
        refused(FrameRefusal.TRUNCATED, () -> neg.require(1000, "entries"));
        refused(FrameRefusal.TRUNCATED, () -> neg.seek(1000));
        refused(FrameRefusal.TRUNCATED, () -> neg.i64At(30));
    }

    @Test
    void asAStreamTheBodyEndsBeforeTheChecksum() throws Exception {
        FrameReader in = FULL.open(hex(FULL_1_2));
        DataInputStream data = new DataInputStream(in);
        assertEquals(22, data.skipBytes(100)); // 1 + 2 + 4 + 8 + 4 + 3 body bytes
        assertEquals(0, in.remaining());
        assertEquals(-1, in.read());
        assertThrows(EOFException.class, data::readInt);
    }

    @Test
    void arbitraryMutationsAreRefusedWithAReasonNeverARuntimeException() {
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        System.out.println("FrameFormatTest seed=" + seed);
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] good = hex(FULL_1_2);
        for (int i = 0; i < 5000; i++) {
            byte[] bytes = Arrays.copyOf(good, rnd.nextInt(0, good.length + 4));
            for (int k = rnd.nextInt(0, 4); k > 0 && bytes.length > 0; k--) {
                bytes[rnd.nextInt(bytes.length)] = (byte) rnd.nextInt(256);
            }
            try {
                readAll(bytes);
            } catch (FrameException e) {
                assertFalse(e.detail().isEmpty(), "seed=" + seed + " case=" + i);
            } catch (RuntimeException e) {
                throw new AssertionError("seed=" + seed + " case=" + i, e);
            }
        }
    }
}
