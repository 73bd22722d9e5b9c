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

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.seatunnel.engine.managed.faults.FaultAction;
import org.apache.seatunnel.engine.managed.faults.FaultInjectingDispatcher;
import org.apache.seatunnel.engine.managed.faults.FaultInjector;
import org.apache.seatunnel.engine.managed.faults.FaultPoint;
import org.apache.seatunnel.engine.managed.faults.InjectedFault;
import org.apache.seatunnel.engine.managed.faults.Transport;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAckCodec;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandBatchCodec;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandCodec;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.transport.FrameInvoker;
import org.apache.seatunnel.engine.managed.source.transport.SourceCommandTransportAdapter;

/**
 * The wire between the model's members: what a Hazelcast invocation is to the runtime's command
 * sender. Every frame the members' real {@code CommandSender}s send goes through here to the target
 * member's real {@code SourceCommandTransportAdapter}, with faults at STIP-31 points 2 (operation
 * send: lost, duplicated, delayed), 3 (capacity reservation: answered RETRY_LATER) and 4 (admission
 * acknowledgement: lost or delayed) on coordinator-to-reader frames, and the configured loss of
 * readers' checkpoint reports. A lost frame or answer fails the invocation, as Hazelcast does when
 * an operation times out or its member left; what is delayed waits here until {@link #releaseOne}
 * or {@link #releaseAll}, in an order the run chooses, and survives restores.
 *
 * <p>Threading: confined to the run's thread; deliveries run inline on the invoking sender's task.
 */
public final class ModelNetwork implements Transport {
    /** Told of every assignment a reader mailbox admitted. */
    interface AdmissionListener {
        void admitted(SourceCommandEnvelope assignment);
    }

    private final FaultInjector faults;
    private final MiniEngine engine;
    // The engine's stream: the draws stay in the order a seed replays.
    private final Random rnd;
    private final Map<Integer, ModelMember> members = new TreeMap<>();
    private final List<Runnable> later = new ArrayList<>();
    private final ArrayDeque<Delivered> history = new ArrayDeque<>();
    private AdmissionListener listener = a -> {};
    private long delivered;

    ModelNetwork(FaultInjector faults, MiniEngine engine, Random rnd) {
        this.faults = faults;
        this.engine = engine;
        this.rnd = rnd;
    }

    /** Inclusion reports travel fire-and-forget; the config says how many the network loses. */
    private boolean loseInclusionReport(SourceCommandEnvelope report) {
        if (faults.enabled() && rnd.nextDouble() < engine.config.inclusionReportLoss()) {
            engine.trace(
                    "lost inclusion report of reader "
                            + report.targetSubtask()
                            + " attempt "
                            + report.senderAttemptId());
            return true;
        }
        return false;
    }

    void add(ModelMember m) {
        members.put(m.id, m);
    }

    void onAdmitted(AdmissionListener l) {
        this.listener = l;
    }

    /** The invocations of member {@code from}'s sender. */
    FrameInvoker<Integer> invokerFor(int from) {
        return new FrameInvoker<Integer>() {
            @Override
            public CompletableFuture<byte[]> invoke(Integer target, byte[] frame, long timeout) {
                return ModelNetwork.this.invoke(from, target, frame, false);
            }

            @Override
            public CompletableFuture<byte[]> invokeBatch(
                    Integer target, byte[] batch, long timeout) {
                return ModelNetwork.this.invoke(from, target, batch, true);
            }
        };
    }

    @Override
    public void later(Runnable action) {
        later.add(action);
    }

