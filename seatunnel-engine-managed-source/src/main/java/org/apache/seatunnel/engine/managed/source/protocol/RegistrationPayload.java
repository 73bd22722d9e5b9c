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
 * The payload codec of {@code READER_REGISTRATION}: the credit window the registering reader
 * attempt offers its coordinator, i.e. how many commands and payload bytes of the coordinator's
 * ordered commands its mailbox admits at a time (its normal capacity; the reserved capacity stays
 * for local controls), and how many splits it wants to hold unread at most (its split window). The
 * coordinator keeps what it has sent and the reader has not applied within the first two, so its
 * sends never overrun the mailbox, and what the reader reports holding plus what is on its way
 * within the third. Stateless; any thread.
 *
 * <p>Payload version 3 (big-endian; version 2 lacked the split window, version 1 was empty; neither
 * is sent or accepted any more):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  s32 window commands, at least 1
 *      4     8  s64 window payload bytes, at least 1
 *     12     4  s32 window splits, at least 1, or 0 for none (the reader does not count its splits)
 * }</pre>
 */
public final class RegistrationPayload {
    /** The envelope's {@code payloadVersion} of this layout. */
    public static final int VERSION = 3;

    /** The payload length. */
    public static final int BYTES = 16;

    /** The split window of a reader that does not count its splits. */
    public static final int NO_SPLIT_WINDOW = 0;

    private final int windowCommands;
    private final long windowBytes;
    private final int windowSplits;

    private RegistrationPayload(int windowCommands, long windowBytes, int windowSplits) {
        this.windowCommands = windowCommands;
        this.windowBytes = windowBytes;
        this.windowSplits = windowSplits;
    }

    public static byte[] encode(int windowCommands, long windowBytes, int windowSplits) {
        if (windowCommands < 1 || windowBytes < 1 || windowSplits < NO_SPLIT_WINDOW) {
            throw new IllegalArgumentException(
                    "a credit window must be positive: "
                            + windowCommands
                            + ", "
                            + windowBytes
                            + ", "
                            + windowSplits);
        }
        byte[] b = new byte[BYTES];
        SourceCommandCodec.putInt(b, 0, windowCommands);
        SourceCommandCodec.putLong(b, 4, windowBytes);
        SourceCommandCodec.putInt(b, 12, windowSplits);
        return b;
    }

    /** {@link ReasonCode#NONE} if {@code payload} has this layout, else why not. */
    public static ReasonCode check(ByteBuffer payload) {
        if (payload.remaining() != BYTES) {
            return payload.remaining() < BYTES ? ReasonCode.TRUNCATED : ReasonCode.TRAILING_BYTES;
        }
        int p = payload.position();
        return payload.getInt(p) >= 1
                        && payload.getLong(p + 4) >= 1
                        && payload.getInt(p + 12) >= NO_SPLIT_WINDOW
                ? ReasonCode.NONE
                : ReasonCode.MALFORMED_PAYLOAD;
    }

    /**
     * Decodes a payload {@link #check} accepted.
     *
     * @throws IllegalArgumentException naming the reason if it does not have this layout
     */
    public static RegistrationPayload decode(ByteBuffer payload) {
        ReasonCode bad = check(payload);
        if (bad != ReasonCode.NONE) {
            throw new IllegalArgumentException("malformed registration payload: " + bad);
        }
        int p = payload.position();
        return new RegistrationPayload(
                payload.getInt(p), payload.getLong(p + 4), payload.getInt(p + 12));
    }

    /** Commands the reader's mailbox admits from the coordinator at a time. */
    public int windowCommands() {
        return windowCommands;
    }

    /** Payload bytes the reader's mailbox admits from the coordinator at a time. */
    public long windowBytes() {
        return windowBytes;
    }

    /** Splits the reader wants to hold unread at most; {@link #NO_SPLIT_WINDOW} if not counted. */
    public int windowSplits() {
        return windowSplits;
    }
}
