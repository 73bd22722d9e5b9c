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

import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.table.event.SchemaChangeEvent;

/**
 * Threading: owned by the reader event loop; handed to the connector only for the duration of one
 * {@code pollNextManaged} call on the same thread.
 *
 * <p>The budget and the counting collector of one poll turn, reused turn after turn so a turn
 * allocates nothing.
 */
final class PollTurn<T> implements PollContext, Collector<T> {
    static final int CHECK_EVERY = 8;

    private final PollBudget budget;
    private final NanoClock clock;
    private final ReaderMailbox mailbox;
    private final ToLongFunction<T> sizer;
    private Collector<T> output;

    private int emitted;
    private long emittedBytes;
    private long deadline;
    private int checks;
    private boolean yieldLatched;
    private long sampledSize;

    PollTurn(PollBudget budget, NanoClock clock, ReaderMailbox mailbox, ToLongFunction<T> sizer) {
        this.budget = budget;
        this.clock = clock;
        this.mailbox = mailbox;
        this.sizer = sizer;
    }

    void begin(Collector<T> out, long startNanos) {
        this.output = out;
        this.emitted = 0;
        this.emittedBytes = 0;
        this.deadline = startNanos + budget.softNanos();
        this.checks = 0;
        this.yieldLatched = false;
    }

    int emitted() {
        return emitted;
    }

    long emittedBytes() {
        return emittedBytes;
    }

    @Override
    public int remainingRecords() {
        return Math.max(0, budget.maxRecords() - emitted);
    }

    @Override
    public long remainingBytes() {
        return Math.max(0, budget.maxBytes() - emittedBytes);
    }

    @Override
    public long deadlineNanos() {
        return deadline;
    }

    @Override
    public long nanoTime() {
        return clock.nanoTime();
    }

    /**
     * Record and byte budgets are exact (plain counters). The clock and the mailbox (a waiting
     * control or terminal signal) are consulted on the first call and then every {@value
     * #CHECK_EVERY} calls: a reader asks once per record, and a clock read plus three volatile
     * loads per record would cost more than a cheap record (see LoopOverheadBenchmark). A turn can
     * therefore run at most {@code CHECK_EVERY - 1} records past its soft deadline or past the
     * arrival of a control; a reader that waits in a loop keeps calling, so it still sees either
     * within a few calls.
     */
    @Override
    public boolean shouldYield() {
        if (emitted >= budget.maxRecords() || emittedBytes >= budget.maxBytes()) {
            return true;
        }
        if (!yieldLatched && (checks++ & (CHECK_EVERY - 1)) == 0) {
            yieldLatched =
                    mailbox.hasPendingControlOrTerminal() || clock.nanoTime() - deadline >= 0;
        }
        return yieldLatched;
    }

    /**
     * Counts the record and adds its estimated size: the size of every {@value #CHECK_EVERY}-th
     * record stands for the ones after it, because sizing a row walks all its fields and records of
     * one split are alike.
     */
    @Override
    public void collect(T record) {
        if ((emitted & (CHECK_EVERY - 1)) == 0) {
            sampledSize = sizer.applyAsLong(record);
        }
        emitted++;
        emittedBytes += sampledSize;
        output.collect(record);
    }

    @Override
    public Object getCheckpointLock() {
        return output.getCheckpointLock();
    }

    @Override
    public void markSchemaChangeBeforeCheckpoint() {
        output.markSchemaChangeBeforeCheckpoint();
    }

    @Override
    public void collect(SchemaChangeEvent event) {
        output.collect(event);
    }

    @Override
    public void markSchemaChangeAfterCheckpoint() {
        output.markSchemaChangeAfterCheckpoint();
    }

    @Override
    public boolean isEmptyThisPollNext() {
        return output.isEmptyThisPollNext();
    }

    @Override
    public void resetEmptyThisPollNext() {
        output.resetEmptyThisPollNext();
    }
}