    private CompletableFuture<byte[]> invoke(int from, int to, byte[] bytes, boolean batch) {
        ModelMember target = members.get(to);
        if (target == null) {
            return failed(new IOException("no member " + to));
        }
        List<byte[]> frames = batch ? entries(bytes) : java.util.Collections.singletonList(bytes);
        SourceCommandCodec.DecodeResult d =
                frames == null
                        ? null
                        : SourceCommandCodec.decode(frames.get(0), ModelMember.MAX_PAYLOAD_BYTES);
        if (d == null || !d.isSuccess()) {
            return CompletableFuture.completedFuture(deliver(target, from, bytes, batch));
        }
        SourceCommandEnvelope first = d.envelope();
        if (SourceCommandTransportAdapter.isCoordinatorBound(first.commandKind())) {
            if (first.commandKind() == CommandKind.READER_CHECKPOINTED
                    && loseInclusionReport(first)) {
                return failed(new IOException("inclusion report lost"));
            }
            return CompletableFuture.completedFuture(deliver(target, from, bytes, batch));
        }
        String where = FaultInjectingDispatcher.describe(first) + (batch ? " (batch)" : "");
        FaultAction send = faults.at(FaultPoint.OPERATION_SEND, where);
        if (send == FaultAction.LOSE) {
            return failed(new InjectedFault(FaultPoint.OPERATION_SEND, send, where));
        }
        CompletableFuture<byte[]> response = new CompletableFuture<>();
        Runnable delivery =
                () -> {
                    byte[] ack = toReader(target, from, bytes, batch, frames, where);
                    FaultAction a =
                            faults.at(
                                    FaultPoint.ADMISSION_ACK,
                                    where + " " + firstStatus(ack, batch));
                    if (a == FaultAction.LOSE) {
                        response.completeExceptionally(
                                new InjectedFault(FaultPoint.ADMISSION_ACK, a, where));
                    } else if (a == FaultAction.DELAY) {
                        later.add(() -> response.complete(ack));
                    } else {
                        response.complete(ack);
                    }
                };
        if (send == FaultAction.DELAY) {
            later.add(delivery);
        } else {
            delivery.run();
        }
        if (send == FaultAction.DUPLICATE) {
            // At-least-once: a second copy arrives later; nobody waits for its answer.
            later.add(() -> toReader(target, from, bytes, batch, frames, where));
        }
        return response;
    }

    private static byte[] deliver(ModelMember target, int from, byte[] bytes, boolean batch) {
        return batch
                ? target.adapter.deliverBatchFrame(bytes, from)
                : target.adapter.deliverFrame(bytes, from);
    }

    /** The frames of a batch, or null if it does not open. */
    private static List<byte[]> entries(byte[] batch) {
        CommandBatchCodec.BatchResult b =
                CommandBatchCodec.decode(
                        batch,
                        CommandBatchCodec.MAX_ENTRIES,
                        CommandBatchCodec.maxBatchBytes(
                                CommandBatchCodec.MAX_ENTRIES, ModelMember.MAX_PAYLOAD_BYTES));
        if (!b.isSuccess()) {
            return null;
        }
        List<byte[]> out = new ArrayList<>(b.count());
        for (int i = 0; i < b.count(); i++) {
            out.add(
                    java.util.Arrays.copyOfRange(
                            b.batch(), b.offset(i), b.offset(i) + b.length(i)));
        }
        return out;
    }

    /** Point 3, then the member's real adapter; records what it admitted. */
    private byte[] toReader(
            ModelMember target,
            int from,
            byte[] bytes,
            boolean batch,
            List<byte[]> frames,
            String where) {
        delivered += frames.size();
        FaultAction cap = faults.at(FaultPoint.CAPACITY_RESERVATION, where);
        if (cap == FaultAction.RETRY_LATER) {
            // The first command found the mailbox full: nothing behind it is offered either.
            List<AdmissionAck> refused = new ArrayList<>(frames.size());
            for (int i = 0; i < frames.size(); i++) {
                refused.add(AdmissionAck.retryLater(-1, 1, ReasonCode.MAILBOX_COUNT_FULL));
            }
            return batch
                    ? CommandBatchCodec.encodeAcks(refused)
                    : AdmissionAckCodec.encode(refused.get(0));
        }
        byte[] answer = deliver(target, from, bytes, batch);
        List<AdmissionAck> acks;
        if (batch) {
            CommandBatchCodec.AckResult r = CommandBatchCodec.decodeAcks(answer, frames.size());
            acks = r.isSuccess() && r.opened() ? r.acks() : java.util.Collections.emptyList();
        } else {
            AdmissionAckCodec.DecodeResult r = AdmissionAckCodec.decode(answer);
            acks =
                    r.isSuccess()
                            ? java.util.Collections.singletonList(r.ack())
                            : java.util.Collections.emptyList();
        }
        for (int i = 0; i < acks.size(); i++) {
            if (!acks.get(i).status().isAdmitted()) {
                continue;
            }
            if (history.size() >= 64) {
                history.pollFirst();
            }
            history.addLast(new Delivered(target, from, frames.get(i)));
            if (acks.get(i).status() == AdmissionStatus.ACCEPTED) {
                SourceCommandEnvelope env =
                        SourceCommandCodec.decode(frames.get(i), ModelMember.MAX_PAYLOAD_BYTES)
                                .envelope();
                if (env.commandKind() == CommandKind.SPLIT_ASSIGNMENT) {
                    listener.admitted(env);
                }
            }
        }
        return answer;
    }

