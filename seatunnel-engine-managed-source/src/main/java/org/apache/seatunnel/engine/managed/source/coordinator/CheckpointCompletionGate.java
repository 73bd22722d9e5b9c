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

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * Passes each completed checkpoint to the coordinator loop once, from whichever task of the source
 * on this member hears of it first: the enumerator's own engine callback or a reader's.
 *
 * <p>Why not only the enumerator's callback: the engine stores a completed checkpoint before it
 * tells any task, so every task's notice is proof of the same fact, but Zeta 2.3.8 tells a
 * pipeline's tasks one by one, in the hash order of their locations, and looks each task's member
 * up in a cluster map whose whole value it deserializes per task. With 128 readers (and as many
 * sink tasks) the enumerator's notice came 50 to 900 ms after the checkpoint completed, depending
 * only on where its location fell in that order; the first of the readers' notices comes within the
 * first few. Tracker garbage collection and the connector's {@code notifyCheckpointComplete} wait
 * for this notice, so the earliest one is the one that counts.
 *
 * <p>A notice for a checkpoint at or below the highest one passed is dropped here: the later
 * notices of the same completion are the expected case, not a repeat worth counting. A notice the
 * loop refuses (queue full, closed) gives its id back, so the next notice of that checkpoint tries
 * again.
 *
 * <p>Threading: any thread (the engine's operation threads that deliver the enumerator's and the
 * readers' callbacks, several at once); lock-free, never blocks. The loop's own de-duplication (one
 * business effect per checkpoint and epoch) stays behind it.
 */
public final class CheckpointCompletionGate {
    private final AtomicLong highestPassed = new AtomicLong(Long.MIN_VALUE);
    private final LongFunction<OfferResult> loop;
    private final CoordinatorMetrics metrics;

    /**
     * @param loop offers a {@code CHECKPOINT_COMPLETE} command for the given id to the loop
     * @param metrics where completions first heard from a reader are counted
     */
    public CheckpointCompletionGate(LongFunction<OfferResult> loop, CoordinatorMetrics metrics) {
        this.loop = loop;
        this.metrics = metrics;
    }

    /** The enumerator's own engine callback: checkpoint {@code checkpointId} completed. */
    public boolean fromEnumerator(long checkpointId) {
        return pass(checkpointId);
    }

    /**
     * A reader of this source on this member was told that checkpoint {@code checkpointId}
     * completed.
     */
    public boolean fromReader(long checkpointId) {
        boolean passed = pass(checkpointId);
        if (passed) {
            metrics.increment(CoordinatorMetrics.Counter.COMPLETIONS_FROM_READERS);
        }
        return passed;
    }

    /** The highest checkpoint id passed to the loop, {@link Long#MIN_VALUE} before the first. */
    public long highestPassed() {
        return highestPassed.get();
    }

    private boolean pass(long checkpointId) {
        long before;
        do {
            before = highestPassed.get();
            if (checkpointId <= before) {
                return false;
            }
        } while (!highestPassed.compareAndSet(before, checkpointId));
        if (loop.apply(checkpointId).isEnqueued()) {
            return true;
        }
        // Only if no later id passed meanwhile: that one's completion covers this one's.
        highestPassed.compareAndSet(checkpointId, before);
        return false;
    }
}
