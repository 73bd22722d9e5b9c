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

import static org.apache.seatunnel.engine.managed.source.reader.AdmissionCodes.code;

import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.managed.source.fault.FaultAction;
import org.apache.seatunnel.engine.managed.source.fault.FaultSeam;
import org.apache.seatunnel.engine.managed.source.fault.FaultSite;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.ReasonCode;
import org.apache.seatunnel.engine.managed.source.protocol.SchedulingCategory;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;

/**
 * The bounded inbox of one reader attempt (STIP-31 "Admission and overload").
 *
 * <p>Threading: {@link #admit}, {@link #offer}, {@link #terminate}, {@link #signalAvailable}, the
 * posts of {@link LocalSignals} and the read-only gauges may be called from any thread and never
 * block, sleep, spin or run connector code. {@link #poll}, {@link #complete} and {@link #close}
 * belong to the single consumer, the reader event loop (whichever thread currently drives it, one
 * at a time).
 *
 * <p>Admission of a wire envelope is linearized in the STIP's order: validate ({@link
 * CommandHeaderCheck}: protocol, target attempt, header, size) → reserve command count and bytes
 * (mailbox, then worker-wide) → deduplicate → allocate the mailbox sequence → publish. Local
 * signals ({@link LocalSignals}) skip the header check and deduplication. The sequence is the
 * claimed slot of a {@link SequencedMpscRing} of {@link MailboxEntry entries}, so the consumer sees
 * entries in exactly sequence order (see that class for why it is not JCTools' queue). Capacity is
 * released only when the loop {@link #complete completes} an entry, so commands the loop holds back
 * (coordinator-cut deferral) still count against the bound.
 *
 * <p>Checkpoint, graceful-close, checkpoint-callback and assignment-ack controls take reserved
 * capacity (whose worker bytes are taken at construction) first and normal capacity only when it is
 * used up, so the normal capacity is the coordinator's credit window; running out of both is an
 * invariant violation that terminates the attempt. Terminal signals use the independent {@link
 * #terminate} slot.
 */
public final class ReaderMailbox {
    // What reserveControl answers besides a refusal: the capacity pool it took.
    private static final long RESERVED_POOL = 1;
    private static final long NORMAL_POOL = 0;

    private final long jobId;
    private final long sourceRuntimeId;
    private final int subtask;
    private final long attemptId;
    private final MailboxLimits limits;
    private final NanoClock clock;
    private final LoopSignal signal;
    private final ReaderMailboxMetrics metrics;

    private final SequencedMpscRing<MailboxEntry> ring;
    private final CommandHeaderCheck header;
    private final MailboxCapacity capacity;
    private final DedupWindow dedup;

    private final AtomicReference<TerminalSignal> terminal = new AtomicReference<>();
    private final AvailabilitySignal availability;
    private final BarrierSignals barriers;
    private volatile Runnable wakeupHook = () -> {};
    private volatile boolean closed;

    // Consumer-only: the sequence of the entry returned by the last poll().
    private long lastSequence = -1;

    public ReaderMailbox(
            long jobId,
            long sourceRuntimeId,
            int subtask,
            long attemptId,
            MailboxLimits limits,
            WorkerMailboxBudget workerBudget,
            NanoClock clock,
            LoopSignal signal,
            ReaderMailboxMetrics metrics) {
        this.jobId = jobId;
        this.sourceRuntimeId = sourceRuntimeId;
        this.subtask = subtask;
        this.attemptId = attemptId;
        this.limits = limits;
        this.clock = clock;
        this.signal = signal;
        this.metrics = metrics;
        this.availability = new AvailabilitySignal(clock, signal);
        this.barriers = new BarrierSignals(this, signal);
        this.header =
                new CommandHeaderCheck(
                        jobId, sourceRuntimeId, subtask, attemptId, limits.maxPayloadBytes());
        this.capacity = new MailboxCapacity(limits, workerBudget);
        this.ring = new SequencedMpscRing<>(limits.maxCommands() + limits.reservedCommands());
        this.dedup = new DedupWindow(limits.dedupWindow());
        capacity.reserveControlBytes();
    }

    /** Sets the reader's {@code wakeup()}, called when a terminal signal arrives. */
    public void setWakeupHook(Runnable hook) {
        this.wakeupHook = hook == null ? () -> {} : hook;
    }

    /**
     * Admits a command and answers at once. Allocates the returned acknowledgement; {@link #admit}
     * is the form that allocates only the entry it queues.
     */
    public AdmissionAck offer(SourceCommandEnvelope env) {
        return AdmissionCodes.ack(admit(env), attemptId, limits.retryAfterMillis());
    }

    /**
     * Admits a command, allocating only the {@link MailboxEntry.RemoteCommand} it queues. Returns
     * the mailbox sequence (≥ 0) of an accepted command, or a negative code to decode with {@link
     * #statusOf} and {@link #reasonOf}.
     */
    public long admit(SourceCommandEnvelope env) {
        return counted(admitRemote(env));
    }