    private static AdmissionStatus firstStatus(byte[] answer, boolean batch) {
        if (!batch) {
            return statusOf(answer);
        }
        CommandBatchCodec.AckResult r =
                CommandBatchCodec.decodeAcks(answer, CommandBatchCodec.MAX_ENTRIES);
        return r.isSuccess() && r.opened() && !r.acks().isEmpty()
                ? r.acks().get(0).status()
                : AdmissionStatus.INVALID_PAYLOAD;
    }

    private static AdmissionStatus statusOf(byte[] ack) {
        AdmissionAckCodec.DecodeResult d = AdmissionAckCodec.decode(ack);
        return d.isSuccess() ? d.ack().status() : AdmissionStatus.INVALID_PAYLOAD;
    }

    private static CompletableFuture<byte[]> failed(Throwable t) {
        CompletableFuture<byte[]> f = new CompletableFuture<>();
        f.completeExceptionally(t);
        return f;
    }

    /** Delivers an old admitted frame again (at-least-once transport); its answer goes nowhere. */
    public void redeliverOld(Random rnd) {
        if (history.isEmpty()) {
            return;
        }
        int i = rnd.nextInt(history.size());
        Iterator<Delivered> it = history.iterator();
        Delivered d = it.next();
        while (i-- > 0) {
            d = it.next();
        }
        delivered++;
        d.target.adapter.deliverFrame(d.frame, d.from);
    }

    /**
     * Releases one held message (a delayed send, answer, copy or callback), chosen by {@code rnd}.
     *
     * @return false if nothing was held
     */
    public boolean releaseOne(Random rnd) {
        if (later.isEmpty()) {
            return false;
        }
        later.remove(rnd.nextInt(later.size())).run();
        return true;
    }

    /** Releases until nothing is held; returns how many were released. */
    public int releaseAll(Random rnd) {
        int n = 0;
        while (releaseOne(rnd)) {
            if (++n > 100_000) {
                throw new IllegalStateException("held messages keep coming back");
            }
        }
        return n;
    }

    /**
     * Runs one queued task of one member's sender thread, chosen by {@code rnd} among those with
     * work; false if no sender has any.
     */
    public boolean stepSender(Random rnd) {
        List<ModelMember> busy = new ArrayList<>();
        for (ModelMember m : members.values()) {
            if (m.scheduler.pending() > 0) {
                busy.add(m);
            }
        }
        if (busy.isEmpty()) {
            return false;
        }
        return busy.get(rnd.nextInt(busy.size())).scheduler.runOne();
    }

    /** Runs the senders until none has a queued task; returns how many tasks ran. */
    public int runSenders(Random rnd) {
        int n = 0;
        while (stepSender(rnd)) {
            if (++n > 1_000_000) {
                throw new IllegalStateException("senders never became idle");
            }
        }
        return n;
    }

    /** Messages and callbacks held here. */
    public int held() {
        return later.size();
    }

    /** Held messages and the senders' queued tasks, for failure messages. */
    public String describe() {
        StringBuilder sb = new StringBuilder("held=").append(later.size());
        for (ModelMember m : members.values()) {
            sb.append(" member ")
                    .append(m.id)
                    .append(": sender tasks=")
                    .append(m.scheduler.pending())
                    .append(" pending sends=")
                    .append(m.sender.pendingCount());
        }
        return sb.toString();
    }

    public long delivered() {
        return delivered;
    }

    private static final class Delivered {
        final ModelMember target;
        final int from;
        final byte[] frame;

        Delivered(ModelMember target, int from, byte[] frame) {
            this.target = target;
            this.from = from;
            this.frame = frame;
        }
    }
}
