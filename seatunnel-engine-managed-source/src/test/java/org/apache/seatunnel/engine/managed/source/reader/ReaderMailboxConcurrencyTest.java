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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionAck;
import org.apache.seatunnel.engine.managed.source.protocol.AdmissionStatus;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.junit.jupiter.api.Test;

/**
 * Many producers, one consumer, against an oracle: every accepted command is consumed, every sender
 * sequence is applied exactly once, bounds are never exceeded, sequences arrive in order, and
 * reserved controls are always admitted while fewer than the reserve are in flight.
 *
 * <p>Seeded: {@code -Dstress.seed=N} replays a run; the seed is in every failure message.
 */
class ReaderMailboxConcurrencyTest {
    private static final int PRODUCERS = 6;
    private static final int PER_PRODUCER = 6_000;
    private static final int CONTROLS = 2_000;

    @Test
    void manyProducersOneConsumerLoseNothingApplyOnceAndRespectBounds() throws Exception {
        long seed = Long.getLong("stress.seed", new Random().nextLong());
        System.out.println("ReaderMailboxConcurrencyTest seed=" + seed);
        String ctx = "seed=" + seed + " (replay with -Dstress.seed=" + seed + ")";

        MailboxLimits limits = new MailboxLimits(64, 16 << 10, 8, 1 << 10, 1 << 10, 1024, 1);
        WorkerMailboxBudget worker = new WorkerMailboxBudget(1 << 20);
        ReaderMailbox mb =
                new ReaderMailbox(
                        1,
                        1,
                        0,
                        1,
                        limits,
                        worker,
                        NanoClock.SYSTEM,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        Set<Long> accepted = ConcurrentHashMap.newKeySet();
        Set<Long> consumed = ConcurrentHashMap.newKeySet();
        // Local signals have no command id: checkpoint ids of the notices posted and taken.
        Set<Long> controlsAccepted = ConcurrentHashMap.newKeySet();
        Set<Long> controlsConsumed = ConcurrentHashMap.newKeySet();
        AtomicInteger controlsInFlight = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();
        AtomicBoolean producing = new AtomicBoolean(true);
        CountDownLatch done = new CountDownLatch(PRODUCERS + 1);
        List<Thread> threads = new ArrayList<>();

        for (int p = 0; p < PRODUCERS; p++) {
            final int producer = p;
            final Random rnd = new Random(seed * 31 + p);
            threads.add(
                    new Thread(
                            () -> {
                                try {
                                    for (int i = 1; i <= PER_PRODUCER; i++) {
                                        SourceCommandEnvelope env =
                                                SourceCommandEnvelope.builder(
                                                                CommandKind.SPLIT_ASSIGNMENT)
                                                        .jobId(1)
                                                        .sourceRuntimeId(1)
                                                        .targetAttemptId(1)
                                                        .coordinatorEpoch(producer + 1)
                                                        .senderSequence(i)
                                                        .commandId((producer + 1) * 10_000_000L + i)
                                                        .payload(new byte[rnd.nextInt(512)])
                                                        .build();
                                        offerUntilAdmitted(mb, env, accepted, violation);
                                        if (rnd.nextInt(10) == 0) {
                                            // At-least-once transport: redeliver.
                                            AdmissionAck again = mb.offer(env);
                                            if (again.status() == AdmissionStatus.ACCEPTED) {
                                                accepted.add(env.commandId());
                                            }
                                        }
                                    }
                                } finally {
                                    done.countDown();
                                }
                            }));
        }
        LocalSignals local = new LocalSignals(mb);
        threads.add(
                new Thread(
                        () -> {
                            try {
                                for (int i = 1; i <= CONTROLS; i++) {
                                    while (controlsInFlight.get() >= limits.reservedCommands()) {
                                        Thread.onSpinWait();
                                    }
                                    controlsInFlight.incrementAndGet();
                                    AdmissionAck ack = local.checkpointComplete(i);
                                    if (ack.status() != AdmissionStatus.ACCEPTED) {
                                        violation.compareAndSet(
                                                null, "reserved control refused: " + ack);
                                        return;
                                    }
                                    controlsAccepted.add((long) i);
                                }
                            } finally {
                                done.countDown();
                            }
                        }));

        AppliedCommandLedger ledger = new AppliedCommandLedger(1024);
        AtomicInteger appliedTwice = new AtomicInteger();
        AtomicInteger applied = new AtomicInteger();
        Thread consumer =
                new Thread(
                        () -> {
                            long expectedSeq = 0;
                            while (producing.get() || mb.commandCount() > 0) {
                                MailboxEntry entry = mb.poll();
                                if (entry == null) {
                                    Thread.onSpinWait();
                                    continue;
                                }
                                if (mb.lastSequence() != expectedSeq++) {
                                    violation.compareAndSet(
                                            null, "sequence out of order at " + mb.lastSequence());
                                }
                                int count = mb.commandCount();
                                long bytes = mb.payloadBytes();
                                if (count > limits.maxCommands() + limits.reservedCommands()
                                        || bytes > limits.maxBytes() + limits.reservedBytes()) {
                                    violation.compareAndSet(
                                            null, "bound exceeded: " + count + "/" + bytes);
                                }
                                boolean control = entry.kind() != MailboxEntry.Kind.REMOTE_COMMAND;
                                SourceCommandEnvelope e =
                                        control
                                                ? null
                                                : ((MailboxEntry.RemoteCommand) entry).envelope();
                                if (control) {
                                    if (entry.kind() != MailboxEntry.Kind.CHECKPOINT_COMPLETE) {
                                        violation.compareAndSet(null, "unexpected " + entry);
                                    }
                                    controlsConsumed.add(
                                            ((MailboxEntry.CheckpointNotice) entry).checkpointId());
                                    // Counted down after complete() below: only then is its
                                    // reserved slot free for the next control.
                                } else {
                                    consumed.add(e.commandId());
                                    if (ledger.isApplied(
                                            e.coordinatorEpoch(), e.senderSequence())) {
                                        appliedTwice.incrementAndGet();
                                    } else {
                                        ledger.markApplied(
                                                e.coordinatorEpoch(), e.senderSequence());
                                        applied.incrementAndGet();
                                    }
                                }
                                mb.complete(entry);
                                if (control) {
                                    controlsInFlight.decrementAndGet();
                                }
                            }
                        });

        consumer.start();
        threads.forEach(Thread::start);
        assertTrue(done.await(60, TimeUnit.SECONDS), "producers finished; " + ctx);
        producing.set(false);
        consumer.join(TimeUnit.SECONDS.toMillis(30));

        assertNull(violation.get(), ctx);
        assertEquals(accepted, consumed, "every accepted command consumed; " + ctx);
        assertEquals(CONTROLS, controlsAccepted.size(), ctx);
        assertEquals(controlsAccepted, controlsConsumed, "every posted control consumed; " + ctx);
        assertEquals(PRODUCERS * PER_PRODUCER, applied.get(), "each applied once; " + ctx);
        assertEquals(0, mb.commandCount(), ctx);
        assertEquals(limits.reservedBytes(), worker.usedBytes(), ctx);
        assertNull(mb.terminalSignal(), ctx);
    }

    private static void offerUntilAdmitted(
            ReaderMailbox mb,
            SourceCommandEnvelope env,
            Set<Long> accepted,
            AtomicReference<String> violation) {
        for (; ; ) {
            AdmissionAck ack = mb.offer(env);
            switch (ack.status()) {
                case ACCEPTED:
                    accepted.add(env.commandId());
                    return;
                case DUPLICATE:
                    return;
                case RETRY_LATER:
                    Thread.onSpinWait();
                    break;
                default:
                    violation.compareAndSet(null, "unexpected " + ack);
                    return;
            }
        }
    }
}