    /** {@link LocalSignals}' admission of a local signal of {@code kind}. */
    long admitLocal(MailboxEntry.Kind kind, long checkpointId, boolean wakeDriver) {
        return counted(admitLocal0(kind, checkpointId, wakeDriver));
    }

    private long counted(long r) {
        metrics.recordAdmission(r >= 0 ? AdmissionStatus.ACCEPTED : statusOf(r));
        return r;
    }

    private long admitRemote(SourceCommandEnvelope env) {
        if (terminal.get() != null || closed) {
            return code(AdmissionStatus.TERMINAL_REJECTED, ReasonCode.TARGET_TERMINATED);
        }
        long refused = header.check(env);
        if (refused != CommandHeaderCheck.PASSED) {
            return refused;
        }
        CommandKind kind = env.commandKind();
        SchedulingCategory category = kind.category();
        if (category == SchedulingCategory.TERMINAL) {
            terminate(
                    kind == CommandKind.CANCEL
                            ? TerminalSignal.cancel()
                            : TerminalSignal.fatal(ReasonCode.NONE, null));
            return code(AdmissionStatus.ACCEPTED, ReasonCode.NONE);
        }
        if (category == SchedulingCategory.ASYNC_COMPLETION
                || category == SchedulingCategory.OBSERVABILITY) {
            // Ephemeral and coalesced: one pending flag, never a queue slot.
            if (category == SchedulingCategory.ASYNC_COMPLETION) {
                signalAvailable();
            }
            return code(AdmissionStatus.ACCEPTED, ReasonCode.NONE);
        }

        int bytes = env.payloadLength();
        boolean reserved;
        if (kind.usesReservedControlCapacity()) {
            long pool = reserveControl(bytes);
            if (pool < 0) {
                return pool;
            }
            reserved = pool == RESERVED_POOL;
        } else {
            if (FaultSeam.INSTALLED != null
                    && FaultSeam.at(FaultSite.CAPACITY_RESERVATION, jobId, subtask, kind.name())
                            == FaultAction.RETRY_LATER) {
                // Fault point 3, tests only: answered as if the mailbox were full.
                return code(AdmissionStatus.RETRY_LATER, ReasonCode.MAILBOX_COUNT_FULL);
            }
            ReasonCode full = capacity.reserveNormal(bytes);
            if (full != ReasonCode.NONE) {
                return code(AdmissionStatus.RETRY_LATER, full);
            }
            reserved = false;
        }

        if (dedup.seen(env.commandId())) {
            capacity.release(reserved, bytes);
            return code(AdmissionStatus.DUPLICATE, ReasonCode.ALREADY_ADMITTED);
        }
        return publish(new MailboxEntry.RemoteCommand(env, reserved, clock.nanoTime()), true);
    }

    private long admitLocal0(MailboxEntry.Kind kind, long checkpointId, boolean wakeDriver) {
        if (terminal.get() != null || closed) {
            return code(AdmissionStatus.TERMINAL_REJECTED, ReasonCode.TARGET_TERMINATED);
        }
        long pool = reserveControl(MailboxEntry.LOCAL_SIGNAL_BYTES);
        if (pool < 0) {
            return pool;
        }
        return publish(
                MailboxEntry.local(kind, checkpointId, pool == RESERVED_POOL, clock.nanoTime()),
                wakeDriver);
    }

    /**
     * Takes capacity for a control: reserved capacity first, since the normal capacity is what a
     * coordinator's credit window counts on and a local control taking a slot of it would turn the
     * coordinator's next command away. Returns the pool it took, or the negative code of running
     * out of both, which fails the attempt.
     */
    private long reserveControl(int bytes) {
        if (capacity.reserveControl(bytes)) {
            metrics.recordReservedUse();
            return RESERVED_POOL;
        }
        if (capacity.reserveNormal(bytes) == ReasonCode.NONE) {
            return NORMAL_POOL;
        }
        terminate(TerminalSignal.fatal(ReasonCode.RESERVED_CAPACITY_EXHAUSTED, null));
        metrics.recordReservedExhausted();
        return code(AdmissionStatus.TERMINAL_REJECTED, ReasonCode.RESERVED_CAPACITY_EXHAUSTED);
    }

    /** Claims the next sequence for an entry whose capacity is reserved, and publishes it. */
    private long publish(MailboxEntry entry, boolean wakeDriver) {
        long seq = ring.claim();
        // Release store: the entry's fields reach the consumer with it.
        ring.publish(seq, entry);
        if (wakeDriver) {
            signal.signal();
        }
        return seq;
    }

    /** The status of a negative {@link #admit} result. */
    public static AdmissionStatus statusOf(long admitResult) {
        return AdmissionCodes.statusOf(admitResult);
    }

    /** The reason of a negative {@link #admit} result. */
    public static ReasonCode reasonOf(long admitResult) {
        return AdmissionCodes.reasonOf(admitResult);
    }

