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

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.table.event.SchemaChangeEvent;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * The budget and the counting collector of one poll turn, reused turn after turn so a turn
 * allocates nothing. A connector asks {@link #shouldYield()} once per record, so the per-record
 * path is one increment and one compare on each side (as cheap as a bare poll loop's own record
 * counter); everything else happens at marks:
 *
 * <p>Threading: owned by the reader event loop; handed to the connector only for the duration of
 * one {@code pollNextManaged} call on the same thread.
 *
 * <ul>
 *   <li><b>records and bytes</b> — the collector samples a record's size every {@value #SIZE_EVERY}
 *       records and, assuming the records in between are alike, schedules its next mark no later
 *       than the record that would reach the record or byte budget, so both budgets hold exactly
 *       for uniform records;
 *   <li><b>controls</b> — the mailbox (a waiting control or terminal signal) is looked at on the
 *       first call and then every {@value #CONTROL_EVERY} calls, or every call when records are
 *       slow. When records are so cheap that {@value #CONTROL_EVERY} calls take less than 1/{@value
 *       #CONTROL_SHARE} of the soft budget (20 µs at the default 5 ms), the stride is learned from
 *       measured turns so that a look falls about that often instead. A control then waits up to
 *       about that long (or to the next turn's first call), and a turn of cheap records stops
 *       re-reading the mailbox's shared lines 8 times;
 *   <li><b>soft time</b> — the clock (a clock read costs about as much as a small record) is read
 *       every {@code clockStride} calls after the first, a stride learned from measured turns so
 *       that a read falls about every eighth of the soft budget. When even the whole record budget
 *       takes far less than that, most turns read no clock at all: the record budget ends them
 *       first. One turn in {@value #MEASURE_EVERY} is still measured so the loop notices when
 *       records become slow.
 *   <li><b>output room</b> — the {@link OutputGate} is asked before the first record and at the
 *       mark where its last answer runs out; no room ends the turn like a pending control, so the
 *       engine's collector is never entered when it would block with the checkpoint lock held.
 * </ul>
 */
final class PollTurn<T> implements PollContext, Collector<T> {
    static final int CONTROL_EVERY = 8;
    // Controls are looked for at least every CONTROL_EVERY calls or every 1/CONTROL_SHARE of the
    // soft budget, whichever comes later.
    static final int CONTROL_SHARE = 256;
    static final int SIZE_EVERY = 8;
    static final int MEASURE_EVERY = 16;
    static final long NOT_STARTED = Long.MIN_VALUE;
    private static final int MAX_CLOCK_STRIDE = 1 << 20;
    // Largest record size whose product with a window (< SIZE_EVERY) cannot overflow.
    private static final long MAX_SAFE_SIZE = Long.MAX_VALUE / SIZE_EVERY;

    private final PollBudget budget;
    private final NanoClock clock;
    private final ReaderMailbox mailbox;
    private final ToLongFunction<T> sizer;
    private final AtomicLong unsizedRecords;
    private final SchemaChangeGate schema;
    private final AtomicLong schemaEvents;
    private Collector<T> output;
    private OutputGate gate = OutputGate.UNBOUNDED;
    // Records emitted in earlier turns, and the emitted count at which this turn asks the gate
    // again (Integer.MAX_VALUE for an unbounded output, so the record path never asks).
    private long emittedBefore;
    private int creditEnd;

    // Per-record state: a turn's counters and the marks that divert into the slow paths.
    private int calls;
    private int nextCheck;
    private int emitted;
    private int nextMark;
    private boolean yieldLatched;

    // Byte estimate: the bytes of records up to markedAt (inclusive), and the last sampled size,
    // which stands for every record after markedAt.
    private long markedBytes;
    private int markedAt;
    private long sampledSize;

    // Time: a turn is measured from startNanos (NOT_STARTED if it read no clock yet).
    private long startNanos;
    private long deadline;
    private int callsAtStart;
    private int nextClockCheck;
    private int clockStride = CONTROL_EVERY;
    private int controlStride = CONTROL_EVERY;
    // Turns begun since the last measured one, and how many the last measurement stood for.
    private int turnsSinceMeasured;
    private int turnsMeasured;

    PollTurn(
            PollBudget budget,
            NanoClock clock,
            ReaderMailbox mailbox,
            ToLongFunction<T> sizer,
            AtomicLong unsizedRecords) {
        this(
                budget,
                clock,
                mailbox,
                sizer,
                new SchemaChangeGate(
                        ReaderIdentity.unnamed(mailbox.jobId(), mailbox.subtask()),
                        clock,
                        new ReaderLoopMetrics(),
                        Long.MAX_VALUE),
                new ReaderLoopMetrics(),
                unsizedRecords);
    }

    PollTurn(
            PollBudget budget,
            NanoClock clock,
            ReaderMailbox mailbox,
            ToLongFunction<T> sizer,
            SchemaChangeGate schema,
            ReaderLoopMetrics metrics,
            AtomicLong unsizedRecords) {
        this.budget = budget;
        this.clock = clock;
        this.mailbox = mailbox;
        this.sizer = sizer;
        this.unsizedRecords = unsizedRecords;
        this.schema = schema;
        this.schemaEvents = metrics.schemaChangeEvents;
    }

    /** The output's gate; {@link OutputGate#UNBOUNDED} until a host sets one. Driving thread. */
    void setOutputGate(OutputGate gate) {
        this.gate = gate == null ? OutputGate.UNBOUNDED : gate;
    }

    /**
     * Starts a turn. It reads the clock only if records are slow enough for in-turn clock checks or
     * it is this turn's turn to be measured; otherwise the first clock check (if any) starts its
     * clock.
     */
    void begin(Collector<T> out) {
        this.output = out;
        this.calls = 0;
        this.nextCheck = 1;
        this.emitted = 0;
        this.nextMark = 1;
        this.yieldLatched = false;
        this.markedBytes = 0;
        this.markedAt = 0;
        this.sampledSize = 0;
        this.nextClockCheck = 1 + clockStride;
        if (++turnsSinceMeasured >= MEASURE_EVERY || clockStride <= budget.maxRecords()) {
            startClock(0);
        } else {
            this.startNanos = NOT_STARTED;
            this.deadline = Long.MAX_VALUE;
        }
        int credit = gate.credit(emittedBefore);
        this.creditEnd = credit;
        if (credit <= 0) {
            // No room downstream: the first shouldYield() ends the turn.
            latchYield();
            nextMark = Integer.MAX_VALUE;
        }
    }

    private long startClock(int atCall) {
        long now = clock.nanoTime();
        startNanos = now;
        deadline = now + budget.softNanos();
        callsAtStart = atCall;
        return now;
    }

    /**
     * Ends the turn. Returns its measured duration, or {@link #NOT_STARTED} if it read no clock,
     * and learns the clock stride for the next turns from it.
     */
    long end() {
        emittedBefore += emitted;
        if (startNanos == NOT_STARTED) {
            return NOT_STARTED;
        }
        return learn(Math.max(0, clock.nanoTime() - startNanos));
    }

    private long learn(long took) {
        turnsMeasured = turnsSinceMeasured;
        turnsSinceMeasured = 0;
        long perCall = took / Math.max(1, Math.max(calls - callsAtStart, emitted));
        long stride = (budget.softNanos() / 8) / Math.max(1, perCall);
        clockStride = (int) Math.max(1, Math.min(MAX_CLOCK_STRIDE, stride));
        long control = (budget.softNanos() / CONTROL_SHARE) / Math.max(1, perCall);
        controlStride = (int) Math.max(CONTROL_EVERY, Math.min(MAX_CLOCK_STRIDE, control));
        return took;
    }

    /**
     * How many turns the last measured one stands for: itself and the unmeasured turns before it,
     * whose records were cheap enough that the record budget, not the clock, ended them.
     */
    int turnsMeasured() {
        return turnsMeasured;
    }

    int emitted() {
        return emitted;
    }

    long emittedBytes() {
        return markedBytes + (emitted - markedAt) * sampledSize;
    }

    @Override
    public int remainingRecords() {
        return Math.max(0, budget.maxRecords() - emitted);
    }

    @Override
    public long remainingBytes() {
        return Math.max(0, budget.maxBytes() - emittedBytes());
    }

    /** A turn that has not read its clock yet starts it here: the connector wants a deadline. */
    @Override
    public long deadlineNanos() {
        if (startNanos == NOT_STARTED) {
            startClock(calls);
        }
        return deadline;
    }

    @Override
    public long nanoTime() {
        if (startNanos == NOT_STARTED) {
            return startClock(calls);
        }
        return clock.nanoTime();
    }

    @Override
    public boolean shouldYield() {
        return ++calls >= nextCheck && check();
    }

    private boolean check() {
        if (yieldLatched) {
            return true;
        }
        if (mailbox.hasPendingControlOrTerminal()) {
            return latchYield();
        }
        if (calls >= nextClockCheck) {
            nextClockCheck = calls + clockStride;
            if (startNanos == NOT_STARTED) {
                startClock(calls);
            } else if (clock.nanoTime() - deadline >= 0) {
                return latchYield();
            }
        }
        nextCheck = Math.min(calls + controlStride, nextClockCheck);
        return false;
    }

    private boolean latchYield() {
        yieldLatched = true;
        nextCheck = 0;
        return true;
    }

    @Override
    public void collect(T record) {
        // Marked before the record is handed on, so nothing but 'this' has to survive the call
        // into the engine's collector, which the compiler cannot see through.
        if (++emitted >= nextMark) {
            mark(record);
        }
        output.collect(record);
    }

    /**
     * Samples the record's size. A SeaTunnelRow computes its size once and caches it, and the
     * engine's collector asks for it right after, so sampling here moves that one computation
     * rather than adding one.
     */
    private void mark(T record) {
        long size = sizeOf(record);
        markedBytes += (emitted - 1 - markedAt) * sampledSize + size;
        markedAt = emitted;
        sampledSize = size;
        int maxRecords = budget.maxRecords();
        long bytesLeft = budget.maxBytes() - markedBytes;
        if (emitted >= maxRecords || bytesLeft <= 0) {
            latchYield();
            nextMark = Integer.MAX_VALUE;
            return;
        }
        if (emitted >= creditEnd && !refreshCredit()) {
            latchYield();
            nextMark = Integer.MAX_VALUE;
            return;
        }
        int mark = Math.min(Math.min(emitted + SIZE_EVERY, maxRecords), creditEnd);
        int window = mark - emitted;
        // The byte budget falls inside the next window iff bytesLeft <= size * (window - 1). A
        // multiply decides that; the divide that finds the exact record (a 64-bit divide costs
        // tens of cycles, as much as the loop's whole per-record work) runs only when it does.
        if (size > 0 && (size > MAX_SAFE_SIZE || bytesLeft <= size * (window - 1))) {
            long toBudget = (bytesLeft + size - 1) / size;
            if (toBudget < window) {
                mark = emitted + (int) toBudget;
            }
        }
        nextMark = mark;
    }

    /** Asks the gate again once its last answer ran out; false if the output has no room. */
    private boolean refreshCredit() {
        int credit = gate.credit(emittedBefore + emitted);
        if (credit <= 0) {
            return false;
        }
        creditEnd = (int) Math.min(Integer.MAX_VALUE, (long) emitted + credit);
        return true;
    }

    /**
     * A record the sizer rejects counts 0 bytes and stands for the records up to the next sample.
     * The byte budget is an estimate; sizing it must not fail a turn whose records the engine's own
     * collector accepts (and if the collector rejects the record too, it fails the task as it would
     * on the stock path).
     */
    private long sizeOf(T record) {
        try {
            return Math.max(0, sizer.applyAsLong(record));
        } catch (RuntimeException e) {
            unsizedRecords.incrementAndGet();
            return 0;
        }
    }

    @Override
    public Object getCheckpointLock() {
        return output.getCheckpointLock();
    }

    /**
     * The connector marks a schema change: the gate enters QUIESCING (or refuses an overlapping
     * change, which fails the attempt), the turn yields, and the mark reaches the engine's
     * collector, whose own mechanism (Zeta 2.3.8) triggers the schema-change checkpoint when the
     * host returns. The cut falls at the end of this turn.
     */
    @Override
    public void markSchemaChangeBeforeCheckpoint() {
        requestSchemaChange(SchemaChangeMark.BEFORE_CHECKPOINT);
        output.markSchemaChangeBeforeCheckpoint();
    }

    @Override
    public void collect(SchemaChangeEvent event) {
        schemaEvents.incrementAndGet();
        output.collect(event);
    }

    @Override
    public void markSchemaChangeAfterCheckpoint() {
        requestSchemaChange(SchemaChangeMark.AFTER_CHECKPOINT);
        output.markSchemaChangeAfterCheckpoint();
    }

    private void requestSchemaChange(SchemaChangeMark mark) {
        try {
            schema.request(mark);
        } catch (SchemaChangeRefusedException e) {
            // Set before the connector sees the exception, so that whatever it does with it the
            // attempt fails for this reason, not as a generic connector failure.
            mailbox.terminate(TerminalSignal.fatal(ReasonCode.SCHEMA_CHANGE_FAILED, e));
            throw e;
        }
        latchYield();
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
