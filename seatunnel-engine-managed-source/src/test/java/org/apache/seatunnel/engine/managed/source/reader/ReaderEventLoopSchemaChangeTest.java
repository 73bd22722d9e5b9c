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

package org.apache.seatunnel.engine.managed.source.reader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.junit.jupiter.api.Test;

/**
 * The schema-change sub-state driven by the real reader loop: a connector marks a change through
 * its turn's collector, the turn yields, the host is asked for the checkpoint, the next barrier is
 * bound, and no poll turn runs until that checkpoint completed; the failures STIP-31 makes fatal
 * end the attempt with {@code SCHEMA_CHANGE_FAILED}.
 */
class ReaderEventLoopSchemaChangeTest {

    /**
     * A reader whose first turn emits "a", "b", marks a change before checkpoint and then keeps
     * emitting until told to yield; later turns emit one "x" each.
     */
    private static LoopHarness marking(PollStatus firstTurnStatus) throws Exception {
        LoopHarness h = new LoopHarness();
        int[] turns = {0};
        h.reader.onPoll =
                (out, ctx) -> {
                    if (turns[0]++ > 0) {
                        out.collect("x");
                        return PollStatus.MORE_AVAILABLE;
                    }
                    out.collect("a");
                    out.collect("b");
                    out.markSchemaChangeBeforeCheckpoint();
                    while (!ctx.shouldYield()) {
                        out.collect("late");
                    }
                    return firstTurnStatus;
                };
        h.loop.start(0);
        return h;
    }

    private static long polls(LoopHarness h) {
        return h.reader.trace.stream().filter("poll"::equals).count();
    }

    @Test
    void noTurnRunsFromTheMarkUntilTheBoundCheckpointCompleted() throws Exception {
        LoopHarness h = marking(PollStatus.MORE_AVAILABLE);
        h.loop.runOnce();
        assertEquals(Arrays.asList("a", "b"), h.emitted, "the mark makes the turn yield");
        assertEquals(SchemaChangePhase.TRIGGER_REQUESTED, h.loop.schemaChange().phase());
        assertEquals(Collections.singletonList("BEFORE_CHECKPOINT@1"), h.schemaRequests);
        for (int i = 0; i < 5; i++) {
            h.loop.runOnce();
        }
        assertEquals(1, polls(h), "no turn while the change waits for its checkpoint");

        h.local.barrier(1);
        h.loop.runOnce();
        assertEquals(SchemaChangePhase.WAITING_END, h.loop.schemaChange().phase());
        assertEquals(1, h.loop.schemaChange().boundCheckpoint());
        h.local.barrier(2);
        h.local.checkpointComplete(0);
        h.loop.runOnce();
        assertEquals(1, polls(h), "neither a later barrier nor a stale completion resumes");
        assertEquals(1, h.loop.metrics().schemaChangeIgnoredCallbacks());

        h.local.checkpointComplete(1);
        h.loop.runOnce();
        assertEquals(SchemaChangePhase.IDLE, h.loop.schemaChange().phase());
        assertEquals(2, polls(h), "the bound completion resumes polling in the same iteration");
        assertEquals(Arrays.asList("a", "b", "x"), h.emitted);
        assertEquals(
                Arrays.asList("poll", "snapshot:1[]", "snapshot:2[]", "complete:1", "poll"),
                h.traceWithoutOpen());
        assertEquals(1, h.loop.metrics().schemaChangesCompleted());
    }

    @Test
    void endOfInputDuringAChangeIsEnteredWhenItCompletes() throws Exception {
        LoopHarness h = marking(PollStatus.END_OF_INPUT);
        h.loop.runOnce();
        assertEquals(LoopStatus.IDLE, h.loop.runOnce(), "no turn, nothing to do");
        assertEquals(ReaderLifecycle.RUNNING, h.loop.lifecycle(), "latched, not entered");
        assertEquals(0, h.endOfInput);
        h.local.barrier(3);
        h.local.checkpointComplete(3);
        assertEquals(LoopStatus.FINISHED, h.loop.runOnce());
        assertEquals(ReaderLifecycle.DRAINING, h.loop.lifecycle());
        assertEquals(1, h.endOfInput);
        assertEquals(1, polls(h), "no turn after end of input");
    }

    @Test
    void anOverlappingMarkFailsTheAttempt() throws Exception {
        LoopHarness h = new LoopHarness();
        h.reader.onPoll =
                (out, ctx) -> {
                    out.markSchemaChangeBeforeCheckpoint();
                    out.markSchemaChangeAfterCheckpoint();
                    return PollStatus.MORE_AVAILABLE;
                };
        h.loop.start(0);
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertFailed(h, "overlapping schema change: AFTER_CHECKPOINT marked while QUIESCING");
    }

    @Test
    void anAbortOfTheBoundCheckpointFailsTheAttempt() throws Exception {
        LoopHarness h = marking(PollStatus.MORE_AVAILABLE);
        h.loop.runOnce();
        h.local.barrier(4);
        h.local.checkpointAborted(4);
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertFailed(h, "the bound schema-change checkpoint 4 was aborted");
    }

    @Test
    void aChangeOutlivingTheTimeoutFailsTheAttempt() throws Exception {
        LoopHarness h = marking(PollStatus.MORE_AVAILABLE);
        h.loop.setSchemaChangeTimeoutNanos(TimeUnit.SECONDS.toNanos(2));
        h.loop.runOnce();
        h.clock.advanceMillis(1_000);
        assertEquals(LoopStatus.IDLE, h.loop.runOnce());
        h.clock.advanceMillis(1_001);
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertFailed(h, "did not complete within reader.schema-change-timeout (2000 ms)");
    }

    @Test
    void aHostThatCannotTriggerFailsTheAttempt() throws Exception {
        LoopHarness h = marking(PollStatus.MORE_AVAILABLE);
        h.schemaTriggerFailure = new IllegalStateException("master unreachable");
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertFailed(h, "the schema-change checkpoint could not be triggered");
    }

    @Test
    void aCancelFencesTheChange() throws Exception {
        LoopHarness h = marking(PollStatus.MORE_AVAILABLE);
        h.loop.runOnce();
        h.mailbox.terminate(TerminalSignal.cancel());
        assertEquals(LoopStatus.TERMINATED, h.loop.runOnce());
        assertEquals(SchemaChangePhase.FENCED, h.loop.schemaChange().phase());
        assertEquals(ReaderLifecycle.CANCELLING, h.loop.lifecycle());
    }

    private static void assertFailed(LoopHarness h, String reason) {
        TerminalSignal t = h.loop.terminalSignal();
        assertEquals(TerminalSignal.Kind.FATAL, t.kind());
        assertEquals(ReasonCode.SCHEMA_CHANGE_FAILED, t.reason());
        assertTrue(t.cause().getMessage().contains(reason), t.cause().getMessage());
        assertEquals(SchemaChangePhase.FENCED, h.loop.schemaChange().phase());
        assertEquals(ReaderLifecycle.FAILED, h.loop.lifecycle());
    }
}
