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

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.seatunnel.api.serialization.Serializer;
import org.apache.seatunnel.api.source.Collector;
import org.apache.seatunnel.api.source.SourceEvent;
import org.apache.seatunnel.api.source.SourceSplit;
import org.apache.seatunnel.api.source.managed.ManagedSourceCapability;
import org.apache.seatunnel.api.source.managed.ManagedSourceReader;
import org.apache.seatunnel.api.source.managed.PollContext;
import org.apache.seatunnel.api.source.managed.PollStatus;
import org.apache.seatunnel.engine.managed.source.protocol.SourceCommandEnvelope;
import org.apache.seatunnel.engine.managed.source.reader.LocalSignals;
import org.apache.seatunnel.engine.managed.source.reader.LoopSignal;
import org.apache.seatunnel.engine.managed.source.reader.MailboxLimits;
import org.apache.seatunnel.engine.managed.source.reader.NanoClock;
import org.apache.seatunnel.engine.managed.source.reader.OffLoopStateCheck;
import org.apache.seatunnel.engine.managed.source.reader.PollBudget;
import org.apache.seatunnel.engine.managed.source.reader.ReaderCheckpointCut;
import org.apache.seatunnel.engine.managed.source.reader.ReaderEventLoop;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopHost;
import org.apache.seatunnel.engine.managed.source.reader.ReaderLoopMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailbox;
import org.apache.seatunnel.engine.managed.source.reader.ReaderMailboxMetrics;
import org.apache.seatunnel.engine.managed.source.reader.ReaderSnapshot;
import org.apache.seatunnel.engine.managed.source.reader.WorkerMailboxBudget;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What {@code reader.off-loop-check} costs a reader event loop: {@link #checkpoint} is one
 * checkpoint of a reader holding {@code splits} splits as the Zeta host runs it (the barrier, whose
 * host serializes every split as {@code ReaderAttempt} does, the checkpoint's completion, and 16
 * poll turns of 64 records, so that a sample watches all its windows); {@link #turn} is one poll
 * turn with no checkpoint. With {@code check} {@code off}, {@code 10} (the default interval: one
 * checkpoint in ten) and {@code 1} (every checkpoint). A checked checkpoint snapshots the reader 15
 * more times (at both ends of its 8 windows but the barrier's start) and serializes its state 16
 * more times.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class OffLoopCheckBenchmark {
    @Param({"off", "10", "1"})
    public String check;

    @Param({"4", "64", "1024"})
    public int splits;

    ReaderEventLoop<Object, BenchSplit> loop;
    ReaderMailbox mailbox;
    LocalSignals local;
    long checkpointId;

    @Setup
    public void setUp(Blackhole bh) throws Exception {
        mailbox =
                new ReaderMailbox(
                        1,
                        1,
                        0,
                        1,
                        MailboxLimits.defaults(),
                        new WorkerMailboxBudget(256L << 20),
                        NanoClock.SYSTEM,
                        new LoopSignal(),
                        new ReaderMailboxMetrics());
        local = new LocalSignals(mailbox);
        Object lock = new Object();
        Collector<Object> sink =
                new Collector<Object>() {
                    @Override
                    public void collect(Object record) {
                        bh.consume(record);
                    }

                    @Override
                    public Object getCheckpointLock() {
                        return lock;
                    }
                };
        loop =
                new ReaderEventLoop<>(
                        mailbox,
                        new PositionReader(splits),
                        new SerializingHost(bh),
                        sink,
                        PollBudget.defaults(),
                        r -> 8,
                        new ReaderLoopMetrics());
        if (!"off".equals(check)) {
            loop.setOffLoopCheck(
                    new OffLoopStateCheck<>(Integer.parseInt(check), BenchSplit.SERIALIZER));
        }
        loop.start(0);
    }

    /** Poll turns between two checkpoints: enough for a sample to watch all its windows. */
    static final int TURNS_PER_CHECKPOINT = 16;

    /**
     * One checkpoint: barrier (snapshot serialized by the host), completion, then {@link
     * #TURNS_PER_CHECKPOINT} turns of 64 records.
     */
    @Benchmark
    public Object checkpoint() {
        long id = ++checkpointId;
        local.barrier(id);
        loop.runControls();
        local.checkpointComplete(id);
        Object last = null;
        for (int i = 0; i < TURNS_PER_CHECKPOINT; i++) {
            last = loop.runOnce();
        }
        return last;
    }

    /** One poll turn of 64 records, no checkpoint: the hot path. */
    @Benchmark
    public Object turn() {
        return loop.runOnce();
    }

    /** A split of one position, serialized as a connector's versioned serializer would. */
    static final class BenchSplit implements SourceSplit {
        private static final long serialVersionUID = 1L;

        static final Serializer<BenchSplit> SERIALIZER =
                new Serializer<BenchSplit>() {
                    @Override
                    public byte[] serialize(BenchSplit s) {
                        byte[] id = s.id.getBytes(StandardCharsets.UTF_8);
                        return ByteBuffer.allocate(1 + 4 + id.length + 8)
                                .put((byte) 1)
                                .putInt(id.length)
                                .put(id)
                                .putLong(s.position)
                                .array();
                    }

                    @Override
                    public BenchSplit deserialize(byte[] b) {
                        ByteBuffer buf = ByteBuffer.wrap(b);
                        buf.get();
                        byte[] id = new byte[buf.getInt()];
                        buf.get(id);
                        return new BenchSplit(
                                new String(id, StandardCharsets.UTF_8), buf.getLong());
                    }
                };

        final String id;
        final long position;

        BenchSplit(String id, long position) {
            this.id = id;
            this.position = position;
        }

        @Override
        public String splitId() {
            return id;
        }
    }

    /**
     * Holds {@code n} split positions; a turn emits 64 records, each moving one split's position; a
     * snapshot hands out a new split per position, as the reader base does.
     */
    static final class PositionReader implements ManagedSourceReader<Object, BenchSplit> {
        private final String[] ids;
        private final long[] positions;
        private int next;
        private final CompletableFuture<Void> available = CompletableFuture.completedFuture(null);

        PositionReader(int n) {
            ids = new String[n];
            positions = new long[n];
            for (int i = 0; i < n; i++) {
                ids[i] = "topic-" + i;
            }
        }

        @Override
        public ManagedSourceCapability managedSourceCapability() {
            return ManagedSourceCapability.builder().boundedPoll(true).wakeup(true).build();
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public PollStatus pollNextManaged(Collector<Object> output, PollContext ctx) {
            for (int i = ctx.remainingRecords(); i > 0; i--) {
                int s = next;
                next = s + 1 == positions.length ? 0 : s + 1;
                output.collect(ids[s]);
                positions[s]++;
            }
            return PollStatus.MORE_AVAILABLE;
        }

        @Override
        public List<BenchSplit> snapshotState(long checkpointId) {
            List<BenchSplit> out = new ArrayList<>(positions.length);
            for (int i = 0; i < positions.length; i++) {
                out.add(new BenchSplit(ids[i], positions[i]));
            }
            return out;
        }

        @Override
        public void wakeup() {}

        @Override
        public void open() {}

        @Override
        public void close() {}

        @Override
        public void pollNext(Collector<Object> output) {
            throw new UnsupportedOperationException("Lane A only");
        }

        @Override
        public void addSplits(List<BenchSplit> splits) {}

        @Override
        public void handleNoMoreSplits() {}

        @Override
        public void handleSourceEvent(SourceEvent sourceEvent) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {}
    }

    /** Serializes each split of a snapshot, as {@code ReaderAttempt}'s callback does. */
    static final class SerializingHost implements ReaderLoopHost<BenchSplit> {
        private final Blackhole bh;

        SerializingHost(Blackhole bh) {
            this.bh = bh;
        }

        @Override
        public List<BenchSplit> decodeSplits(SourceCommandEnvelope assignment) {
            return new ArrayList<>();
        }

        @Override
        public SourceEvent decodeSourceEvent(SourceCommandEnvelope event) {
            return null;
        }

        @Override
        public ReaderSnapshot onCheckpoint(long id, List<BenchSplit> state, ReaderCheckpointCut cut)
                throws java.io.IOException {
            for (BenchSplit s : state) {
                bh.consume(s.splitId());
                bh.consume(BenchSplit.SERIALIZER.serialize(s));
            }
            return null;
        }

        @Override
        public void onCheckpointFailed(long checkpointId, Throwable cause) {}

        @Override
        public void onApplied(SourceCommandEnvelope command) {}

        @Override
        public void onEndOfInput() {}
    }
}
