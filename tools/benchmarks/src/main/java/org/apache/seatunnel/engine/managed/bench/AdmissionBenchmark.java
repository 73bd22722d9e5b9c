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

package org.apache.seatunnel.engine.managed.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Admission latency into one {@link ReaderMailbox} with N producer threads (run with {@code -t 1},
 * {@code -t 4}, {@code -t 16}) while a consumer thread drains, as an operation thread sees it:
 * building the envelope plus {@code admit}. SampleTime mode reports p50/p99/p99.9; {@code -prof gc}
 * reports bytes allocated per admission (the envelope, its builder and the mailbox entry of an
 * accepted command are the only allocations).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"-Xmx1g"})
public class AdmissionBenchmark {
    private static final byte[] PAYLOAD = new byte[64];

    static final int PREBUILT = 1 << 20;

    ReaderMailbox mailbox;
    SourceCommandEnvelope[] prebuilt;
    final java.util.concurrent.atomic.AtomicInteger cursor =
            new java.util.concurrent.atomic.AtomicInteger();
    Thread consumer;
    volatile boolean running;
    final AtomicLong ids = new AtomicLong();

    @Setup(Level.Trial)
    public void setUp() {
        mailbox =
                new ReaderMailbox(
                        1,
                        1,
                        0,
                        1,
                        new MailboxLimits(1 << 16, 1L << 30, 64, 256 << 10, 512 << 10, 4096, 10),
                        new WorkerMailboxBudget(1L << 31),
                        NanoClock.SYSTEM,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        // Far more distinct ids than the dedup window, so a reused envelope is admitted again.
        prebuilt = new SourceCommandEnvelope[PREBUILT];
        for (int i = 0; i < PREBUILT; i++) {
            prebuilt[i] =
                    SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                            .jobId(1)
                            .sourceRuntimeId(1)
                            .targetAttemptId(1)
                            .coordinatorEpoch(1)
                            .senderSequence(i + 1)
                            .commandId(i + 1)
                            .payload(PAYLOAD)
                            .build();
        }
        running = true;
        consumer =
                new Thread(
                        () -> {
                            while (running) {
                                MailboxEntry e = mailbox.poll();
                                if (e == null) {
                                    Thread.onSpinWait();
                                } else {
                                    mailbox.complete(e);
                                }
                            }
                        },
                        "bench-consumer");
        consumer.setDaemon(true);
        consumer.start();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        running = false;
        consumer.join(5000);
    }

    /** Outcome counters per thread, so a run shows how often the bound answered RETRY_LATER. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Outcomes {
        public long accepted;
        public long notAccepted;
    }

    /**
     * The admission path alone, on envelopes built before the measurement: {@code -prof gc} shows
     * what admission itself allocates (the mailbox entry of an accepted command, nothing else).
     */
    @Benchmark
    public long admitPrebuilt(Outcomes outcomes) {
        long r = mailbox.admit(prebuilt[cursor.getAndIncrement() & (PREBUILT - 1)]);
        if (r >= 0) {
            outcomes.accepted++;
        } else {
            outcomes.notAccepted++;
        }
        return r;
    }

    @Benchmark
    public long admit(Outcomes outcomes) {
        long id = ids.incrementAndGet();
        SourceCommandEnvelope env =
                SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                        .jobId(1)
                        .sourceRuntimeId(1)
                        .targetAttemptId(1)
                        .coordinatorEpoch(1)
                        .senderSequence(id)
                        .commandId(id)
                        .payload(PAYLOAD)
                        .build();
        long r = mailbox.admit(env);
        if (r >= 0) {
            outcomes.accepted++;
        } else {
            outcomes.notAccepted++;
        }
        return r;
    }
}
