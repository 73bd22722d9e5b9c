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

import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;

/**
 * A reader attempt's answers to a poll turn its {@link TurnWatch} found overrunning: past the hard
 * budget the reader is woken once; past the cancellation timeout the attempt is failed with {@code
 * POLL_CANCELLATION_TIMEOUT} and the host's hook (which interrupts the task thread) runs.
 *
 * <p>Threading: runs on the watchdog's checking thread, one check at a time; the hook is set by the
 * host before the attempt starts and read here (volatile).
 */
final class TurnOverruns implements TurnWatch.Overrun {
    private final ReaderMailbox mailbox;
    private final ManagedSourceReader<?, ?> reader;
    private final ReaderLoopMetrics metrics;
    private final ReaderContractReports reports;
    private volatile Runnable cancellationTimeoutHook = () -> {};

    TurnOverruns(
            ReaderMailbox mailbox,
            ManagedSourceReader<?, ?> reader,
            ReaderLoopMetrics metrics,
            ReaderContractReports reports) {
        this.mailbox = mailbox;
        this.reader = reader;
        this.metrics = metrics;
        this.reports = reports;
    }

    void setCancellationTimeoutHook(Runnable hook) {
        this.cancellationTimeoutHook = hook == null ? () -> {} : hook;
    }

    @Override
    public void hardBudgetExceeded() {
        metrics.hardWakeups.incrementAndGet();
        reader.wakeup();
    }

    @Override
    public void cancellationTimeout(long elapsedNanos) {
        if (mailbox.terminate(
                TerminalSignal.fatal(
                        ReasonCode.POLL_CANCELLATION_TIMEOUT,
                        reports.cancellationTimeoutCause()))) {
            reports.cancellationTimeout(elapsedNanos);
            cancellationTimeoutHook.run();
        }
    }
}
