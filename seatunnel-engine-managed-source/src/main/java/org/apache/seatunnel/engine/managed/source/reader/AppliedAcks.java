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
import java.util.function.LongFunction;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;

/**
 * A reader attempt's apply acknowledgements to its coordinator: cumulative and coalesced. Each one
 * carries the attempt's applied watermark (every command of the coordinator epoch up to that
 * sequence was applied), so one acknowledgement answers any number of commands, a lost or late one
 * is made good by the next, and a duplicate changes nothing. At most one is in flight; what the
 * loop applies meanwhile goes out in the next one, sent when the one in flight is answered. This is
 * flow control — the coordinator gives the credit of applied commands back — never durability.
 *
 * <p>Threading: {@link #applied} on the thread driving the attempt; answers complete on the
 * transport's threads and may send the next acknowledgement from there. {@code latest} is written
 * by the driving thread only; {@code inFlight} hands the right to send between the two.
 */
final class AppliedAcks {
    private final LongFunction<CompletableFuture<AdmissionAck>> sender;
    private final AtomicBoolean inFlight = new AtomicBoolean();
    private volatile long latest;
    // The highest watermark the coordinator admitted; written by whoever holds inFlight.
    private volatile long acknowledged;

    /**
     * @param sender sends one acknowledgement of a watermark; never blocks
     */
    AppliedAcks(LongFunction<CompletableFuture<AdmissionAck>> sender) {
        this.sender = sender;
    }

    /** The loop applied commands up to {@code watermark}. */
    void applied(long watermark) {
        if (watermark > latest) {
            latest = watermark;
        }
        trySend();
    }

    /** The highest watermark the coordinator admitted (a gauge). */
    long acknowledged() {
        return acknowledged;
    }

    private void trySend() {
        while (latest > acknowledged && inFlight.compareAndSet(false, true)) {
            long w = latest;
            if (w <= acknowledged) {
                inFlight.set(false);
                continue;
            }
            CompletableFuture<AdmissionAck> sent;
            try {
                sent = sender.apply(w);
            } catch (RuntimeException e) {
                inFlight.set(false);
                return;
            }
            sent.whenComplete((ack, err) -> answered(w, ack, err));
            return;
        }
    }

    private void answered(long w, AdmissionAck ack, Throwable err) {
        boolean ok = err == null && ack != null && ack.status().isAdmitted();
        if (ok && w > acknowledged) {
            acknowledged = w;
        }
        inFlight.set(false);
        // Not admitted: the transport already retried it; the next apply sends the watermark
        // again. Admitted: what was applied meanwhile goes now.
        if (ok) {
            trySend();
        }
    }
}
