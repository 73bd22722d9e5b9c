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
 * The payload codec of {@code ASSIGNMENT_ACK}: how far a reader attempt got, as one consistent pair
 * taken on its loop. The applied watermark (the highest sender sequence of its coordinator epoch
 * below which it applied every command) returns credit; the split backlog (splits it holds and has
 * not read to their end, counted after applying that far) keeps what the coordinator sends it
 * within its split window. Both are states, not increments, so a lost, late or repeated
 * acknowledgement is made good or made harmless by the next. Stateless; any thread.
 *
 * <p>Payload version 3 (big-endian; version 2 was the watermark alone and is no longer sent or
 * accepted):
 *
 * <pre>{@code
 * offset  size  field
 *      0     8  s64 applied watermark, at least 0
 *      8     4  s32 split backlog, or -1 when the reader does not count its splits
 * }</pre>
 */
public final class AppliedAckPayload {
    /** The envelope's {@code payloadVersion} of this layout. */
    public static final int VERSION = 3;

    /** The payload length. */
    public static final int BYTES = 12;

    /** The backlog of a reader that does not count its splits. */
    public static final int UNKNOWN_BACKLOG = -1;

    private final long watermark;
    private final int backlog;

    private AppliedAckPayload(long watermark, int backlog) {
        this.watermark = watermark;
        this.backlog = backlog;
    }

    public static byte[] encode(long watermark, int backlog) {
        if (watermark < 0 || backlog < UNKNOWN_BACKLOG) {
            throw new IllegalArgumentException(
                    "an applied acknowledgement needs a watermark >= 0 and a backlog >= -1: "
                            + watermark
                            + ", "
                            + backlog);
        }
        byte[] b = new byte[BYTES];
        SourceCommandCodec.putLong(b, 0, watermark);
        SourceCommandCodec.putInt(b, 8, backlog);
        return b;
    }

    /** {@link ReasonCode#NONE} if {@code payload} has this layout, else why not. */
    public static ReasonCode check(ByteBuffer payload) {
        if (payload.remaining() != BYTES) {
            return payload.remaining() < BYTES ? ReasonCode.TRUNCATED : ReasonCode.TRAILING_BYTES;
        }
        int p = payload.position();
        return payload.getLong(p) >= 0 && payload.getInt(p + 8) >= UNKNOWN_BACKLOG
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
        return new AppliedAckPayload(payload.getLong(p), payload.getInt(p + 8));
    }

    /** Every command of the epoch up to this sender sequence was applied. */
    public long watermark() {
        return watermark;
    }

    /** Splits held and not yet read to their end; {@link #UNKNOWN_BACKLOG} if not counted. */
    public int backlog() {
        return backlog;
    }
}
