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
 * The payload codec of every command that carries one 64-bit value: the checkpoint commands {@code
 * CHECKPOINT_BARRIER}, {@code CHECKPOINT_COMPLETE} and {@code CHECKPOINT_ABORTED} (the checkpoint
 * id), whether a host builds them locally or the coordinator sends them. ({@code ASSIGNMENT_ACK}
 * carried one too until it gained the split backlog: {@link AppliedAckPayload}.) Stateless; any
 * thread.
 *
 * <p>Layout, payload version 1 (big-endian, as the envelope header):
 *
 * <pre>{@code
 * offset  size  field
 *      0     8  value   s64, big-endian
 * }</pre>
 */
public final class LongPayload {
    /** The payload length: exactly one long, nothing else. */
    public static final int BYTES = 8;

    private LongPayload() {}

    /** The 8-byte payload holding {@code value}. */
    public static byte[] encode(long value) {
        byte[] b = new byte[BYTES];
        SourceCommandCodec.putLong(b, 0, value);
        return b;
    }

    /**
     * The value of an 8-byte payload.
     *
     * @throws IllegalArgumentException if the payload is not exactly {@link #BYTES} long (the
     *     transport fence refuses such frames, so this is a bug on the sending side)
     */
    public static long decode(SourceCommandEnvelope envelope) {
        return decode(envelope.payload());
    }

    /** As {@link #decode(SourceCommandEnvelope)}, from the payload's current position. */
    public static long decode(ByteBuffer payload) {
        if (payload.remaining() != BYTES) {
            throw new IllegalArgumentException(
                    "a long payload has " + BYTES + " bytes, got " + payload.remaining());
        }
        return payload.getLong(payload.position());
    }

    /** The value of an 8-byte payload, or {@code absent} when the payload is not 8 bytes long. */
    public static long decodeOr(SourceCommandEnvelope envelope, long absent) {
        ByteBuffer p = envelope.payload();
        return p.remaining() == BYTES ? p.getLong(p.position()) : absent;
    }
}
