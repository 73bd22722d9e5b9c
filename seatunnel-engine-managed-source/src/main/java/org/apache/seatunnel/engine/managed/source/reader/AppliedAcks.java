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

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AppliedAckPayload;

/**
 * A reader attempt's apply acknowledgements to its coordinator: cumulative and coalesced. Each one
 * carries the attempt's applied watermark (every command of the coordinator epoch up to that
 * sequence was applied), its split backlog right after (splits it holds and has not read to their
 * end) and the last barrier it had taken then, so one acknowledgement answers any number of
 * commands, a lost or late one is made good by the next, and a duplicate changes nothing. At most
 * one is in flight; what changes meanwhile goes out in the next one, sent when the one in flight is
 * answered. This is flow control — the coordinator gives the credit of applied commands back and
 * measures the split window again — and, dated by the barrier, tells the coordinator what its
 * snapshots of later checkpoints need not store; never what it may forget.
 *
 * <p>Besides every apply, the backlog alone is reported when it falls to half the split window (the
 * low mark) or to zero: the coordinator, which stopped sending at the window, then has room again.
 * A reader without a split window reports only applies.
 *
 * <p>Threading: {@link #applied}, {@link #backlog} and {@link #resend} on the thread driving the
 * attempt; answers complete on the transport's threads and may send the next acknowledgement from
 * there. {@code latest} is written by the driving thread only; {@code inFlight} hands the right to
 * send between the two.
 */
final class AppliedAcks {
    /** Sends one acknowledgement; never blocks. */
    interface Sender {
        CompletableFuture<AdmissionAck> send(long watermark, int backlog, long lastBarrier);
    }

    /** One state of the attempt, numbered in the order the driving thread took them. Immutable. */
    private static final class Progress {
        static final Progress NONE = new Progress(0, 0, AppliedAckPayload.UNKNOWN_BACKLOG, 0);

        final long number;
        final long watermark;
        final int backlog;
        // The last barrier the attempt had taken when this state was taken: the state held
        // before every later barrier.
        final long lastBarrier;

        Progress(long number, long watermark, int backlog, long lastBarrier) {
            this.number = number;
            this.watermark = watermark;
            this.backlog = backlog;
            this.lastBarrier = lastBarrier;
        }
    }

    private final Sender sender;
    private final int lowMark;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile Progress latest = Progress.NONE;
    // The latest state the coordinator admitted; written by whoever holds inFlight.
    private volatile Progress acknowledged = Progress.NONE;

    /**
     * @param splitWindow the split window the attempt offered at registration, 0 for none
     */
    AppliedAcks(Sender sender, int splitWindow) {
        this.sender = sender;
        this.lowMark = splitWindow > 0 ? splitWindow / 2 : -1;
    }

    /**
     * The loop applied commands up to {@code watermark}, leaving it {@code backlog} splits, after
     * it took barrier {@code lastBarrier} (0 before its first) and before any later one.
     */
    void applied(long watermark, int backlog, long lastBarrier) {
        Progress p = latest;
        if (watermark > p.watermark || (watermark == p.watermark && backlog != p.backlog)) {
            latest =
                    new Progress(
                            p.number + 1, Math.max(watermark, p.watermark), backlog, lastBarrier);
        }
        trySend();
    }

    /**
     * A turn ended with {@code backlog} unread splits, after barrier {@code lastBarrier}: reported
     * only if it crossed the low mark or reached zero since the last state. No allocation otherwise
     * (this runs after every turn).
     */
    void backlog(int backlog, long lastBarrier) {
        Progress p = latest;
        if (lowMark < 0 || backlog >= p.backlog) {
            return;
        }
        if ((p.backlog > lowMark && backlog <= lowMark) || (p.backlog > 0 && backlog == 0)) {
            latest = new Progress(p.number + 1, p.watermark, backlog, lastBarrier);
            trySend();
        }
    }

    /**
     * The attempt is idle: if the coordinator has not admitted its latest state (an acknowledgement
     * was lost on the way), say it again, so a coordinator waiting for credit or split room never
     * waits for an attempt that has nothing left to do.
     */
    void resend(long watermark, int backlog, long lastBarrier) {
        applied(watermark, backlog, lastBarrier);
    }

    /** The highest watermark the coordinator admitted (a gauge). */
    long acknowledged() {
        return acknowledged.watermark;
    }

    /** The backlog of the latest state taken, or -1 (a gauge). */
    int latestBacklog() {
        return latest.backlog;
    }

    private void trySend() {
        while (latest.number > acknowledged.number && inFlight.compareAndSet(false, true)) {
            Progress p = latest;
            if (p.number <= acknowledged.number) {
                inFlight.set(false);
                continue;
            }
            CompletableFuture<AdmissionAck> sent;
            try {
                sent = sender.send(p.watermark, p.backlog, p.lastBarrier);
            } catch (RuntimeException e) {
                inFlight.set(false);
                return;
            }
            sent.whenComplete((ack, err) -> answered(p, ack, err));
            return;
        }
    }

    private void answered(Progress p, AdmissionAck ack, Throwable err) {
        boolean ok = err == null && ack != null && ack.status().isAdmitted();
        if (ok && p.number > acknowledged.number) {
            acknowledged = p;
        }
        inFlight.set(false);
        // Not admitted: the transport already retried it; the next change or idle sends the
        // state again. Admitted: what changed meanwhile goes now.
        if (ok) {
            trySend();
        }
    }
}
