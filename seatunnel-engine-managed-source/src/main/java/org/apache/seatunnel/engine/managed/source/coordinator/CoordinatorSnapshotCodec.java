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

package org.apache.seatunnel.engine.managed.source.coordinator;

import org.apache.seatunnel.api.source.managed.serialization.FrameChecksum;
import org.apache.seatunnel.api.source.managed.serialization.FrameException;
import org.apache.seatunnel.api.source.managed.serialization.FrameFormat;
import org.apache.seatunnel.api.source.managed.serialization.FrameReader;

/**
 * The one blob a coordinator snapshot produces: enumerator state and tracker state taken in the
 * same cut, so a restore can never pair an enumerator with a tracker of another checkpoint.
 * Stateless; any thread.
 *
 * <p>Version 2, big-endian (version 1 lacks the parallelism field and is still read):
 *
 * <pre>{@code
 * offset  size  field
 *      0     4  magic 0x53544353 ("STCS")
 *      4     2  version = 2
 *      6     8  checkpoint id
 *     14     8  coordinator epoch that took it
 *     22     4  reader parallelism when it was taken (v2 only)
 *     26     4  E = enumerator state length, E bytes (connector's state serializer)
 *            4  T = tracker state length, T bytes ({@link AssignmentTrackerCodec})
 *      end-4  4  CRC-32C of every preceding byte
 * }</pre>
 *
 * <p>Checks in this order: length, magic, version, CRC, fields, trailing bytes.
 *
 * <p>The parallelism tells a restored coordinator which reader subtasks will hand state back, so it
 * can hold assignment and no-more-splits until every one of them has (rescale included).
 */
public final class CoordinatorSnapshotCodec {
    public static final int MAGIC = 0x53544353;
    public static final short VERSION = 2;
    static final short VERSION_1 = 1;

    /** Decoded parallelism of a version 1 blob, which did not record it. */
    public static final int UNKNOWN_PARALLELISM = -1;

    private static final int FIXED_V1 = 4 + 2 + 8 + 8 + 4 + 4 + 4;
    private static final int FIXED = FIXED_V1 + 4;

    private static final FrameFormat FORMAT =
            FrameFormat.named("coordinator state")
                    .magic(MAGIC)
                    .version(FrameFormat.VersionField.U16, VERSION_1, VERSION)
                    .checksum(FrameChecksum.CRC32C)
                    .minLength(FIXED_V1)
                    .build();

    private CoordinatorSnapshotCodec() {}

    public static byte[] encode(
            long checkpointId,
            long epoch,
            int parallelism,
            byte[] enumeratorState,
            byte[] trackerState) {
        return FORMAT.writerOfSize(VERSION, 0, FIXED + enumeratorState.length + trackerState.length)
                .putI64(checkpointId)
                .putI64(epoch)
                .putI32(parallelism)
                .putBlob(enumeratorState)
                .putBlob(trackerState)
                .finish();
    }

    public static Decoded decode(byte[] bytes) throws StateFormatException {
        try {
            FrameReader in = FORMAT.open(bytes);
            in.verifyChecksum();
            long checkpointId = in.i64();
            long epoch = in.i64();
            int parallelism = in.version() == VERSION_1 ? UNKNOWN_PARALLELISM : in.i32();
            byte[] enumerator = in.blob(bytes.length, "enumerator state");
            byte[] tracker = in.blob(bytes.length, "tracker state");
            in.finish();
            return new Decoded(checkpointId, epoch, parallelism, enumerator, tracker);
        } catch (FrameException e) {
            throw new StateFormatException(e.getMessage());
        }
    }

    /** A decoded blob. Immutable (arrays are private copies). */
    public static final class Decoded {
        private final long checkpointId;
        private final long epoch;
        private final int parallelism;
        private final byte[] enumeratorState;
        private final byte[] trackerState;

        Decoded(
                long checkpointId,
                long epoch,
                int parallelism,
                byte[] enumeratorState,
                byte[] trackerState) {
            this.checkpointId = checkpointId;
            this.epoch = epoch;
            this.parallelism = parallelism;
            this.enumeratorState = enumeratorState;
            this.trackerState = trackerState;
        }

        public long checkpointId() {
            return checkpointId;
        }

        public long epoch() {
            return epoch;
        }

        /** Reader parallelism when taken, or {@link #UNKNOWN_PARALLELISM} for version 1. */
        public int parallelism() {
            return parallelism;
        }

        public byte[] enumeratorState() {
            return enumeratorState.clone();
        }

        public byte[] trackerState() {
            return trackerState.clone();
        }
    }
}
