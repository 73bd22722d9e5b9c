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

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameWriter;

/**
 * Binary codec for a batch of already-encoded command frames and for its answer, one {@link
 * AdmissionAck} per frame, protocol major version 1. Several readers of one member send their
 * checkpoint reports to one coordinator in one batch instead of one operation each.
 *
 * <p>Threading: stateless, any thread.
 *
 * <p>Batch layout (big-endian):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53 0x54 0x43 0x42 ("STCB")
 *      4     2  u16 protocol major (1)
 *      6     2  u16 protocol minor
 *      8     2  u16 header length H = offset of the first entry (16 in v1.0)
 *     10     2  u16 entry count N (at least 1)
 *     12     4  u32 body length B = offset of the batch CRC
 *     16        [minor > 0 only: appended header fields, up to H]
 *      H        N entries, each: u32 length L, then L bytes of one SourceCommandCodec frame
 *      B     4  u32 CRC-32C over bytes [0, B)
 * }</pre>
 *
 * <p>Batch-ack layout (big-endian):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53 0x54 0x43 0x4B ("STCK")
 *      4     2  u16 protocol major (1)
 *      6     2  u16 protocol minor
 *      8     2  u16 header length H = offset of the first ack (15 in v1.0)
 *     10     1  u8  batch status: ACCEPTED when the batch was opened and N acks follow; the
 *                   decoder's INVALID_PAYLOAD / UNSUPPORTED_PROTOCOL when it was not (N = 0)
 *     11     2  u16 batch ReasonCode
 *     13     2  u16 ack count N
 *     15        [minor > 0 only: appended header fields, up to H]
 *      H  41*N  N AdmissionAckCodec v1.0 acks, in the order of the batch's entries
 *  H+41N     4  u32 CRC-32C over bytes [0, H+41N)
 * }</pre>
 *
 * <p>The entries are not decoded here: the receiver hands each to {@link SourceCommandCodec}, so a
 * bad entry is refused on its own, exactly as a separate delivery would be. Evolution follows
 * {@link SourceCommandCodec}: a minor may only append header fields and raise H. Both decoders
 * never throw; they check, in order: minimum length, magic, major, header fields, bounds, exact
 * length, CRC, then the entries.
 */
public final class CommandBatchCodec {
    public static final int MAGIC = 0x53544342;
    public static final int ACK_MAGIC = 0x5354434B;
    public static final int SUPPORTED_MAJOR = 1;

    /**
     * The most entries a receiver accepts in one batch, whatever the sender's {@code
     * transport.report-batch-max-reports} (whose upper bound it is).
     */
    public static final int MAX_ENTRIES = 1024;

    static final int OFF_HEADER_LENGTH = 8;
    static final int OFF_COUNT = 10;
    static final int OFF_BODY_LENGTH = 12;
    static final int BASE_HEADER_LENGTH = 16;
    static final int ENTRY_LENGTH_BYTES = 4;
    static final int CRC_BYTES = 4;

    static final int OFF_ACK_STATUS = 10;
    static final int OFF_ACK_REASON = 11;
    static final int OFF_ACK_COUNT = 13;
    static final int BASE_ACK_HEADER_LENGTH = 15;

    private static final FrameFormat BATCH =
            FrameFormat.named("command batch")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, SUPPORTED_MAJOR, SUPPORTED_MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(BASE_HEADER_LENGTH + CRC_BYTES)
                    .build();

