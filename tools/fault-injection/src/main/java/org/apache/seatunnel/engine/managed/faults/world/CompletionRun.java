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

package org.apache.seatunnel.engine.managed.faults.world;

import org.apache.seatunnel.engine.managed.source.reader.LoopStatus;

/**
 * The end of every {@link MiniEngine} run: turns faults off and drives the job to its end in rounds
 * (release what the network holds, drain the coordinator, fire timers, poll every reader until it
 * has no more work, checkpoint), then checks that every row was committed exactly once and the
 * tracker was collected empty. A job that does not finish within the rounds fails the run.
 *
 * <p>Threading: confined to the run's thread; each call is a step of the engine, which restores
 * after any failure before it returns.
 */
final class CompletionRun {
    private static final int MAX_ROUNDS = 500;

    /** Polls of one reader per round; a reader with work left is polled again next round. */
    private static final int MAX_POLLS_PER_ROUND = 256;

    /** Time fired per round: more than any retry delay, so every retry runs. */
    private static final long ROUND_MILLIS = 2000;

    private final MiniEngine w;

    CompletionRun(MiniEngine w) {
        this.w = w;
    }

    void run() {
        w.faults().disable();
        for (int round = 0; round < MAX_ROUNDS; round++) {
            w.releaseAllHeld();
            w.drain();
            w.advanceTime(ROUND_MILLIS);
            w.drain();
            for (int s = 0; s < w.parallelism(); s++) {
                for (int i = 0; i < MAX_POLLS_PER_ROUND; i++) {
                    if (w.stepReader(s) != LoopStatus.BUSY) {
                        break;
                    }
                }
            }
            w.drain();
            if (w.config.checkpointsEnabled()) {
                if (w.checkpoints.inFlight()) {
                    w.abortCheckpoint(true);
                }
                w.fullCheckpoint();
                w.drain();
            }
            if (w.jobFinished()) {
                w.checkExactlyOnce();
                return;
            }
        }
        throw w.fail("the job did not finish");
    }
}
