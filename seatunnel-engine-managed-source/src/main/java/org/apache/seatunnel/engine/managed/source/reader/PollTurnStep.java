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

import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollStatus;

/**
 * One bounded poll turn of a reader attempt and its accounting: the call into the connector under
 * the {@link TurnWatch}, the turn counters, budget and contract reports, and what the turn's status
 * means for the next poll ({@link PollScheduler}), a schema change ({@link SchemaChangeSteps}) or
 * end of input. The common outcome (records flowed, more available) stays on a short path;
 * accounting for measured turns and the rarer outcomes live in their own methods so that the
 * compiled hot path stays small and is not recompiled when a rare branch is first taken.
 *
 * <p>Threading: the loop's driving thread only (whichever thread drives the loop, one at a time).
 * Allocates nothing per turn.
 */
final class PollTurnStep<T> {
    private final ReaderEventLoop<T, ?> loop;
    private final ReaderMailbox mailbox;
    private final ManagedSourceReader<T, ?> reader;
    private final ReaderLoopHost<?> host;
    private final PollTurn<T> turn;
    private final TurnWatch watch;
    private final PollBudget budget;
    private final NanoClock clock;
    private final ReaderLoopMetrics metrics;
    private final ReaderContractReports reports;
    private final PollScheduler polls;
    private final SchemaChangeSteps schema;
    private final OffLoopWindow<?> offLoop;

    PollTurnStep(
            ReaderEventLoop<T, ?> loop,
            ManagedSourceReader<T, ?> reader,
            ReaderLoopHost<?> host,
            PollTurn<T> turn,
            TurnWatch watch,
            PollBudget budget,
            ReaderContractReports reports,
            PollScheduler polls,
            SchemaChangeSteps schema,
            OffLoopWindow<?> offLoop) {
        this.loop = loop;
        this.mailbox = loop.mailbox();
        this.reader = reader;
        this.host = host;
        this.turn = turn;
        this.watch = watch;
        this.budget = budget;
        this.clock = mailbox.clock();
        this.metrics = loop.metrics();
        this.reports = reports;
        this.polls = polls;
        this.schema = schema;
        this.offLoop = offLoop;
    }

    /** Runs one turn into {@code output}. */
    void run(Collector<T> output) {
        boolean watching = offLoop.beforeCall();
        boolean afterQuiet = polls.turnStarting();
        turn.begin(output);
        watch.turnStarted();
        PollStatus status;
        try {
            status = reader.pollNextManaged(turn, turn);
        } catch (Throwable e) {
            watch.turnEnded();
            ConnectorFailures.failConnector(mailbox, e);
            return;
        }
        watch.turnEnded();
        if (watching) {
            offLoop.afterCall();
        }
        if (schema.gate().phase() == SchemaChangePhase.QUIESCING) {
            schema.turnEnded();
        }
        long took = turn.end();
        // One driver at a time (the host's exclusion gives happens-before between drivers), so
        // ordered stores suffice where an atomic add per turn would cost more.
        metrics.pollTurns.lazySet(metrics.pollTurns.get() + 1);
        metrics.records.lazySet(metrics.records.get() + turn.emitted());
        metrics.bytes.lazySet(metrics.bytes.get() + turn.emittedBytes());
        if (took != PollTurn.NOT_STARTED) {
            countMeasuredTurn(took);
        }
        host.onTurnEnded();
        if (turn.emitted() > budget.maxRecords()) {
            reports.recordBudgetOverrun(turn.emitted());
        }
        if (afterQuiet && polls.emittedUnsignalled(turn.emitted())) {
            reports.availabilityNotSignalled();
        }
        if (status == PollStatus.MORE_AVAILABLE || status == null) {
            polls.want();
        } else {
            afterQuietTurn(status, turn.emitted() > 0);
        }
    }

    private void countMeasuredTurn(long took) {
        metrics.pollNanos.lazySet(metrics.pollNanos.get() + took * turn.turnsMeasured());
        if (took > budget.softNanos()) {
            reports.softOverrun(took, clock.nanoTime());
        }
    }

    private void afterQuietTurn(PollStatus status, boolean emitted) {
        polls.quiet();
        watch.quiet();
        if (status == PollStatus.NOTHING_AVAILABLE) {
            polls.arm(reader.isAvailable(), emitted);
        } else if (!schema.gate().phase().allowsPolling()) {
            schema.latchEndOfInput();
        } else {
            loop.enterEndOfInput();
        }
    }
}