    private static final FrameFormat ACKS =
            FrameFormat.named("batch ack")
                    .magic(ACK_MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, SUPPORTED_MAJOR, SUPPORTED_MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(BASE_ACK_HEADER_LENGTH + CRC_BYTES)
                    .build();

    private CommandBatchCodec() {}

    /**
     * The largest encoded batch of {@code maxEntries} frames whose payloads are at most {@code
     * maxPayloadBytes}: what a receiver passes to {@link #decode} as its byte bound.
     */
    public static long maxBatchBytes(int maxEntries, int maxPayloadBytes) {
        // A frame's header length is a u16, so no major-1 frame is longer than this.
        long maxFrame = 0xFFFFL + 8 + (long) maxPayloadBytes;
        return BASE_HEADER_LENGTH + maxEntries * (ENTRY_LENGTH_BYTES + maxFrame) + CRC_BYTES;
    }

    /**
     * Encodes {@code frames} (each an encoded {@link SourceCommandCodec} frame) as one batch.
     *
     * @throws IllegalArgumentException for no frames, more than {@link #MAX_ENTRIES}, or a batch
     *     that would not fit an array
     */
    public static byte[] encode(List<byte[]> frames) {
        Objects.requireNonNull(frames, "frames");
        if (frames.isEmpty() || frames.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(
                    "a batch holds 1.." + MAX_ENTRIES + " frames, not " + frames.size());
        }
        long size = BASE_HEADER_LENGTH + CRC_BYTES;
        for (byte[] f : frames) {
            size += ENTRY_LENGTH_BYTES + f.length;
        }
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("batch of " + size + " bytes is too large");
        }
        FrameWriter out =
                BATCH.writerOfSize(SUPPORTED_MAJOR, ProtocolVersion.MINOR, (int) size)
                        .putU16(BASE_HEADER_LENGTH)
                        .putU16(frames.size())
                        .putI32((int) size - CRC_BYTES);
        for (byte[] f : frames) {
            out.putBlob(f);
        }
        return out.finish();
    }

    /**
     * Decodes a whole array as one batch. Never throws.
     *
     * @param maxEntries entries above this are refused with {@link ReasonCode#OVERSIZE}
     * @param maxBytes a batch longer than this is refused with {@link ReasonCode#OVERSIZE} before
     *     its checksum is computed
     */
    public static BatchResult decode(byte[] batch, int maxEntries, long maxBytes) {
        try {
            FrameReader in = BATCH.open(batch);
            int headerLength = in.u16At(OFF_HEADER_LENGTH);
            if (headerLength < BASE_HEADER_LENGTH) {
                return invalid(
                        ReasonCode.BAD_HEADER_FIELD,
                        "header length " + headerLength + " < " + BASE_HEADER_LENGTH);
            }
            int count = in.u16At(OFF_COUNT);
            if (count == 0) {
                return invalid(ReasonCode.BAD_HEADER_FIELD, "empty batch");
            }
            if (count > maxEntries) {
                return invalid(ReasonCode.OVERSIZE, count + " entries, at most " + maxEntries);
            }
            long declared = (in.i32At(OFF_BODY_LENGTH) & 0xFFFFFFFFL) + CRC_BYTES;
            if (declared > maxBytes) {
                return invalid(ReasonCode.OVERSIZE, declared + " bytes, at most " + maxBytes);
            }
            in.expectLength(declared);
            int body = (int) declared - CRC_BYTES;
            if (headerLength > body) {
                return invalid(ReasonCode.BAD_HEADER_FIELD, "header longer than the body");
            }
            in.verifyChecksum();
            int[] offsets = new int[count];
            int[] lengths = new int[count];
            in.seek(headerLength);
            for (int i = 0; i < count; i++) {
                if (in.remaining() < ENTRY_LENGTH_BYTES) {
                    return invalid(ReasonCode.TRUNCATED, "entry " + i + " has no length");
                }
                long entryLength = in.u32();
                if (entryLength > in.remaining()) {
                    return invalid(ReasonCode.TRUNCATED, "entry " + i + " runs past the body");
                }
                offsets[i] = in.position();
                lengths[i] = (int) entryLength;
                in.skip(entryLength);
            }
            if (in.remaining() > 0) {
                return invalid(
                        ReasonCode.TRAILING_BYTES, in.remaining() + " bytes after the last entry");
            }
            return new BatchResult(batch, offsets, lengths, null, ReasonCode.NONE, "");
        } catch (FrameException e) {
            return BatchResult.failure(
                    SourceCommandCodec.statusOf(e), SourceCommandCodec.reasonOf(e), e.detail());
        }
    }

    private static BatchResult invalid(ReasonCode reason, String detail) {
        return BatchResult.failure(AdmissionStatus.INVALID_PAYLOAD, reason, detail);
    }

