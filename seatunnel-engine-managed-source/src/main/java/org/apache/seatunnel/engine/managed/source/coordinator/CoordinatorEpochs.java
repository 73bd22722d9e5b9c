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

import java.util.HashMap;
import java.util.Map;

/**
 * How a coordinator picks its epoch: one past the highest epoch this source has run in, and past
 * the epoch of the checkpoint it restores. Epochs therefore strictly increase across every restore
 * and restart of a source, also two restores from one checkpoint and restarts without any
 * checkpoint, so stale commands of an earlier incarnation are fenced (invariant 7) and a restored
 * tracker's entries are always of an earlier epoch than the one reconciling them.
 *
 * <p>The high-water mark lives in an engine binding's {@link Store} (Zeta: a cluster map of the
 * member service, which survives a member failure through its backups); where a whole cluster
 * restarted and the mark is gone, the restored checkpoint's epoch is the floor, and no attempt of
 * the lost incarnation is left to send stale commands.
 *
 * <p>Threading: stateless; the store is thread-safe.
 */
public final class CoordinatorEpochs {
    /** The highest epoch a command id can carry ({@code epoch << 40}). */
    public static final long MAX_EPOCH = (1L << 23) - 1;

    /** Where the high-water mark of each source is kept. */
    public interface Store {
        /**
         * Atomically raises the mark of {@code (jobId, sourceRuntimeId)} to one past the larger of
         * itself and {@code floor}, and returns the new mark.
         */
        long advance(long jobId, long sourceRuntimeId, long floor);
    }

    private CoordinatorEpochs() {}

    /**
     * The epoch of a new coordinator of {@code (jobId, sourceRuntimeId)}.
     *
     * @param checkpointedEpoch the epoch that took the checkpoint it restores, 0 for a fresh start
     * @throws IllegalStateException once the epoch space is exhausted
     */
    public static long next(Store store, long jobId, long sourceRuntimeId, long checkpointedEpoch) {
        long e = store.advance(jobId, sourceRuntimeId, Math.max(0, checkpointedEpoch));
        if (e <= checkpointedEpoch || e < 1) {
            throw new IllegalStateException(
                    "epoch store answered "
                            + e
                            + " for a checkpoint of epoch "
                            + checkpointedEpoch);
        }
        if (e > MAX_EPOCH) {
            throw new IllegalStateException(
                    "the coordinator of source runtime "
                            + sourceRuntimeId
                            + " ran out of epochs ("
                            + MAX_EPOCH
                            + " restarts)");
        }
        return e;
    }

    /** A store in this JVM's memory (tests, the model world). */
    public static Store inMemory() {
        return new InMemory();
    }

    private static final class InMemory implements Store {
        private final Map<String, Long> marks = new HashMap<>();

        @Override
        public synchronized long advance(long jobId, long sourceRuntimeId, long floor) {
            String key = jobId + "/" + sourceRuntimeId;
            long next = Math.max(marks.getOrDefault(key, 0L), floor) + 1;
            marks.put(key, next);
            return next;
        }
    }
}