    /**
     * Ends the attempt. The first signal wins; later ones are ignored. Calls the reader's wakeup
     * hook and the host signal so a running turn or an idle host returns promptly.
     *
     * @return true if this call set the signal
     */
    public boolean terminate(TerminalSignal s) {
        if (!terminal.compareAndSet(null, s)) {
            return false;
        }
        try {
            wakeupHook.run();
        } finally {
            signal.signal();
        }
        return true;
    }

    public TerminalSignal terminalSignal() {
        return terminal.get();
    }

    /** Coalesced availability; see {@link AvailabilitySignal#signal()}. Any thread. */
    public void signalAvailable() {
        availability.signal();
    }

    /** The availability flag and linger deadline the loop's {@link PollScheduler} reads. */
    AvailabilitySignal availability() {
        return availability;
    }

    /** Barrier announcements, the taken barrier and the cohort; see {@link BarrierSignals}. */
    public BarrierSignals barriers() {
        return barriers;
    }

    /**
     * Consumer: the next published entry in sequence order, or null if none is published yet. Its
     * capacity stays reserved until {@link #complete}.
     */
    public MailboxEntry poll() {
        long h = ring.head();
        MailboxEntry entry = ring.poll();
        if (entry != null) {
            lastSequence = h;
        }
        return entry;
    }

    /** Consumer: true if an entry with a lower sequence is claimed but not yet published. */
    boolean hasClaimedUnpublished() {
        return ring.hasClaimedUnpublished();
    }

    /** Consumer: sequence of the entry returned by the last {@link #poll}. */
    public long lastSequence() {
        return lastSequence;
    }

    /** Consumer: releases the capacity of an applied or discarded entry. */
    public void complete(MailboxEntry entry) {
        capacity.release(entry.reserved(), entry.bytes());
    }

    /**
     * Consumer: refuses further admission and releases everything queued and the reserved worker
     * bytes. Idempotent.
     *
     * @return how many queued commands were dropped
     */
    public int close() {
        if (closed) {
            return 0;
        }
        closed = true;
        int dropped = 0;
        // Claimed slots are published within a few instructions; a bounded drain is enough
        // because admission checks 'closed' first and new claims stop.
        for (MailboxEntry entry = poll(); entry != null; entry = poll()) {
            complete(entry);
            dropped++;
        }
        capacity.releaseControlBytes();
        return dropped;
    }

    /**
     * True when an ordered control or a terminal signal is waiting: a running poll turn should
     * yield. Any thread; approximate.
     */
    public boolean hasPendingControlOrTerminal() {
        return ring.hasClaimed() || terminal.get() != null || barriers.isAnnounced();
    }

    /**
     * {@link BarrierSignals#announce(long, BarrierCohort)}, for the member's barrier announcer. Any
     * thread, never blocks.
     */
    public void announceBarrier(long checkpointId, BarrierCohort c) {
        barriers.announce(checkpointId, c);
    }

    /** {@link BarrierSignals#cohort}. Any thread. */
    public BarrierCohort barrierCohort(long checkpointId) {
        return barriers.cohort(checkpointId);
    }

    /** {@link BarrierSignals#isAnnounced}. Any thread; approximate. */
    public boolean isBarrierAnnounced() {
        return barriers.isAnnounced();
    }

    /** {@link BarrierSignals#announced}. Any thread. */
    public long announcedBarrier() {
        return barriers.announced();
    }

    /** A cohort of this reader completed: {@link BarrierSignals#wakeDriverInHandoff}. */
    void wakeDriverInHandoff() {
        barriers.wakeDriverInHandoff();
    }

    /** True when a command or availability is waiting. Any thread; approximate. */
    public boolean hasPendingWork() {
        return ring.hasClaimed() || availability.isPending() || terminal.get() != null;
    }

    /** Like {@link #hasPendingWork()} without availability: what a lingering loop acts on. */
    boolean hasPendingCommands() {
        return ring.hasClaimed() || terminal.get() != null;
    }

    /** Commands admitted and not completed (normal + reserved). Any thread; approximate. */
    public int commandCount() {
        return capacity.commandCount();
    }

    public int reservedCommandCount() {
        return capacity.reservedCommandCount();
    }

    /** Payload bytes admitted and not completed. Any thread; approximate. */
    public long payloadBytes() {
        return capacity.payloadBytes();
    }

    /** Admission time of the oldest queued entry, or -1. Any thread; approximate. */
    public long oldestAdmittedNanos() {
        MailboxEntry head = ring.peek();
        return head == null ? -1 : head.admittedNanos();
    }

    public long attemptId() {
        return attemptId;
    }

    public int subtask() {
        return subtask;
    }

    public long jobId() {
        return jobId;
    }

    public long sourceRuntimeId() {
        return sourceRuntimeId;
    }

    public MailboxLimits limits() {
        return limits;
    }

    public LoopSignal signal() {
        return signal;
    }

    public ReaderMailboxMetrics metrics() {
        return metrics;
    }

    public NanoClock clock() {
        return clock;
    }
}