    /** Encodes the answer to an opened batch: one ack per entry, in entry order. */
    public static byte[] encodeAcks(List<AdmissionAck> acks) {
        Objects.requireNonNull(acks, "acks");
        if (acks.isEmpty() || acks.size() > MAX_ENTRIES) {
            throw new IllegalArgumentException(
                    "a batch answer holds 1.." + MAX_ENTRIES + " acks, not " + acks.size());
        }
        return encodeAckFrame(AdmissionStatus.ACCEPTED, ReasonCode.NONE, acks);
    }

    /**
     * Encodes the answer to a batch that did not decode: the decoder's status ({@code
     * INVALID_PAYLOAD} or {@code UNSUPPORTED_PROTOCOL}) and reason apply to every entry.
     */
    public static byte[] encodeRefusal(AdmissionStatus status, ReasonCode reason) {
        if (status == AdmissionStatus.ACCEPTED || status == AdmissionStatus.RETRY_LATER) {
            throw new IllegalArgumentException("a batch refusal is final, not " + status);
        }
        return encodeAckFrame(status, reason, Collections.<AdmissionAck>emptyList());
    }

    private static byte[] encodeAckFrame(
            AdmissionStatus status, ReasonCode reason, List<AdmissionAck> acks) {
        int body = BASE_ACK_HEADER_LENGTH + acks.size() * AdmissionAckCodec.FRAME_LENGTH;
        FrameWriter out =
                ACKS.writerOfSize(SUPPORTED_MAJOR, ProtocolVersion.MINOR, body + CRC_BYTES)
                        .putU16(BASE_ACK_HEADER_LENGTH)
                        .putU8(status.wireCode())
                        .putU16(reason.wireCode())
                        .putU16(acks.size());
        for (AdmissionAck ack : acks) {
            out.putBytes(AdmissionAckCodec.encode(ack));
        }
        return out.finish();
    }

    /** Decodes a batch answer. Never throws. */
    public static AckResult decodeAcks(byte[] frame, int maxEntries) {
        try {
            FrameReader in = ACKS.open(frame);
            int headerLength = in.u16At(OFF_HEADER_LENGTH);
            if (headerLength < BASE_ACK_HEADER_LENGTH) {
                return AckResult.failure(
                        ReasonCode.BAD_HEADER_FIELD,
                        "header length " + headerLength + " < " + BASE_ACK_HEADER_LENGTH);
            }
            int count = in.u16At(OFF_ACK_COUNT);
            if (count > maxEntries) {
                return AckResult.failure(
                        ReasonCode.OVERSIZE, count + " acks, at most " + maxEntries);
            }
            in.expectLength(headerLength + count * AdmissionAckCodec.FRAME_LENGTH + CRC_BYTES);
            in.verifyChecksum();
            AdmissionStatus status = AdmissionStatus.fromWireCode(in.u8At(OFF_ACK_STATUS));
            ReasonCode reason = ReasonCode.fromWireCode(in.u16At(OFF_ACK_REASON));
            if (status == null || reason == null || status == AdmissionStatus.RETRY_LATER) {
                return AckResult.failure(ReasonCode.BAD_HEADER_FIELD, "unknown batch status");
            }
            boolean opened = status == AdmissionStatus.ACCEPTED;
            if (opened != (count > 0)) {
                return AckResult.failure(
                        ReasonCode.BAD_HEADER_FIELD,
                        "batch status " + status + " with " + count + " acks");
            }
            List<AdmissionAck> acks = new ArrayList<>(count);
            for (int i = 0, at = headerLength;
                    i < count;
                    i++, at += AdmissionAckCodec.FRAME_LENGTH) {
                AdmissionAckCodec.DecodeResult r =
                        AdmissionAckCodec.decode(frame, at, AdmissionAckCodec.FRAME_LENGTH);
                if (!r.isSuccess()) {
                    return AckResult.failure(r.reasonCode(), "ack " + i + ": " + r.detail());
                }
                acks.add(r.ack());
            }
            return new AckResult(acks, status, reason, "");
        } catch (FrameException e) {
            return AckResult.failure(SourceCommandCodec.reasonOf(e), e.detail());
        }
    }

