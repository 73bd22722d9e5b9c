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

package org.apache.seatunnel.engine.managed.source.zeta;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;
import org.apache.seatunnel.api.source.managed.serialization.FrameRefusal;
import org.apache.seatunnel.engine.managed.source.lane.Lane;

/**
 * Versioned binary form of {@link ManagedEnumeratorState}.
 *
 * <p>Threading: stateless, any thread.
 *
 * <pre>{@code
 * version 1, big-endian:
 *   0  magic "MENS"             4 bytes
 *   4  major                    u16 (1)
 *   6  minor                    u16 (0)
 *   8  lane                     u8  (Lane wire code)
 *   9  digestLength             u8
 *  10  digest                   ASCII
 *   .  checkpointId             i64
 *   .  blobLength               u32
 *   .  blob
 *   .  crc32c of all above      u32
 * }</pre>
 */
public final class ManagedEnumeratorStateSerializer implements Serializer<ManagedEnumeratorState> {
    private static final long serialVersionUID = 1L;

    // The job whose restore a refusal fails (see RestoreRefusals); 0 when unknown.
    private final long jobId;

    public ManagedEnumeratorStateSerializer() {
        this(0);
    }

    ManagedEnumeratorStateSerializer(long jobId) {
        this.jobId = jobId;
    }

    static final int MAGIC = 0x4D454E53;
    static final int MAJOR = 1;
    static final int MAX_BLOB = 256 << 20;

    // Checks in this order: magic (Lane B), major, fields, blob bounds, trailing bytes, checksum.
    private static final FrameFormat FORMAT =
            FrameFormat.named("managed enumerator state")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.MAJOR_MINOR, MAJOR, MAJOR)
                    .checksum(FrameChecksum.CRC32C)
                    .build();

    @Override
    public byte[] serialize(ManagedEnumeratorState s) {
        byte[] digest = s.capabilityDigest().getBytes(StandardCharsets.US_ASCII);
        byte[] blob = s.coordinatorBlob();
        return FORMAT.writerOfSize(MAJOR, 0, 8 + 1 + 1 + digest.length + 8 + 4 + blob.length + 4)
                .putU8(s.lane().wireCode())
                .putU8(digest.length)
                .putBytes(digest)
                .putI64(s.checkpointId())
                .putBlob(blob)
                .finish();
    }

    static boolean looksManaged(byte[] bytes) {
        return FORMAT.startsWithMagic(bytes);
    }

    @Override
    public ManagedEnumeratorState deserialize(byte[] serialized) throws IOException {
        if (!looksManaged(serialized)) {
            throw RestoreRefusals.refuse(
                    jobId,
                    new IllegalStateException(
                            "Refusing to restore: the enumerator checkpoint was taken on Lane B but this"
                                    + " deployment was planned on Lane A. Running tasks never switch lane;"
                                    + " restore with Lane A disabled for this job, or start fresh."));
        }
        FrameReader in = FORMAT.open(serialized);
        int code = in.u8();
        Lane lane = Lane.fromWireCode(code);
        if (lane == null) {
            throw in.refuse(FrameRefusal.BAD_FIELD, "unknown lane code " + code);
        }
        byte[] digest = in.bytes(in.u8());
        long checkpointId = in.i64();
        byte[] blob = in.blob(MAX_BLOB, "coordinator blob");
        in.finish();
        return new ManagedEnumeratorState(
                lane, new String(digest, StandardCharsets.US_ASCII), checkpointId, blob);
    }
}
