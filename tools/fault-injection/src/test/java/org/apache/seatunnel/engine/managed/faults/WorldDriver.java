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

package org.apache.seatunnel.engine.managed.faults;

import java.util.Random;
import org.apache.seatunnel.engine.managed.faults.world.MiniEngine;

/** Random steps over a {@link MiniEngine}, shared by the fault-point and model tests. */
final class WorldDriver {
    private WorldDriver() {}

    /**
     * One random step: reader polls, sender tasks, coordinator drains, held messages, duplicates,
     * time, the checkpoint protocol (trigger, barriers, complete or abort), reader and coordinator
     * failover. {@code failingCheckpoints}: checkpoints are aborted instead of completed (sustained
     * checkpoint failure). {@code failovers}: whether the schedule itself fails tasks.
     */
    static void step(MiniEngine w, Random rnd, boolean failingCheckpoints, boolean failovers) {
        step(w, rnd, failingCheckpoints, failovers, false);
    }

    /**
     * As {@link #step(MiniEngine, Random, boolean, boolean)}; {@code rescales}: the schedule also
     * restores with another parallelism (1 to 4 readers, more or fewer than before).
     */
    static void step(
            MiniEngine w,
            Random rnd,
            boolean failingCheckpoints,
            boolean failovers,
            boolean rescales) {
        int p = w.parallelism();
        int r = rnd.nextInt(100);
        if (r < 26) {
            w.stepReader(rnd.nextInt(p));
        } else if (r < 34) {
            w.stepNetwork();
        } else if (r < 38) {
            w.drain();
        } else if (r < 44) {
            w.stepCoordinator();
        } else if (r < 50) {
            w.releaseHeld();
        } else if (r < 53) {
            w.redeliverOld();
        } else if (r < 58) {
            w.advanceTime(1 + rnd.nextInt(300));
        } else if (r < 64) {
            w.triggerCheckpoint();
        } else if (r < 76) {
            w.deliverBarrier(rnd.nextInt(p));
        } else if (r < 84) {
            if (failingCheckpoints) {
                w.abortCheckpoint(rnd.nextBoolean());
            } else {
                w.completeCheckpoint();
            }
        } else if (r < 87) {
            w.abortCheckpoint(rnd.nextInt(4) != 0);
        } else if (r < 89 && failovers) {
            w.failReader(rnd.nextInt(p));
        } else if (r < 90 && failovers) {
            w.failCoordinator();
        } else if (r < 92 && rescales) {
            if (rnd.nextBoolean()) {
                // As an operator rescales: a savepoint first, the restore starts from it.
                w.abortCheckpoint(true);
                w.fullCheckpoint();
            }
            w.rescale(1 + rnd.nextInt(4));
        } else {
            w.drain();
        }
    }

    /** {@code steps} random steps, then the fault-free run to the job's end and its checks. */
    static MiniEngine run(MiniEngine w, Random rnd, int steps, boolean failovers) {
        for (int i = 0; i < steps; i++) {
            step(w, rnd, false, failovers);
        }
        return w.runToCompletion();
    }
}
