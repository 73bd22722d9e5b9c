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

import java.nio.ByteBuffer;

/**
 * The payload codec of {@code ASSIGNMENT_ACK}: how far a reader attempt got, as one consistent
 * state taken on its loop. The applied watermark (the highest sender sequence of its coordinator
 * epoch below which it applied every command) returns credit; the split backlog (splits it holds
 * and has not read to their end, counted after applying that far) keeps what the coordinator sends
 * it within its split window; the last barrier the attempt had taken when the state was taken dates
 * it against checkpoints. All are states, not increments, so a lost, late or repeated
 * acknowledgement is made good or made harmless by the next. Stateless; any thread.
 *
 * <p>Dated by the barrier, a state proves more than flow control: the attempt applied every command
 * up to the watermark before any later barrier, so its checkpointed state at that barrier holds
 * them, and the coordinator leaves them out of the snapshot of that checkpoint ({@code
 * AppliedBeforeBarrier}). It never lets the coordinator forget them before a checkpoint completes.
 *
 * <p>Payload version 4 (big-endian; version 3, the first two fields alone, and version 2, the
 * watermark alone, are no longer sent or accepted):
 *
 * <pre>{@code
 * offset  size  field
 *      0     8  s64 applied watermark, at least 0
 *      8     4  s32 split backlog, or -1 when the reader does not count its splits
 *     12     8  s64 last barrier (checkpoint id) the attempt had taken, 0 before its first
 * }</pre>
 */
public final class AppliedAckPayload {
    /** The envelope's {@code payloadVersion} of this layout. */
    public static final int VERSION = 4;

    /** The payload length. */
    public static final int BYTES = 20;

    /** The backlog of a reader that does not count its splits. */
    public static final int UNKNOWN_BACKLOG = -1;

    private final long watermark;
    private final int backlog;
    private final long lastBarrier;

    private AppliedAckPayload(long watermark, int backlog, long lastBarrier) {
        this.watermark = watermark;
        this.backlog = backlog;
        this.lastBarrier = lastBarrier;
    }

    public static byte[] encode(long watermark, int backlog, long lastBarrier) {
        if (watermark < 0 || backlog < UNKNOWN_BACKLOG || lastBarrier < 0) {
            throw new IllegalArgumentException(
                    "an applied acknowledgement needs a watermark >= 0, a backlog >= -1 and a"
                            + " last barrier >= 0: "
                            + watermark
                            + ", "
                            + backlog
                            + ", "
                            + lastBarrier);
        }
        byte[] b = new byte[BYTES];
        SourceCommandCodec.putLong(b, 0, watermark);
        SourceCommandCodec.putInt(b, 8, backlog);
        SourceCommandCodec.putLong(b, 12, lastBarrier);
        return b;
    }

    /** {@link ReasonCode#NONE} if {@code payload} has this layout, else why not. */
    public static ReasonCode check(ByteBuffer payload) {
        if (payload.remaining() != BYTES) {
            return payload.remaining() < BYTES ? ReasonCode.TRUNCATED : ReasonCode.TRAILING_BYTES;
        }
        int p = payload.position();
        return payload.getLong(p) >= 0
                        && payload.getInt(p + 8) >= UNKNOWN_BACKLOG
                        && payload.getLong(p + 12) >= 0
                ? ReasonCode.NONE
                : ReasonCode.MALFORMED_PAYLOAD;
    }

    /**
     * Decodes a payload {@link #check} accepted.
     *
     * @throws IllegalArgumentException naming the reason if it does not have this layout
     */
    public static AppliedAckPayload decode(ByteBuffer payload) {
        ReasonCode bad = check(payload);
        if (bad != ReasonCode.NONE) {
            throw new IllegalArgumentException("malformed applied acknowledgement: " + bad);
        }
        int p = payload.position();
        return new AppliedAckPayload(
                payload.getLong(p), payload.getInt(p + 8), payload.getLong(p + 12));
    }

    /** Every command of the epoch up to this sender sequence was applied. */
    public long watermark() {
        return watermark;
    }

    /** Splits held and not yet read to their end; {@link #UNKNOWN_BACKLOG} if not counted. */
    public int backlog() {
        return backlog;
    }

    /** The last barrier the attempt had taken when it took this state; 0 before its first. */
    public long lastBarrier() {
        return lastBarrier;
    }
}