    /**
     * The outcome of {@link #decode}: the entries' positions in the batch array, or a failure with
     * the status to answer, a reason and an operator-readable detail.
     *
     * <p>Threading: immutable after construction (the arrays never escape), any thread.
     */
    public static final class BatchResult {
        private final byte[] batch;
        private final int[] offsets;
        private final int[] lengths;
        private final AdmissionStatus failureStatus;
        private final ReasonCode reasonCode;
        private final String detail;

        private BatchResult(
                byte[] batch,
                int[] offsets,
                int[] lengths,
                AdmissionStatus failureStatus,
                ReasonCode reasonCode,
                String detail) {
            this.batch = batch;
            this.offsets = offsets;
            this.lengths = lengths;
            this.failureStatus = failureStatus;
            this.reasonCode = reasonCode;
            this.detail = detail;
        }

        static BatchResult failure(AdmissionStatus status, ReasonCode reason, String detail) {
            return new BatchResult(null, null, null, status, reason, detail);
        }

        public boolean isSuccess() {
            return failureStatus == null;
        }

        /** Entries; 0 after a failure. */
        public int count() {
            return offsets == null ? 0 : offsets.length;
        }

        /** The batch array the entries live in. */
        public byte[] batch() {
            return batch;
        }

        /** Offset of entry {@code i}'s frame in {@link #batch()}. */
        public int offset(int i) {
            return offsets[i];
        }

        /** Length of entry {@code i}'s frame. */
        public int length(int i) {
            return lengths[i];
        }

        /** {@code INVALID_PAYLOAD} or {@code UNSUPPORTED_PROTOCOL}; null on success. */
        public AdmissionStatus failureStatus() {
            return failureStatus;
        }

        /** {@link ReasonCode#NONE} on success. */
        public ReasonCode reasonCode() {
            return reasonCode;
        }

        public String detail() {
            return detail;
        }

        @Override
        public String toString() {
            return isSuccess()
                    ? "BatchResult{" + count() + " entries}"
                    : "BatchResult{" + failureStatus + ", " + reasonCode + ", " + detail + '}';
        }
    }

    /**
     * The outcome of {@link #decodeAcks}: the batch status with one ack per entry (or none when the
     * batch was refused as a whole), or a failure reason.
     *
     * <p>Threading: immutable, any thread.
     */
    public static final class AckResult {
        private final List<AdmissionAck> acks;
        private final AdmissionStatus batchStatus;
        private final ReasonCode reasonCode;
        private final String detail;

        private AckResult(
                List<AdmissionAck> acks,
                AdmissionStatus batchStatus,
                ReasonCode reasonCode,
                String detail) {
            this.acks = acks;
            this.batchStatus = batchStatus;
            this.reasonCode = reasonCode;
            this.detail = detail;
        }

        static AckResult failure(ReasonCode reason, String detail) {
            return new AckResult(null, null, reason, detail);
        }

        public boolean isSuccess() {
            return acks != null;
        }

        /** True when the receiver opened the batch and {@link #acks()} answer its entries. */
        public boolean opened() {
            return batchStatus == AdmissionStatus.ACCEPTED;
        }

        /**
         * @throws IllegalStateException if decoding failed
         */
        public List<AdmissionAck> acks() {
            if (acks == null) {
                throw new IllegalStateException("decode failed: " + this);
            }
            return Collections.unmodifiableList(acks);
        }

        /** ACCEPTED for an opened batch, else the refusal that applies to every entry. */
        public AdmissionStatus batchStatus() {
            return batchStatus;
        }

        /**
         * The refusal's reason for a refused batch, the decode failure's reason for a failure,
         * {@link ReasonCode#NONE} for an opened batch.
         */
        public ReasonCode reasonCode() {
            return reasonCode;
        }

        public String detail() {
            return detail;
        }

        @Override
        public String toString() {
            return isSuccess()
                    ? "AckResult{" + batchStatus + ", " + reasonCode + ", " + acks.size() + " acks}"
                    : "AckResult{failed " + reasonCode + ", " + detail + '}';
        }
    }
}
