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
import org.apache.seatunnel.engine.managed.source.protocol.CommandKind;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxEntry;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Drain throughput of the mailbox's consumer side: a batch of 1024 prebuilt commands admitted and
 * then polled and completed, reported per command.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DrainBenchmark {
    static final int BATCH = 1024;
    ReaderMailbox mailbox;
    SourceCommandEnvelope[] commands;
    long round;

    @Setup
    public void setUp() {
        mailbox =
                new ReaderMailbox(
                        1,
                        1,
                        0,
                        1,
                        new MailboxLimits(BATCH, 1L << 30, 64, 256 << 10, 512 << 10, 4096, 10),
                        new WorkerMailboxBudget(1L << 31),
                        NanoClock.SYSTEM,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        commands = new SourceCommandEnvelope[BATCH];
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int admitThenDrain() {
        // Fresh ids each round so the admission dedup window never answers DUPLICATE.
        long base = ++round * BATCH;
        for (int i = 0; i < BATCH; i++) {
            commands[i] =
                    SourceCommandEnvelope.builder(CommandKind.SPLIT_ASSIGNMENT)
                            .jobId(1)
                            .sourceRuntimeId(1)
                            .targetAttemptId(1)
                            .coordinatorEpoch(1)
                            .senderSequence(base + i)
                            .commandId(base + i)
                            .build();
            mailbox.admit(commands[i]);
        }
        int n = 0;
        for (MailboxEntry e = mailbox.poll(); e != null; e = mailbox.poll()) {
            mailbox.complete(e);
            n++;
        }
        return n;
    }
}
