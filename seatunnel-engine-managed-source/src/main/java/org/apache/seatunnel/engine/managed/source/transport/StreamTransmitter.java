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

package org.apache.seatunnel.engine.managed.source.transport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.fault.InjectedFaultException;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;

/**
 * Hands the head batch of a {@link CommandSender} stream to the {@link FrameInvoker}: one frame, or
 * one {@link CommandBatchCodec} batch when it holds more than one command. While a {@link
 * FaultSeam} is installed, which tests alone do, it also plays fault points 2 (a transmission lost,
 * duplicated, delayed or reordered) and 4 (an admission answer lost or late).
 *
 * <p>Threading: sender thread only, like the streams it acts on.
 *
 * @param <M> the engine's member address
 */
final class StreamTransmitter<M> {
    /** Handles one answer, as the sender does without faults. */
    interface Answer {
        void handle(SenderStream s, int attemptNo, int count, byte[] response, Throwable err);
    }

    private final FrameInvoker<M> invoker;
    private final SenderScheduler scheduler;
    private final TransportMetrics metrics;

    // REORDER: a stream retires when idle, so the copy waits here, by stream key, for the
    // stream's next transmission.
    private SenderStream.Key staleKey;
    private Runnable staleCopy;

    StreamTransmitter(
            FrameInvoker<M> invoker, SenderScheduler scheduler, TransportMetrics metrics) {
        this.invoker = invoker;
        this.scheduler = scheduler;
        this.metrics = metrics;
    }

    /** Sends the first {@code n} waiting commands of {@code s}; never throws. */
    CompletableFuture<byte[]> send(SenderStream s, int n, long callTimeout) {
        return FaultSeam.INSTALLED == null
                ? transmit(s, n, callTimeout)
                : transmitWithFault(s, n, callTimeout);
    }

    /** Hands the first {@code n} waiting commands to the transport, as one frame or a batch. */
    private CompletableFuture<byte[]> transmit(SenderStream s, int n, long callTimeout) {
        try {
            if (n == 1) {
                return invoker.invoke(targetOf(s), s.waiting.peekFirst().frame, callTimeout);
            }
            metrics.batchesSent.incrementAndGet();
            return invoker.invokeBatch(targetOf(s), batchOf(s, n), callTimeout);
        } catch (RuntimeException e) {
            CompletableFuture<byte[]> failed = new CompletableFuture<>();
            failed.completeExceptionally(e);
            return failed;
        }
    }

    /** The first {@code n} waiting commands of {@code s} as one batch frame. */
    private static byte[] batchOf(SenderStream s, int n) {
        List<byte[]> frames = new ArrayList<>(n);
        for (SenderStream.Pending p : s.waiting) {
            if (frames.size() == n) {
                break;
            }
            frames.add(p.frame);
        }
        return CommandBatchCodec.encode(frames);
    }

    @SuppressWarnings("unchecked")
    private M targetOf(SenderStream s) {
        return (M) s.target;
    }

    /** A copy of the first {@code n} waiting commands, sent later by a REORDER fault. */
    private Runnable copyOf(SenderStream s, int n, long callTimeout) {
        boolean batch = n > 1;
        byte[] copy = batch ? batchOf(s, n) : s.waiting.peekFirst().frame;
        M target = targetOf(s);
        return () -> {
            try {
                if (batch) {
                    invoker.invokeBatch(target, copy, callTimeout);
                } else {
                    invoker.invoke(target, copy, callTimeout);
                }
            } catch (RuntimeException lost) {
                // A copy that cannot be sent is a lost one: nothing to answer.
            }
        };
    }

    /** Fault point 2 around {@code transmit}. */
    private CompletableFuture<byte[]> transmitWithFault(SenderStream s, int n, long callTimeout) {
        Runnable due = null;
        if (staleCopy != null && staleKey.equals(s.key)) {
            due = staleCopy;
            staleCopy = null;
            staleKey = null;
        }
        CompletableFuture<byte[]> sent = faulted(s, n, callTimeout);
        if (due != null) {
            // Behind a later transmission's answer: the reader admitted newer commands first.
            Runnable copy = due;
            sent.whenCompleteAsync((r, e) -> copy.run(), scheduler);
        }
        return sent;
    }

    private CompletableFuture<byte[]> faulted(SenderStream s, int n, long callTimeout) {
        SenderStream.Pending head = s.waiting.peekFirst();
        FaultAction f =
                FaultSeam.at(
                        FaultSite.OPERATION_SEND,
                        head.env.jobId(),
                        s.key.subtask,
                        head.env.commandKind() + (n > 1 ? " and " + (n - 1) + " more" : ""));
        if (f == FaultAction.LOSE) {
            CompletableFuture<byte[]> lost = new CompletableFuture<>();
            lost.completeExceptionally(new InjectedFaultException(FaultSite.OPERATION_SEND, f));
            return lost;
        }
        if (f == FaultAction.DUPLICATE) {
            transmit(s, n, callTimeout);
            return transmit(s, n, callTimeout);
        }
        if (f == FaultAction.REORDER) {
            // A copy taken now goes out once a later transmission is answered, so it reaches the
            // reader behind commands sent after it: a stale frame the reader must not apply again.
            staleKey = s.key;
            staleCopy = copyOf(s, n, callTimeout);
            return transmit(s, n, callTimeout);
        }
        if (f == FaultAction.DELAY) {
            // The batch is snapshotted now: the stream holds it in flight meanwhile.
            CompletableFuture<byte[]> later = new CompletableFuture<>();
            scheduler.schedule(
                    () ->
                            transmit(s, n, callTimeout)
                                    .whenComplete(
                                            (r, e) -> {
                                                if (e != null) {
                                                    later.completeExceptionally(e);
                                                } else {
                                                    later.complete(r);
                                                }
                                            }),
                    FaultSeam.DELAY_MILLIS);
            return later;
        }
        return transmit(s, n, callTimeout);
    }

    /** Fault point 4 around {@code answer}: the answer of an admitted frame is lost or late. */
    void answer(
            SenderStream s,
            int attemptNo,
            int count,
            byte[] response,
            Throwable err,
            Answer answer) {
        if (err == null) {
            SenderStream.Pending head = s.waiting.peekFirst();
            FaultAction f =
                    FaultSeam.at(
                            FaultSite.ADMISSION_ACK,
                            head == null ? 0 : head.env.jobId(),
                            s.key.subtask,
                            head == null ? "" : head.env.commandKind().name());
            if (f == FaultAction.LOSE) {
                err = new InjectedFaultException(FaultSite.ADMISSION_ACK, f);
            } else if (f == FaultAction.DELAY) {
                scheduler.schedule(
                        () -> answer.handle(s, attemptNo, count, response, null),
                        FaultSeam.DELAY_MILLIS);
                return;
            }
        }
        answer.handle(s, attemptNo, count, response, err);
    }
}
